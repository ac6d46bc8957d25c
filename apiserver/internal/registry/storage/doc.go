// Package storage holds the strategies of the storage.k8s.io/v1 kinds, one file per kind, on
// the model of kubernetes pkg/registry/storage/<kind>/strategy.go:
//
//  1. VolumeAttachments have the status subresource: a create resets the status (written
//     out as {"attached":false}) and an update of the main resource keeps the stored one.
//  2. CSIDrivers keep the generation the create left (none: their strategy sets none) and
//     move it by one on every change of the spec. CSIDriver drops
//     spec.preventPodSchedulingIfMissing, as the VolumeLimitScaling gate is off in v1.36,
//     unless the stored driver already has it.
//  3. CSIDrivers, CSINodes, CSIStorageCapacities and VolumeAttachments refuse an update
//     without a resourceVersion; StorageClasses and VolumeAttributesClasses accept one.
//  4. Every kind but CSIStorageCapacity answers a DELETE with the deleted object.
//  5. The strategies' warnings are the real ones: a CSIDriver with tokenRequests and no
//     serviceAccountTokenInSecrets, and deprecated node labels in a StorageClass's
//     allowedTopologies or a CSIStorageCapacity's nodeTopology.
package storage

import "github.com/informer-lab/informer-lab/api"

func gvk(kind string) api.GroupVersionKind {
	return api.GroupVersionKind{Group: "storage.k8s.io", Version: "v1", Kind: kind}
}

// spec returns obj's spec object, or nil.
func spec(obj *api.Unstructured) map[string]any {
	s, _ := obj.Object["spec"].(map[string]any)
	return s
}
