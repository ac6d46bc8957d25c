package apiserver

import "github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"

// servesSubresource says which subresources a resource has: status where the kind has one,
// scale for deployments, replicasets and statefulsets, and finalize for namespaces.
func servesSubresource(res *resource, sub string) bool {
	switch sub {
	case "status":
		return res.Strategy.HasStatus()
	case "finalize":
		_, ok := res.Strategy.(rest.FinalizeStrategy)
		return ok
	case "scale":
		return res.Strategy.HasScale()
	}
	return false
}
