package coordination

import (
	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

// Leases is the leases resource.
func Leases() rest.Kind {
	return rest.Kind{Group: "coordination.k8s.io", Resource: "leases", Kind: "Lease",
		Strategy: rest.Base{GVK: api.GroupVersionKind{Group: "coordination.k8s.io", Version: "v1", Kind: "Lease"}, Unconditional: true}}
}
