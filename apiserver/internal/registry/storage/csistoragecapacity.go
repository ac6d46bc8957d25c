package storage

import (
	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/node"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

// CSIStorageCapacities is the csistoragecapacities resource
// (pkg/registry/storage/csistoragecapacity). Its storage has no printer: tables are the
// default convertor's.
func CSIStorageCapacities() rest.Kind {
	return rest.Kind{Group: "storage.k8s.io", Resource: "csistoragecapacities", Kind: "CSIStorageCapacity",
		Strategy: capacityStrategy{rest.Base{GVK: gvk("CSIStorageCapacity")}}}
}

type capacityStrategy struct{ rest.Base }

// WarningsOnCreate mirrors csiStorageCapacityStrategy.WarningsOnCreate
// (GetWarningsForCSIStorageCapacity).
func (capacityStrategy) WarningsOnCreate(obj *api.Unstructured) []string {
	return capacityWarnings(obj)
}

// WarningsOnUpdate mirrors csiStorageCapacityStrategy.WarningsOnUpdate: the same warnings.
func (capacityStrategy) WarningsOnUpdate(obj, _ *api.Unstructured) []string {
	return capacityWarnings(obj)
}

func capacityWarnings(obj *api.Unstructured) []string {
	sel, ok := obj.Object["nodeTopology"].(map[string]any)
	if !ok {
		return nil
	}
	return node.SelectorWarnings(sel, "nodeTopology")
}
