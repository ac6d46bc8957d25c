package apps

import (
	"encoding/json"
	"reflect"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// controllerRevisionStrategy mirrors pkg/registry/apps/controllerrevision/strategy.go: no
// status, no generation; the data is required on create and immutable after it, while the
// revision number may change.
type controllerRevisionStrategy struct{ rest.Base }

// Validate implements rest.Strategy: ValidateControllerRevisionCreate.
func (controllerRevisionStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	causes := revisionCauses(obj)
	switch data, ok := obj.Object["data"]; {
	case !ok || data == nil:
		causes = append(causes, validation.Required("data", "data is mandatory"))
	default:
		if _, isObject := data.(map[string]any); !isObject {
			causes = append(causes, validation.Required("data", "data must be a valid JSON object"))
		}
	}
	return causes
}

// ValidateUpdate implements rest.Strategy: ValidateControllerRevisionUpdate's immutable
// data (the store adds Validate's causes, which for an update are the revision's only).
func (controllerRevisionStrategy) ValidateUpdate(obj, old *api.Unstructured) []api.StatusCause {
	if reflect.DeepEqual(obj.Object["data"], old.Object["data"]) {
		return nil
	}
	text, _ := json.Marshal(obj.Object["data"])
	return []api.StatusCause{validation.InvalidRaw("data", string(text), "field is immutable")}
}

// Canonicalize implements rest.Strategy: the revision is always written out.
func (controllerRevisionStrategy) Canonicalize(obj *api.Unstructured) {
	rest.EnsureMember(obj.Object, int64(0), "revision")
}

// revisionCauses is validateControllerRevision's check of the revision number.
func revisionCauses(obj *api.Unstructured) []api.StatusCause {
	if n, ok := api.AsInt64(obj.Object["revision"]); ok && n < 0 {
		return []api.StatusCause{validation.Invalid("revision", n, "must be greater than or equal to 0")}
	}
	return nil
}

// ControllerRevisions is the controllerrevisions resource (pkg/registry/apps/controllerrevision).
func ControllerRevisions() rest.Kind {
	return rest.Kind{Group: "apps", Resource: "controllerrevisions", Kind: "ControllerRevision",
		Strategy: controllerRevisionStrategy{rest.Base{GVK: gvk("ControllerRevision"), Unconditional: true}}}
}
