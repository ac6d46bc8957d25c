package apiserver

import (
	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/fieldmanager"
	"github.com/informer-lab/informer-lab/apiserver/internal/fieldpath"
	"github.com/informer-lab/informer-lab/apiserver/internal/openapi"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/apiextensions"
	"github.com/informer-lab/informer-lab/apiserver/internal/typed"
)

// buildFieldManager is the store's registry.FieldManagerBuilder: a built-in kind's field
// manager works on its OpenAPI type at the version it is stored at, a custom resource's on
// its storage version's structural schema (the CRD handler's type converter, rebuilt with
// the CRD), any other registered kind's on the deduced type (every map granular, every list
// atomic), as the real server has for a type without a schema.
func buildFieldManager(res *registry.Resource, serving *apiextensions.Serving) (registry.FieldManager, error) {
	gvk := res.Info.GVK()
	if res.ToStorage != nil {
		gvk = res.StorageGVK() // the store hands it objects in their stored form
	}
	model := typed.Deduced()
	if serving != nil {
		gvk.Version = serving.Storage
		m, err := crdModel(gvk, res, serving)
		if err != nil {
			return nil, err
		}
		model = m
	} else if res.Builtin {
		if m, err := typed.ForBuiltin(gvk, ""); err == nil {
			model = m
		}
	}
	fm := fieldmanager.New(model, gvk)
	if res.Strategy.HasStatus() {
		// The strategies' GetResetFields: the main resource never writes the status.
		fm.WithResetFields("", fieldpath.NewSet(fieldpath.MakePath("status")))
	}
	return fm, nil
}

// crdModel is the type of a custom resource at its storage version, as the CRD handler's
// type converter has it.
func crdModel(gvk api.GroupVersionKind, res *registry.Resource, serving *apiextensions.Serving) (*typed.Atom, error) {
	cr := openapi.CustomResource{Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind,
		ListKind: res.Info.ListKindName(), Plural: res.Info.Resource, Namespaced: res.Info.Namespaced,
		PreserveUnknownFields: serving.PreserveUnknownFields}
	if pv, ok := serving.Published[gvk.Version]; ok {
		cr.Schema, cr.Status, cr.Scale = pv.Schema, pv.Status, pv.Scale
	} else if vs := serving.Version(gvk.Version); vs != nil {
		cr.Schema = vs.OpenAPI
	}
	return typed.ForCustomResource(cr)
}
