package openapi

import (
	"slices"
	"strings"
)

// schemaKeywords is the order in which kube-openapi writes a schema's keywords: the
// fields of spec.SchemaProps, then of spec.SwaggerSchemaProps, then $schema and $ref
// (k8s.io/kube-openapi pkg/validation/spec/schema.go, Schema.MarshalNextJSON). Vendor
// extensions and any other member come last, sorted, as the inlined map they are.
var schemaKeywords = []string{
	"id", "description", "type", "nullable", "format", "title", "default", "maximum",
	"exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern",
	"maxItems", "minItems", "uniqueItems", "multipleOf", "enum", "maxProperties",
	"minProperties", "required", "items", "allOf", "oneOf", "anyOf", "not", "properties",
	"additionalProperties", "patternProperties", "dependencies", "additionalItems",
	"definitions", "discriminator", "readOnly", "externalDocs", "example", "$schema", "$ref",
}

var schemaRank = func() map[string]int {
	m := make(map[string]int, len(schemaKeywords))
	for i, k := range schemaKeywords {
		m[k] = i
	}
	return m
}()

// schemaMap is the walk over a schema's subschemas, the same for every rewrite.
type schemaVisit func(s *Node)

// eachSubschema calls f on every schema directly inside s: items (one or a list), allOf,
// oneOf, anyOf, not, properties, additionalProperties, patternProperties, dependencies,
// additionalItems and definitions.
func eachSubschema(s *Node, f schemaVisit) {
	for i, k := range s.Keys {
		v := s.Values[i]
		switch k {
		case "items":
			if v.Kind == Array {
				for _, item := range v.Values {
					f(item)
				}
			} else if v.Kind == Object {
				f(v)
			}
		case "allOf", "oneOf", "anyOf":
			for _, item := range v.Values {
				f(item)
			}
		case "not", "additionalProperties", "additionalItems":
			if v.Kind == Object {
				f(v)
			}
		case "properties", "patternProperties", "definitions", "dependencies":
			if v.Kind == Object {
				for _, p := range v.Values {
					if p.Kind == Object {
						f(p)
					}
				}
			}
		}
	}
}

// orderSchema sorts the members of s and of every schema inside it as kube-openapi writes
// them: keywords in struct order, the rest (extensions) sorted after them.
func orderSchema(s *Node) {
	if s == nil || s.Kind != Object {
		return
	}
	eachSubschema(s, orderSchema)
	for _, k := range []string{"properties", "patternProperties", "definitions", "dependencies"} {
		if v := s.Get(k); v != nil && v.Kind == Object {
			sortMembers(v, func(a, b string) int { return strings.Compare(a, b) })
		}
	}
	sortMembers(s, compareSchemaKeys)
}

func compareSchemaKeys(a, b string) int {
	ra, oka := schemaRank[a]
	rb, okb := schemaRank[b]
	switch {
	case oka && okb:
		return ra - rb
	case oka:
		return -1
	case okb:
		return 1
	}
	return strings.Compare(a, b)
}

// sortMembers orders an object's members by cmp over their keys.
func sortMembers(n *Node, cmp func(a, b string) int) {
	idx := make([]int, len(n.Keys))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(i, j int) int { return cmp(n.Keys[i], n.Keys[j]) })
	keys := make([]string, len(idx))
	values := make([]*Node, len(idx))
	for i, j := range idx {
		keys[i], values[i] = n.Keys[j], n.Values[j]
	}
	n.Keys, n.Values = keys, values
}

// sortValues orders a value that is no schema (an extension's, an enum item) as Go
// writes a map: every object's members sorted.
func sortValues(n *Node) {
	if n == nil {
		return
	}
	for _, v := range n.Values {
		sortValues(v)
	}
	if n.Kind == Object {
		sortMembers(n, strings.Compare)
	}
}
