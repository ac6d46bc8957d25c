package core

import "github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"

// PersistentVolumeClaims is the persistentvolumeclaims resource
// (pkg/registry/core/persistentvolumeclaim): PrepareForCreate empties the status; the v1
// defaults then set phase Pending on it.
func PersistentVolumeClaims() rest.Kind {
	return rest.Kind{Resource: "persistentvolumeclaims", Kind: "PersistentVolumeClaim", ShortNames: []string{"pvc"}, ReturnDeletedObject: true,
		Strategy: persistentVolumeClaimStrategy{rest.Base{GVK: gvk("PersistentVolumeClaim"), Status: true, Unconditional: true, ResetStatus: rest.EmptyStatus}}}
}
