package structural

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// InternalSchemaJSON renders a schema tree as encoding/json renders the internal
// apiextensions.JSONSchemaProps, which has no json tags: every field, by its Go name, in
// declaration order. The real server prints a root schema so in one error message.
func InternalSchemaJSON(tree map[string]any) string {
	var b bytes.Buffer
	writeInternal(&b, tree)
	return b.String()
}

var internalFields = []struct{ goName, jsonName, kind string }{
	{"ID", "id", "string"}, {"Schema", "$schema", "string"}, {"Ref", "$ref", "ptr"}, {"Description", "description", "string"},
	{"Type", "type", "string"}, {"Nullable", "nullable", "bool"}, {"Format", "format", "string"}, {"Title", "title", "string"},
	{"Default", "default", "ptr"}, {"Maximum", "maximum", "ptr"}, {"ExclusiveMaximum", "exclusiveMaximum", "bool"},
	{"Minimum", "minimum", "ptr"}, {"ExclusiveMinimum", "exclusiveMinimum", "bool"}, {"MaxLength", "maxLength", "ptr"},
	{"MinLength", "minLength", "ptr"}, {"Pattern", "pattern", "string"}, {"MaxItems", "maxItems", "ptr"},
	{"MinItems", "minItems", "ptr"}, {"UniqueItems", "uniqueItems", "bool"}, {"MultipleOf", "multipleOf", "ptr"},
	{"Enum", "enum", "ptr"}, {"MaxProperties", "maxProperties", "ptr"}, {"MinProperties", "minProperties", "ptr"},
	{"Required", "required", "ptr"}, {"Items", "items", "items"}, {"AllOf", "allOf", "list"}, {"OneOf", "oneOf", "list"},
	{"AnyOf", "anyOf", "list"}, {"Not", "not", "schema"}, {"Properties", "properties", "map"},
	{"AdditionalProperties", "additionalProperties", "orBool"}, {"PatternProperties", "patternProperties", "map"},
	{"Dependencies", "dependencies", "ptr"}, {"AdditionalItems", "additionalItems", "orBool"},
	{"Definitions", "definitions", "map"}, {"ExternalDocs", "externalDocs", "docs"}, {"Example", "example", "ptr"},
	{"XPreserveUnknownFields", "x-kubernetes-preserve-unknown-fields", "ptr"},
	{"XEmbeddedResource", "x-kubernetes-embedded-resource", "bool"}, {"XIntOrString", "x-kubernetes-int-or-string", "bool"},
	{"XListMapKeys", "x-kubernetes-list-map-keys", "ptr"}, {"XListType", "x-kubernetes-list-type", "ptr"},
	{"XMapType", "x-kubernetes-map-type", "ptr"}, {"XValidations", "x-kubernetes-validations", "rules"},
}

func writeInternal(b *bytes.Buffer, m map[string]any) {
	if m == nil {
		b.WriteString("null")
		return
	}
	b.WriteByte('{')
	for i, f := range internalFields {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Quote(f.goName) + ":")
		v, present := m[f.jsonName]
		switch f.kind {
		case "string":
			s, _ := v.(string)
			writeJSON(b, s)
		case "bool":
			t, _ := v.(bool)
			writeJSON(b, t)
		case "ptr":
			writeJSON(b, v)
		case "schema":
			sm, _ := v.(map[string]any)
			writeInternal(b, sm)
		case "list":
			l, _ := v.([]any)
			writeSchemaList(b, l)
		case "map":
			mm, _ := v.(map[string]any)
			if mm == nil {
				b.WriteString("null")
				break
			}
			b.WriteByte('{')
			for j, k := range sortedKeys(mm) {
				if j > 0 {
					b.WriteByte(',')
				}
				sm, _ := mm[k].(map[string]any)
				b.WriteString(strconv.Quote(k) + ":")
				writeInternal(b, sm)
			}
			b.WriteByte('}')
		case "items":
			if !present {
				b.WriteString("null")
				break
			}
			sm, _ := v.(map[string]any)
			l, _ := v.([]any)
			b.WriteString(`{"Schema":`)
			writeInternal(b, sm)
			b.WriteString(`,"JSONSchemas":`)
			writeSchemaList(b, l)
			b.WriteByte('}')
		case "orBool":
			if !present {
				b.WriteString("null")
				break
			}
			sm, isSchema := v.(map[string]any)
			allows, _ := v.(bool)
			writeJSON(b, map[string]any{"Allows": allows || isSchema})
			b.Truncate(b.Len() - 1)
			b.WriteString(`,"Schema":`)
			writeInternal(b, sm)
			b.WriteByte('}')
		case "docs":
			d, ok := v.(map[string]any)
			if !ok {
				b.WriteString("null")
				break
			}
			desc, _ := d["description"].(string)
			url, _ := d["url"].(string)
			b.WriteString(`{"Description":`)
			writeJSON(b, desc)
			b.WriteString(`,"URL":`)
			writeJSON(b, url)
			b.WriteByte('}')
		case "rules":
			rules := parseRules(v)
			if rules == nil {
				b.WriteString("null")
				break
			}
			b.WriteByte('[')
			for j, r := range rules {
				if j > 0 {
					b.WriteByte(',')
				}
				b.WriteString(`{"Rule":`)
				writeJSON(b, r.Rule)
				b.WriteString(`,"Message":`)
				writeJSON(b, r.Message)
				b.WriteString(`,"MessageExpression":`)
				writeJSON(b, r.MessageExpression)
				b.WriteString(`,"Reason":`)
				writeJSON(b, strOrNil(r.Reason))
				b.WriteString(`,"FieldPath":`)
				writeJSON(b, r.FieldPath)
				b.WriteString(`,"OptionalOldSelf":`)
				if r.OptionalOldSelf == nil {
					b.WriteString("null")
				} else {
					writeJSON(b, *r.OptionalOldSelf)
				}
				b.WriteByte('}')
			}
			b.WriteByte(']')
		}
	}
	b.WriteByte('}')
}

func writeSchemaList(b *bytes.Buffer, l []any) {
	if l == nil {
		b.WriteString("null")
		return
	}
	b.WriteByte('[')
	for j, e := range l {
		if j > 0 {
			b.WriteByte(',')
		}
		sm, _ := e.(map[string]any)
		writeInternal(b, sm)
	}
	b.WriteByte(']')
}

func writeJSON(b *bytes.Buffer, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		data = []byte("null")
	}
	b.Write(data)
}
