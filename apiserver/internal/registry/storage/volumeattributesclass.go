package storage

import "github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"

// VolumeAttributesClasses is the volumeattributesclasses resource
// (pkg/registry/storage/volumeattributesclass). The kubernetes.io/vac-protection finalizer
// a real server adds comes from the StorageObjectInUseProtection admission plugin, not
// from the strategy.
func VolumeAttributesClasses() rest.Kind {
	return rest.Kind{Group: "storage.k8s.io", Resource: "volumeattributesclasses", Kind: "VolumeAttributesClass",
		ShortNames: []string{"vac"}, ReturnDeletedObject: true,
		Strategy: rest.Base{GVK: gvk("VolumeAttributesClass"), Cluster: true, Unconditional: true}}
}
