package storage

import (
	"reflect"
	"slices"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// Validate implements rest.Strategy: the reclaim policy and binding mode enums of
// ValidateStorageClass, then presence.
func (s storageClassStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	var causes []api.StatusCause
	if rp, ok := obj.Object["reclaimPolicy"].(string); ok && rp != "" && !slices.Contains([]string{"Delete", "Retain"}, rp) {
		causes = append(causes, validation.NotSupported("reclaimPolicy", rp, []string{"Delete", "Retain"}))
	}
	if m, ok := obj.Object["volumeBindingMode"].(string); ok && !slices.Contains([]string{"Immediate", "WaitForFirstConsumer"}, m) {
		causes = append(causes, validation.NotSupported("volumeBindingMode", m, []string{"Immediate", "WaitForFirstConsumer"}))
	}
	return rest.RequiredCauses(s.GVK, obj, causes, "")
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
