package structural

import (
	"math"
	"regexp"
	"slices"
)

// Schema is one node of an openAPIV3Schema: the structure (type, properties, items,
// additionalProperties), its value validations, the logical junctors (allOf, anyOf, oneOf,
// not, whose clauses are Schemas too) and the Kubernetes extensions. It mirrors
// apiextensions.JSONSchemaProps as NewStructural (pkg/apiserver/schema/convert.go) reads it
// into structuralschema.Structural and NestedValueValidation: one type serves both, and
// the structural rules (ValidateStructural) say which members a junctor's clause may use.
type Schema struct {
	Type, Format, Title, Description string
	Nullable                         bool
	Default                          any
	HasDefault                       bool

	Properties map[string]*Schema
	// AdditionalProperties is the schema of a map's values; AdditionalPropertiesBool is
	// set when additionalProperties was written as a boolean.
	AdditionalProperties     *Schema
	AdditionalPropertiesBool *bool
	Items                    *Schema

	Maximum, Minimum                   *float64
	ExclusiveMaximum, ExclusiveMinimum bool
	MaxLength, MinLength               *int64
	MaxItems, MinItems                 *int64
	MaxProperties, MinProperties       *int64
	MultipleOf                         *float64
	UniqueItems                        bool
	Pattern                            string
	Enum                               []any
	Required                           []string
	AllOf, AnyOf, OneOf                []*Schema
	Not                                *Schema

	// PreserveUnknown is x-kubernetes-preserve-unknown-fields: nil when absent, so that an
	// explicit false can be refused.
	PreserveUnknown  *bool
	EmbeddedResource bool // x-kubernetes-embedded-resource
	IntOrString      bool // x-kubernetes-int-or-string
	ListType         *string
	ListMapKeys      []string
	MapType          *string
	Validations      []Rule // x-kubernetes-validations

	// Keywords a CRD schema may not use (id, $schema, $ref, patternProperties,
	// definitions, dependencies, additionalItems, items given as an array): the
	// names present, for the real "is not supported" errors.
	Unsupported []string
	ItemsArray  []*Schema

	pattern *regexp.Regexp // compiled Pattern; nil when absent or invalid
	// enumStrings holds the string values of a long Enum: a string is checked against
	// them in one lookup, not one comparison per value.
	enumStrings map[string]struct{}
}

// preserves reports x-kubernetes-preserve-unknown-fields: true.
func (s *Schema) preserves() bool { return s != nil && s.PreserveUnknown != nil && *s.PreserveUnknown }

// Parse reads a schema tree (the JSON of an openAPIV3Schema, numbers int64 or float64) into
// Schema nodes. Members of the wrong JSON type are ignored: the CRD's decoder has refused
// them already.
func Parse(m map[string]any) *Schema {
	return parseNode(m, 0)
}

// maxParseDepth bounds the recursion of hostile schemas: a body may nest 10,000 levels
// (the decoder's limit), and a schema nested deeper than this is cut here, where the real
// server would go on. No schema written by hand or generated comes near it.
const maxParseDepth = 1000

func parseNode(m map[string]any, depth int) *Schema {
	if m == nil || depth > maxParseDepth {
		return nil
	}
	s := &Schema{}
	s.Type, _ = m["type"].(string)
	s.Format, _ = m["format"].(string)
	s.Title, _ = m["title"].(string)
	s.Description, _ = m["description"].(string)
	s.Nullable, _ = m["nullable"].(bool)
	if v, ok := m["default"]; ok && v != nil {
		s.Default, s.HasDefault = v, true
	}
	s.Maximum, s.Minimum, s.MultipleOf = number(m["maximum"]), number(m["minimum"]), number(m["multipleOf"])
	s.ExclusiveMaximum, _ = m["exclusiveMaximum"].(bool)
	s.ExclusiveMinimum, _ = m["exclusiveMinimum"].(bool)
	s.MaxLength, s.MinLength = count(m["maxLength"]), count(m["minLength"])
	s.MaxItems, s.MinItems = count(m["maxItems"]), count(m["minItems"])
	s.MaxProperties, s.MinProperties = count(m["maxProperties"]), count(m["minProperties"])
	s.UniqueItems, _ = m["uniqueItems"].(bool)
	s.Pattern, _ = m["pattern"].(string)
	if s.Pattern != "" {
		s.pattern, _ = regexp.Compile(s.Pattern)
	}
	if e, ok := m["enum"].([]any); ok {
		s.Enum = e
		if len(e) > smallEnum {
			s.enumStrings = make(map[string]struct{}, len(e))
			for _, v := range e {
				if str, ok := v.(string); ok {
					s.enumStrings[str] = struct{}{}
				}
			}
		}
	}
	s.Required = stringList(m["required"])
	if b, ok := m["x-kubernetes-preserve-unknown-fields"].(bool); ok {
		s.PreserveUnknown = &b
	}
	s.EmbeddedResource, _ = m["x-kubernetes-embedded-resource"].(bool)
	s.IntOrString, _ = m["x-kubernetes-int-or-string"].(bool)
	if t, ok := m["x-kubernetes-list-type"].(string); ok {
		s.ListType = &t
	}
	if t, ok := m["x-kubernetes-map-type"].(string); ok {
		s.MapType = &t
	}
	s.ListMapKeys = stringList(m["x-kubernetes-list-map-keys"])
	s.Validations = parseRules(m["x-kubernetes-validations"])

	for _, k := range []string{"id", "$schema", "$ref", "patternProperties", "definitions", "dependencies", "additionalItems"} {
		if present(m[k]) {
			s.Unsupported = append(s.Unsupported, k)
		}
	}
	if props, ok := m["properties"].(map[string]any); ok {
		s.Properties = make(map[string]*Schema, len(props))
		for name, p := range props {
			pm, _ := p.(map[string]any)
			if pm == nil {
				pm = map[string]any{}
			}
			s.Properties[name] = parseNode(pm, depth+1)
		}
	}
	switch ap := m["additionalProperties"].(type) {
	case map[string]any:
		s.AdditionalProperties = parseNode(ap, depth+1)
	case bool:
		s.AdditionalPropertiesBool = &ap
	}
	switch it := m["items"].(type) {
	case map[string]any:
		s.Items = parseNode(it, depth+1)
	case []any:
		for _, e := range it {
			em, _ := e.(map[string]any)
			s.ItemsArray = append(s.ItemsArray, parseNode(em, depth+1))
		}
	}
	s.AllOf = parseList(m["allOf"], depth)
	s.AnyOf = parseList(m["anyOf"], depth)
	s.OneOf = parseList(m["oneOf"], depth)
	if n, ok := m["not"].(map[string]any); ok {
		s.Not = parseNode(n, depth+1)
	}
	return s
}

func parseList(v any, depth int) []*Schema {
	l, _ := v.([]any)
	var out []*Schema
	for _, e := range l {
		em, _ := e.(map[string]any)
		if em == nil {
			em = map[string]any{}
		}
		out = append(out, parseNode(em, depth+1))
	}
	return out
}

// present reports a member that is set to something else than its zero value, as a Go
// field with omitempty would be.
func present(v any) bool {
	switch t := v.(type) {
	case nil:
		return false
	case string:
		return t != ""
	case map[string]any:
		return len(t) > 0
	case []any:
		return len(t) > 0
	}
	return true
}

func stringList(v any) []string {
	l, _ := v.([]any)
	var out []string
	for _, e := range l {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func number(v any) *float64 {
	var f float64
	switch n := v.(type) {
	case int64:
		f = float64(n)
	case int:
		f = float64(n)
	case float64:
		f = n
	default:
		return nil
	}
	return &f
}

func count(v any) *int64 {
	var n int64
	switch t := v.(type) {
	case int64:
		n = t
	case int:
		n = int64(t)
	case float64:
		if t != math.Trunc(t) || math.Abs(t) > math.MaxInt64/2 {
			return nil
		}
		n = int64(t)
	default:
		return nil
	}
	return &n
}
