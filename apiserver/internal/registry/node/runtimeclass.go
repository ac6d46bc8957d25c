package node

import (
	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
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

// Validate implements rest.Strategy: ValidateRuntimeClass's handler, which must be a DNS
// label, and the tolerations of its scheduling, then presence.
func (s runtimeClassStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	var causes []api.StatusCause
	if h, _ := obj.Object["handler"].(string); h != "" {
		for _, msg := range validation.IsDNS1123Label(h) {
			causes = append(causes, validation.Invalid("handler", h, msg))
		}
	}
	sched, _ := obj.Object["scheduling"].(map[string]any)
	if ts, ok := sched["tolerations"].([]any); ok {
		causes = append(causes, validation.TolerationCauses(ts, "scheduling.tolerations")...)
	}
	return rest.RequiredCauses(s.GVK, obj, causes, "")
}
