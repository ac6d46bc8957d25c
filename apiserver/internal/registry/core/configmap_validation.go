package core

import (
	"reflect"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// immutableDataCauses mirrors the rules ValidateConfigMapUpdate and ValidateSecretUpdate
// share: once `immutable` is set, it stays set and the data do not change.
func immutableDataCauses(obj, old *api.Unstructured) []api.StatusCause {
	if b, _ := old.Object["immutable"].(bool); !b {
		return nil
	}
	var causes []api.StatusCause
	const detail = "field is immutable when `immutable` is set"
	if b, _ := obj.Object["immutable"].(bool); !b {
		causes = append(causes, validation.Forbidden("immutable", detail))
	}
	for _, k := range []string{"data", "binaryData"} {
		if !reflect.DeepEqual(obj.Object[k], old.Object[k]) {
			causes = append(causes, validation.Forbidden(k, detail))
		}
	}
	return causes
}

// ValidateUpdate implements rest.Strategy: ValidateConfigMapUpdate's immutable data.
func (configMapStrategy) ValidateUpdate(obj, old *api.Unstructured) []api.StatusCause {
	return immutableDataCauses(obj, old)
}

// secretStrategy mirrors pkg/registry/core/secret/strategy.go.
type secretStrategy struct{ rest.Base }

// ValidateUpdate implements rest.Strategy: ValidateSecretUpdate's immutable type, then its
// immutable data.
func (secretStrategy) ValidateUpdate(obj, old *api.Unstructured) []api.StatusCause {
	var causes []api.StatusCause
	if t, ot := obj.Object["type"], old.Object["type"]; !reflect.DeepEqual(t, ot) {
		causes = append(causes, validation.Invalid("type", t, "field is immutable"))
	}
	return append(causes, immutableDataCauses(obj, old)...)
}
