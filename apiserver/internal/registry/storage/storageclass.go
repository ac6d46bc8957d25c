package storage

import (
	"fmt"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/node"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

// StorageClasses is the storageclasses resource (pkg/registry/storage/storageclass). The
// default-class annotation matters only to the DefaultStorageClass admission plugin and the
// printer.
func StorageClasses() rest.Kind {
	return rest.Kind{Group: "storage.k8s.io", Resource: "storageclasses", Kind: "StorageClass", ShortNames: []string{"sc"},
		ReturnDeletedObject: true,
		Strategy:            storageClassStrategy{rest.Base{GVK: gvk("StorageClass"), Cluster: true, Unconditional: true}}}
}

type storageClassStrategy struct{ rest.Base }

// WarningsOnCreate mirrors storageClassStrategy.WarningsOnCreate (GetWarningsForStorageClass).
func (storageClassStrategy) WarningsOnCreate(obj *api.Unstructured) []string {
	return storageClassWarnings(obj)
}

// WarningsOnUpdate mirrors storageClassStrategy.WarningsOnUpdate: the same warnings.
func (storageClassStrategy) WarningsOnUpdate(obj, _ *api.Unstructured) []string {
	return storageClassWarnings(obj)
}

// storageClassWarnings mirrors GetWarningsForStorageClass: a deprecated node label as the
// key of an allowedTopologies term.
func storageClassWarnings(obj *api.Unstructured) []string {
	var warnings []string
	topos, _ := obj.Object["allowedTopologies"].([]any)
	for i, t := range topos {
		term, _ := t.(map[string]any)
		exprs, _ := term["matchLabelExpressions"].([]any)
		for j, e := range exprs {
			expr, _ := e.(map[string]any)
			key, _ := expr["key"].(string)
			if msg, ok := node.DeprecatedLabelMessage(key); ok {
				warnings = append(warnings, fmt.Sprintf("allowedTopologies[%d].matchLabelExpressions[%d].key: %s", i, j, msg))
			}
		}
	}
	return warnings
}
