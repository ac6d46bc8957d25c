package resource

import "github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"

// ResourceClaims is the resourceclaims resource (pkg/registry/resource/resourceclaim). The
// gates its spec fields depend on (DRAPrioritizedList, DRADeviceTaints, DRAAdminAccess,
// DRAConsumableCapacity) are all on in v1.36, so nothing is dropped.
func ResourceClaims() rest.Kind {
	return rest.Kind{Group: "resource.k8s.io", Resource: "resourceclaims", Kind: "ResourceClaim", ReturnDeletedObject: true,
		Strategy: claimStrategy{rest.Base{GVK: gvk("ResourceClaim"), Status: true, Unconditional: true, ResetStatus: rest.EmptyStatus}, "spec"}}
}
