package storage

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// Validate implements rest.Strategy: the reclaim policy and binding mode enums of
// ValidateStorageClass and its allowed topologies, then presence.
func (s storageClassStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	var causes []api.StatusCause
	if rp, ok := obj.Object["reclaimPolicy"].(string); ok && rp != "" && !slices.Contains([]string{"Delete", "Retain"}, rp) {
		causes = append(causes, validation.NotSupported("reclaimPolicy", rp, []string{"Delete", "Retain"}))
	}
	if m, ok := obj.Object["volumeBindingMode"].(string); ok && !slices.Contains([]string{"Immediate", "WaitForFirstConsumer"}, m) {
		causes = append(causes, validation.NotSupported("volumeBindingMode", m, []string{"Immediate", "WaitForFirstConsumer"}))
	}
	terms, _ := obj.Object["allowedTopologies"].([]any)
	for i, t := range terms {
		tm, _ := t.(map[string]any)
		exprs, _ := tm["matchLabelExpressions"].([]any)
		keys := map[string]bool{}
		for j, e := range exprs {
			em, _ := e.(map[string]any)
			path := fmt.Sprintf("allowedTopologies[%d].matchLabelExpressions[%d]", i, j)
			causes = append(causes, topologyRequirementCauses(em, path)...)
			key, _ := em["key"].(string)
			if keys[key] {
				causes = append(causes, validation.Duplicate(path+".key", key))
			}
			keys[key] = true
		}
	}
	return rest.RequiredCauses(s.GVK, obj, causes, "")
}

// topologyRequirementCauses mirrors validateTopologySelectorLabelRequirement: values
// required and unique, the key a label name.
func topologyRequirementCauses(req map[string]any, path string) []api.StatusCause {
	var causes []api.StatusCause
	values, _ := req["values"].([]any)
	if len(values) == 0 {
		causes = append(causes, validation.Required(path+".values", ""))
	}
	seen := map[string]bool{}
	for i, v := range values {
		s, _ := v.(string)
		if seen[s] {
			causes = append(causes, validation.Duplicate(fmt.Sprintf("%s.values[%d]", path, i), s))
		}
		seen[s] = true
	}
	key, _ := req["key"].(string)
	for _, msg := range validation.IsQualifiedName(key) {
		causes = append(causes, validation.Invalid(path+".key", key, msg))
	}
	return causes
}

// ValidateUpdate implements rest.Strategy: ValidateStorageClassUpdate's immutable members.
func (storageClassStrategy) ValidateUpdate(obj, old *api.Unstructured) []api.StatusCause {
	var causes []api.StatusCause
	for _, k := range []string{"parameters", "provisioner", "reclaimPolicy", "volumeBindingMode"} {
		if !reflect.DeepEqual(obj.Object[k], old.Object[k]) {
			causes = append(causes, validation.Invalid(k, obj.Object[k], "field is immutable"))
		}
	}
	return causes
}
