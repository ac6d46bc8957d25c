package apiextensions

import (
	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/printers"
	"github.com/informer-lab/informer-lab/apiserver/internal/structural"
)

// Serving is what one established CRD serves its objects with; it is replaced whole
// when the CRD changes.
type Serving struct {
	Key     string // uid and resourceVersion of the CRD it was built from (OpenAPI cache key)
	Schema  *structural.Schema
	OpenAPI map[string]any // the version's openAPIV3Schema, for /openapi/v3
	Printer *printers.Printer
	Scale   *Scale
	// Published is what the OpenAPI documents say of each served version, by name: the
	// version's own schema, subresources and selectable fields (kube-apiserver publishes
	// each version as its CRD declares it).
	Published map[string]PublishedVersion
	// PreserveUnknownFields is spec.preserveUnknownFields.
	PreserveUnknownFields bool
}

// PublishedVersion is one served version of a CRD as its OpenAPI documents describe it.
type PublishedVersion struct {
	Schema           map[string]any // the version's openAPIV3Schema (a copy); nil without one
	Status, Scale    bool
	SelectableFields []string // jsonPaths
}

// ServedVersion picks the version the resource is registered at: the storage version when
// it is served, else the first served one; -1 when none is.
func ServedVersion(spec Spec) int {
	first := -1
	for i, v := range spec.Versions {
		if v.Served && v.Storage {
			return i
		}
		if v.Served && first < 0 {
			first = i
		}
	}
	return first
}

// ServingOf builds the serving state of a valid CRD's version i.
func ServingOf(obj *api.Unstructured, spec Spec, i int) *Serving {
	v := spec.Versions[i]
	tree, _ := VersionSchema(obj, i)
	sch, _ := structural.Parse(tree, "")
	cols := make([]printers.Column, len(v.Columns))
	for j, c := range v.Columns {
		cols[j] = printers.Column{Name: c.Name, Type: c.Type, Format: c.Format, Description: c.Description, Priority: c.Priority, JSONPath: c.JSONPath}
	}
	cs := &Serving{
		Key:     obj.GetUID() + "/" + obj.GetResourceVersion(),
		Schema:  sch,
		OpenAPI: tree,
		Printer: printers.ForColumns(cols),
	}
	if v.Subresources != nil {
		cs.Scale = v.Subresources.Scale
	}
	cs.PreserveUnknownFields = spec.PreserveUnknownFields
	cs.Published = map[string]PublishedVersion{}
	for j, sv := range spec.Versions {
		if !sv.Served {
			continue
		}
		pv := PublishedVersion{}
		if m, ok := VersionSchema(obj, j); ok {
			pv.Schema, _ = api.DeepCopyJSONValue(m).(map[string]any)
		}
		if sv.Subresources != nil {
			pv.Status, pv.Scale = sv.Subresources.Status != nil, sv.Subresources.Scale != nil
		}
		for _, f := range sv.SelectableFields {
			pv.SelectableFields = append(pv.SelectableFields, f.JSONPath)
		}
		cs.Published[sv.Name] = pv
	}
	return cs
}

// Status is the status the naming and establishing controllers write on a new CRD.
func Status(spec Spec, now api.Time) map[string]any {
	ts := now.UTC().Format("2006-01-02T15:04:05Z")
	names := map[string]any{"plural": spec.Names.Plural, "singular": spec.Names.Singular, "kind": spec.Names.Kind, "listKind": spec.Names.ListKind}
	if len(spec.Names.ShortNames) > 0 {
		names["shortNames"] = toAnySlice(spec.Names.ShortNames)
	}
	if len(spec.Names.Categories) > 0 {
		names["categories"] = toAnySlice(spec.Names.Categories)
	}
	var stored []any
	for _, v := range spec.Versions {
		if v.Storage {
			stored = append(stored, v.Name)
		}
	}
	return map[string]any{
		"acceptedNames": names,
		"conditions": []any{
			map[string]any{"type": "NamesAccepted", "status": "True", "reason": "NoConflicts", "message": "no conflicts found", "lastTransitionTime": ts},
			map[string]any{"type": "Established", "status": "True", "reason": "InitialNamesAccepted", "message": "the initial names have been accepted", "lastTransitionTime": ts},
		},
		"storedVersions": stored,
	}
}

func toAnySlice(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
