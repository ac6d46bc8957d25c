// Package policy holds the strategy of policy/v1 PodDisruptionBudgets, on the model of
// kubernetes pkg/registry/policy/poddisruptionbudget/strategy.go:
//
//  1. A budget starts with a zeroed status, which only its status subresource writes (the
//     disruption controller, and the eviction subresource of pods).
//  2. Its generation starts at 1 and moves on spec changes, so status.observedGeneration
//     says whether the status is current: an eviction refuses while it is not.
//  3. Unlike most built-ins, an update must carry metadata.resourceVersion.
//  4. minAvailable and maxUnavailable are exclusive, each a count or a percentage up to 100%.
package policy

import "github.com/informer-lab/informer-lab/api"

func gvk(kind string) api.GroupVersionKind {
	return api.GroupVersionKind{Group: "policy", Version: "v1", Kind: kind}
}
