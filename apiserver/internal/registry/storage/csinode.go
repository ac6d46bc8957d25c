package storage

import "github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"

// CSINodes is the csinodes resource (pkg/registry/storage/csinode): the generic strategy,
// cluster-scoped, conditional updates only.
func CSINodes() rest.Kind {
	return rest.Kind{Group: "storage.k8s.io", Resource: "csinodes", Kind: "CSINode", ReturnDeletedObject: true,
		Strategy: csiNodeStrategy{rest.Base{GVK: gvk("CSINode"), Cluster: true}}}
}
