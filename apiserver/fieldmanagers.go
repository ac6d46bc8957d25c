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
// manager works on its OpenAPI type, a custom resource's on its version's structural schema
// (the CRD handler's type converter, rebuilt with the CRD), any other registered kind's on
// the deduced type (every map granular, every list atomic), as the real server has for a
// type without a schema. apiVersion is the version the request was sent at ("": the form
// the store holds objects in), as the handlers have one field manager per served version.
// Managers at the kind's other versions count: a custom resource's served versions, whose
// fields are the same with conversion None, and a built-in's versions of the same group,
// compared through its conversion (versionConverter).
func buildFieldManager(res *registry.Resource, serving *apiextensions.Serving, apiVersion string) (registry.FieldManager, error) {
	gvk := res.Info.GVK()
	if res.ToStorage != nil {
		gvk = res.StorageGVK() // the store hands it objects in their stored form
	}
	if apiVersion != "" {
		gvk.Group, gvk.Version, _ = splitGV(apiVersion)
	}
	model := typed.Deduced()
	var fm *fieldmanager.FieldManager
	switch {
	case serving != nil:
		if apiVersion == "" {
			gvk.Version = serving.Storage
		}
		m, err := crdModel(gvk, res, serving)
		if err != nil {
			return nil, err
		}
		var served []string
		for v := range serving.Versions {
			served = append(served, gvk.Group+"/"+v)
		}
		fm = fieldmanager.New(m, gvk).WithVersions(served...)
	case res.Builtin:
		if m, err := typed.ForBuiltin(gvk, ""); err == nil {
			model = m
		}
		fm = fieldmanager.New(model, gvk)
		if len(res.Conversions) > 0 {
			fm.WithConverter(builtinConverter(res, gvk))
		}
	default:
		fm = fieldmanager.New(model, gvk)
	}
	if res.Strategy.HasStatus() {
		// The strategies' GetResetFields: the main resource never writes the status.
		fm.WithResetFields("", fieldpath.NewSet(fieldpath.MakePath("status")))
	}
	return fm, nil
}

// builtinConverter mirrors the versionConverter of a built-in kind served at several
// versions of its group (autoscaling v1 and v2): an object at from's version goes to the
// stored version and from there to the one asked, as the scheme converts through the
// internal version. Another group's version (core/v1 and events.k8s.io/v1 Events) is out
// of reach, as it is for the real converter.
func builtinConverter(res *registry.Resource, from api.GroupVersionKind) fieldmanager.Converter {
	stored := res.StorageGVK()
	return func(obj map[string]any, apiVersion string) (map[string]any, *typed.Atom, bool, error) {
		group, version, _ := splitGV(apiVersion)
		if group != stored.Group {
			return nil, nil, false, nil
		}
		to := stored
		to.Version = version
		model, err := typed.ForBuiltin(to, "")
		if err != nil {
			return nil, nil, false, nil
		}
		out, _ := api.DeepCopyJSONValue(obj).(map[string]any)
		if out == nil {
			out = map[string]any{}
		}
		if from.Version != stored.Version {
			c, ok := res.Conversion(from.Version)
			if !ok {
				return nil, nil, false, nil
			}
			c.ToStorage(out)
		}
		if version != stored.Version {
			c, ok := res.Conversion(version)
			if !ok {
				return nil, nil, false, nil
			}
			c.FromStorage(out)
		}
		out["apiVersion"], out["kind"] = to.APIVersion(), to.Kind
		return out, model, true, nil
	}
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
