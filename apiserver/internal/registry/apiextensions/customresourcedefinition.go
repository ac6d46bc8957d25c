package apiextensions

import (
	"fmt"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/structural"
)

// Strategy mirrors the strategy of pkg/registry/customresourcedefinition in
// k8s.io/apiextensions-apiserver: the status cleared on create but for storedVersions (its
// controllers fill it after the write: controllers.go), the status kept on update but for a
// new storage version joining storedVersions, the generation moving on spec changes, the
// group and plural immutable, scope and kind too once Established.
type Strategy struct{ rest.Base }

// NewStrategy returns the CRD strategy.
func NewStrategy() Strategy {
	return Strategy{rest.Base{GVK: api.GroupVersionKind{Group: Group, Version: "v1", Kind: "CustomResourceDefinition"}, Cluster: true, Status: true, Generation: true}}
}

// PrepareForCreate implements rest.Strategy, as strategy.PrepareForCreate: the status the
// write stores, before any controller has seen the CRD (conditions null, names empty).
func (Strategy) PrepareForCreate(_ rest.Context, obj *api.Unstructured) {
	status := map[string]any{
		"conditions":     nil,
		"acceptedNames":  map[string]any{"plural": "", "kind": ""},
		"storedVersions": nil,
	}
	if sv := ReadSpec(obj).StorageVersion(); sv != "" {
		status["storedVersions"] = []any{sv}
	}
	obj.Object["status"] = status
}

// PrepareForUpdate implements rest.Strategy: the stored status, the generation, and the
// storage version added to storedVersions.
func (s Strategy) PrepareForUpdate(ctx rest.Context, obj, old *api.Unstructured) {
	s.Base.PrepareForUpdate(ctx, obj, old)
	addStoredVersion(obj)
}

// addStoredVersion appends the storage version to status.storedVersions if missing.
func addStoredVersion(obj *api.Unstructured) {
	sv := ReadSpec(obj).StorageVersion()
	if sv == "" {
		return
	}
	st, _ := obj.Object["status"].(map[string]any)
	if st == nil {
		st = map[string]any{}
		obj.Object["status"] = st
	}
	stored, _ := st["storedVersions"].([]any)
	for _, v := range stored {
		if v == sv {
			return
		}
	}
	st["storedVersions"] = append(stored, sv)
}

// Validate implements rest.Strategy.
func (s Strategy) Validate(obj *api.Unstructured) []api.StatusCause {
	return Causes(obj)
}

// ValidateUpdate implements rest.Strategy: what an update may not change (the store adds
// Validate's causes, the create's checks on the new CRD).
func (Strategy) ValidateUpdate(obj, old *api.Unstructured) []api.StatusCause {
	return UpdateCauses(obj, old)
}

// WarningsOnCreate implements rest.Strategy: an `unrecognized format "…"` warning for every
// format the server does not check.
// ValidateLate implements rest.LateValidator: a CRD too large for etcd (a schema of
// 1.5 MiB) is the real 500, as a custom object is.
func (Strategy) ValidateLate(obj *api.Unstructured) error {
	return tooLargeForEtcd(obj)
}

func (Strategy) WarningsOnCreate(obj *api.Unstructured) []string {
	return formatWarnings(obj, nil)
}

// WarningsOnUpdate implements rest.Strategy: the unrecognized formats the update brings.
func (Strategy) WarningsOnUpdate(obj, old *api.Unstructured) []string {
	return formatWarnings(obj, old)
}

func formatWarnings(obj, old *api.Unstructured) []string {
	had := map[string]bool{}
	if old != nil {
		for _, f := range unrecognizedFormats(old) {
			had[f] = true
		}
	}
	var out []string
	for _, f := range unrecognizedFormats(obj) {
		if !had[f] {
			out = append(out, fmt.Sprintf("unrecognized format %q", f))
		}
	}
	return out
}

func unrecognizedFormats(obj *api.Unstructured) []string {
	var out []string
	for i := range versionsOf(obj) {
		if tree, ok := VersionSchema(obj, i); ok {
			out = append(out, structural.UnrecognizedFormats(structural.Parse(tree))...)
		}
	}
	return out
}

// CustomResourceDefinitions is the customresourcedefinitions resource.
func CustomResourceDefinitions() rest.Kind {
	return rest.Kind{Group: Group, Resource: "customresourcedefinitions", Kind: "CustomResourceDefinition",
		ShortNames: []string{"crd", "crds"}, Categories: []string{"api-extensions"}, Strategy: NewStrategy(),
		// CRDs are still stored as v1beta1 (its storageVersionHash says so).
		Storage: api.GroupVersionKind{Group: Group, Version: "v1beta1", Kind: "CustomResourceDefinition"}}
}
