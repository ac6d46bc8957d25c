package apiserver

import (
	"encoding/json"
	"sync"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/fieldmanager"
	"github.com/informer-lab/informer-lab/apiserver/internal/fieldpath"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/apiextensions"
	"github.com/informer-lab/informer-lab/apiserver/internal/schema"
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
		m, err := crdModel(gvk, serving)
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

// objectMetaRef is the definition every object's metadata refers to.
const objectMetaRef = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"

var (
	metaDefsOnce sync.Once
	metaDefs     map[string]json.RawMessage
)

// metaDefinitions are the definitions of the core document: ObjectMeta and what it refers to
// (ManagedFieldsEntry, OwnerReference, FieldsV1, Time).
func metaDefinitions() map[string]json.RawMessage {
	metaDefsOnce.Do(func() {
		var d struct {
			Components struct {
				Schemas map[string]json.RawMessage `json:"schemas"`
			} `json:"components"`
		}
		if doc, ok := schema.Document("api/v1"); ok {
			_ = json.Unmarshal(doc, &d)
		}
		metaDefs = map[string]json.RawMessage{}
		for name, def := range d.Components.Schemas {
			if len(name) > len("io.k8s.apimachinery.") && name[:len("io.k8s.apimachinery.")] == "io.k8s.apimachinery." {
				metaDefs[name] = def
			}
		}
	})
	return metaDefs
}

// crdModel is the type of a custom resource at its storage version: the version's
// openAPIV3Schema with metadata, apiVersion and kind as every object has them (the OpenAPI
// the CRD builder publishes), spec.preserveUnknownFields keeping unknown members.
func crdModel(gvk api.GroupVersionKind, serving *apiextensions.Serving) (*typed.Atom, error) {
	root := map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}
	if vs := serving.Version(gvk.Version); vs != nil && vs.OpenAPI != nil {
		root = deepCopyJSON(vs.OpenAPI)
	}
	props, _ := root["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
		root["properties"] = props
	}
	props["metadata"] = map[string]any{"$ref": "#/components/schemas/" + objectMetaRef}
	props["apiVersion"] = map[string]any{"type": "string"}
	props["kind"] = map[string]any{"type": "string"}
	defs := map[string]json.RawMessage{}
	for k, v := range metaDefinitions() {
		defs[k] = v
	}
	const name = "customresource"
	data, err := json.Marshal(root)
	if err != nil {
		return nil, err
	}
	defs[name] = data
	m, err := typed.NewModel(defs, serving.PreserveUnknownFields)
	if err != nil {
		return nil, err
	}
	return m.Named(name)
}

// deepCopyJSON copies a decoded JSON tree.
func deepCopyJSON(m map[string]any) map[string]any {
	data, _ := json.Marshal(m)
	var out map[string]any
	_ = json.Unmarshal(data, &out)
	return out
}
