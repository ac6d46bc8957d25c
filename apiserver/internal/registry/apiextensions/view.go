package apiextensions

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/structural"
)

// view is a CRD as the real server validates it: converted to the internal version, whose
// conversion (Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_…) moves a
// per-version schema, subresources, printer columns or selectable fields to the spec when
// every version has the same. Errors about them are then reported under
// spec.validation.openAPIV3Schema, spec.subresources, spec.additionalPrinterColumns[i].
type view struct {
	spec Spec
	raw  []map[string]any // the versions as stored
	// Hoisted: the member is the same in every version, and lives at the spec.
	schemaHoisted, subresourcesHoisted, columnsHoisted, selectableHoisted bool
}

func newView(obj *api.Unstructured) view {
	v := view{spec: ReadSpec(obj)}
	for _, e := range versionsOf(obj) {
		m, _ := e.(map[string]any)
		v.raw = append(v.raw, m)
	}
	if len(v.raw) == 0 {
		return v
	}
	same := func(key string) bool {
		for _, r := range v.raw {
			if !semanticEqual(r[key], v.raw[0][key]) {
				return false
			}
		}
		return true
	}
	v.schemaHoisted = same("schema")
	v.subresourcesHoisted = same("subresources")
	v.columnsHoisted = same("additionalPrinterColumns")
	v.selectableHoisted = same("selectableFields")
	return v
}

// schemaOf is the openAPIV3Schema tree of version i, nil when it has none.
func (v view) schemaOf(i int) map[string]any {
	sch, _ := v.raw[i]["schema"].(map[string]any)
	m, _ := sch["openAPIV3Schema"].(map[string]any)
	return m
}

// statusEnabled is whether version i (or, for the hoisted schema, any version) has the
// status subresource.
func (v view) statusEnabled(i int) bool {
	if i < 0 {
		for _, ver := range v.spec.Versions {
			if ver.Subresources != nil && ver.Subresources.Status != nil {
				return true
			}
		}
		return false
	}
	s := v.spec.Versions[i].Subresources
	return s != nil && s.Status != nil
}

// semanticEqual compares two decoded JSON values as apiequality.Semantic compares the typed
// structs they decode into: a missing member equals its zero value, and an empty list or
// object equals none.
func semanticEqual(a, b any) bool {
	if isZero(a) && isZero(b) {
		return true
	}
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return false
		}
		for k, e := range x {
			if !semanticEqual(e, y[k]) {
				return false
			}
		}
		for k, e := range y {
			if _, ok := x[k]; !ok && !isZero(e) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !semanticEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case int64:
		if f, ok := b.(float64); ok {
			return float64(x) == f
		}
	case float64:
		if n, ok := b.(int64); ok {
			return x == float64(n)
		}
	}
	return a == b
}

func isZero(v any) bool {
	switch t := v.(type) {
	case nil:
		return true
	case bool:
		return !t
	case string:
		return t == ""
	case int64:
		return t == 0
	case float64:
		return t == 0
	case []any:
		return len(t) == 0
	case map[string]any:
		return len(t) == 0
	}
	return false
}

// internalVersions renders spec.versions as encoding/json renders the internal
// []apiextensions.CustomResourceDefinitionVersion (no json tags, hoisted members nil), as
// the real "must have exactly one version marked as storage version" message prints them.
func (v view) internalVersions() string {
	if len(v.raw) == 0 {
		return "null"
	}
	var b bytes.Buffer
	b.WriteByte('[')
	for i, r := range v.raw {
		if i > 0 {
			b.WriteByte(',')
		}
		ver := v.spec.Versions[i]
		b.WriteString(`{"Name":` + strconv.Quote(ver.Name) + `,"Served":` + strconv.FormatBool(ver.Served) +
			`,"Storage":` + strconv.FormatBool(ver.Storage) + `,"Deprecated":` + strconv.FormatBool(ver.Deprecated) + `,"DeprecationWarning":`)
		writeJSON(&b, ver.DeprecationWarning)
		b.WriteString(`,"Schema":`)
		if _, ok := r["schema"].(map[string]any); ok && !v.schemaHoisted {
			b.WriteString(`{"OpenAPIV3Schema":`)
			b.WriteString(structural.InternalSchemaJSON(v.schemaOf(i)))
			b.WriteByte('}')
		} else {
			b.WriteString("null")
		}
		b.WriteString(`,"Subresources":`)
		if sub := ver.Subresources; sub != nil && !v.subresourcesHoisted {
			b.WriteString(`{"Status":`)
			if sub.Status != nil {
				b.WriteString("{}")
			} else {
				b.WriteString("null")
			}
			b.WriteString(`,"Scale":`)
			if sc := sub.Scale; sc != nil {
				b.WriteString(`{"SpecReplicasPath":` + strconv.Quote(sc.SpecReplicasPath) + `,"StatusReplicasPath":` + strconv.Quote(sc.StatusReplicasPath) + `,"LabelSelectorPath":`)
				writeJSON(&b, sc.LabelSelectorPath)
				b.WriteByte('}')
			} else {
				b.WriteString("null")
			}
			b.WriteByte('}')
		} else {
			b.WriteString("null")
		}
		b.WriteString(`,"AdditionalPrinterColumns":`)
		if len(ver.Columns) > 0 && !v.columnsHoisted {
			b.WriteByte('[')
			for j, c := range ver.Columns {
				if j > 0 {
					b.WriteByte(',')
				}
				b.WriteString(`{"Name":` + strconv.Quote(c.Name) + `,"Type":` + strconv.Quote(c.Type) + `,"Format":` + strconv.Quote(c.Format) +
					`,"Description":` + strconv.Quote(c.Description) + `,"Priority":` + strconv.Itoa(int(c.Priority)) + `,"JSONPath":` + strconv.Quote(c.JSONPath) + `}`)
			}
			b.WriteByte(']')
		} else {
			b.WriteString("null")
		}
		b.WriteString(`,"SelectableFields":`)
		if len(ver.SelectableFields) > 0 && !v.selectableHoisted {
			b.WriteByte('[')
			for j, f := range ver.SelectableFields {
				if j > 0 {
					b.WriteByte(',')
				}
				b.WriteString(`{"JSONPath":` + strconv.Quote(f.JSONPath) + `}`)
			}
			b.WriteByte(']')
		} else {
			b.WriteString("null")
		}
		b.WriteByte('}')
	}
	b.WriteByte(']')
	return b.String()
}

func writeJSON(b *bytes.Buffer, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		data = []byte("null")
	}
	b.Write(data)
}
