package storage

import "github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"

// VolumeAttachments is the volumeattachments resource (pkg/registry/storage/volumeattachment):
// a status subresource, a create starting with VolumeAttachmentStatus{} (attached is never
// omitted), conditional updates only.
func VolumeAttachments() rest.Kind {
	return rest.Kind{Group: "storage.k8s.io", Resource: "volumeattachments", Kind: "VolumeAttachment", ReturnDeletedObject: true,
		Strategy: volumeAttachmentStrategy{rest.Base{GVK: gvk("VolumeAttachment"), Cluster: true, Status: true,
			ResetStatus: func() map[string]any { return map[string]any{"attached": false} }}}}
}
