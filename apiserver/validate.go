package apiserver

import (
	"errors"
	"fmt"
	"slices"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// The validation step of a write: the strategies' Validate and ValidateUpdate, over the
// presence and semantic checks of validate_kinds.go.

// validate runs the strategy's validation: metadata for every kind (E11–E16), then the
// kind's own checks (the data of configmaps and secrets, E10).
func validate(res *resource, obj *api.Unstructured) error {
	isNS := isNamespaces(res)
	var causes []api.StatusCause
	if err := validation.ValidateObjectMeta(res.info.groupKind().String(), obj, isNS, res.info.Namespaced); err != nil {
		var st *api.Status
		if !errors.As(err, &st) || st.Details == nil || len(st.Details.Causes) == 0 {
			return err
		}
		causes = st.Details.Causes
	}
	causes = append(causes, kindCauses(res, obj)...)
	if len(causes) > 0 {
		return api.NewInvalid(res.info.groupKind(), obj.GetName(), causes)
	}
	if res.info.builtin && res.info.Group == "" && res.info.Kind == "ConfigMap" {
		return validation.ValidateConfigMapSize(obj.GetName(), stringMapOf(obj.Object, "data"), stringMapOf(obj.Object, "binaryData"))
	}
	return nil
}

// stringMapOf reads a map of strings; members of another type are left out (the decoder has
// refused them already).
func stringMapOf(obj map[string]any, fields ...string) map[string]string {
	m, _, _ := api.NestedMap(obj, fields...)
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}

// validateUpdate is the update strategies' ValidateUpdate: ValidateObjectMetaAccessorUpdate's
// rule that no finalizer may be added once deletion has begun (422, ahead of any other
// cause), a namespace's phase rule, then the rules every write obeys.
func validateUpdate(res *resource, obj *api.Unstructured, old *record) error {
	m := obj
	var causes []api.StatusCause
	if old.Obj.GetDeletionTimestamp() != nil {
		var extra []string
		for _, f := range m.GetFinalizers() {
			if !slices.Contains(old.Obj.GetFinalizers(), f) && !slices.Contains(extra, f) {
				extra = append(extra, f)
			}
		}
		if len(extra) > 0 {
			slices.Sort(extra)
			causes = append(causes, validation.Forbidden("metadata.finalizers", fmt.Sprintf(
				"no new finalizers can be added if the object is being deleted, found new finalizers %#v", extra)))
		}
	}
	if isNamespaces(res) {
		causes = append(causes, namespacePhaseCauses(obj)...)
	}
	if isCRDs(res) {
		causes = append(causes, crdUpdateCauses(obj, old.Obj)...)
	}
	err := validate(res, obj)
	if len(causes) == 0 {
		return err
	}
	var st *api.Status
	if errors.As(err, &st) && st.Details != nil {
		causes = append(causes, st.Details.Causes...)
	} else if err != nil {
		return err
	}
	return api.NewInvalid(res.info.groupKind(), m.GetName(), causes)
}
