package node

import (
	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

// RuntimeClasses is the runtimeclasses resource (pkg/registry/node/runtimeclass).
func RuntimeClasses() rest.Kind {
	return rest.Kind{Group: "node.k8s.io", Resource: "runtimeclasses", Kind: "RuntimeClass",
		Strategy: runtimeClassStrategy{rest.Base{GVK: api.GroupVersionKind{Group: "node.k8s.io", Version: "v1", Kind: "RuntimeClass"}, Cluster: true}}}
}

type runtimeClassStrategy struct{ rest.Base }

// WarningsOnCreate mirrors strategy.WarningsOnCreate (GetWarningsForRuntimeClass).
func (runtimeClassStrategy) WarningsOnCreate(obj *api.Unstructured) []string {
	return runtimeClassWarnings(obj)
}

// WarningsOnUpdate mirrors strategy.WarningsOnUpdate: the same warnings.
func (runtimeClassStrategy) WarningsOnUpdate(obj, _ *api.Unstructured) []string {
	return runtimeClassWarnings(obj)
}

// runtimeClassWarnings mirrors GetWarningsForRuntimeClass, whose text names the field but
// not the label, in the selector's (map) order.
func runtimeClassWarnings(obj *api.Unstructured) []string {
	sched, _ := obj.Object["scheduling"].(map[string]any)
	sel, _ := sched["nodeSelector"].(map[string]any)
	var warnings []string
	for _, key := range sortedKeys(sel) {
		if msg, ok := DeprecatedLabelMessage(key); ok {
			warnings = append(warnings, "scheduling.nodeSelector: "+msg)
		}
	}
	return warnings
}
