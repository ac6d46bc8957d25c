package structural

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// Schema is one node of a structural schema. It mirrors structuralschema.Structural in
// k8s.io/apiextensions-apiserver pkg/apiserver/schema/structural.go, with the value
// validations of its ValueValidation folded in.
type Schema struct {
	Type        string // object, array, string, integer, number, boolean, or "" (any)
	Format      string
	Description string
	Properties  map[string]*Schema
	// Additional is the schema of additionalProperties: the values of a map.
	Additional *Schema
	Items      *Schema
	Required   []string
	Enum       []any
	Default    any
	HasDefault bool

	Minimum, Maximum                   *float64
	ExclusiveMinimum, ExclusiveMaximum bool
	MinLength, MaxLength               *int64
	MinItems, MaxItems                 *int64
	Pattern                            *regexp.Regexp
	PatternText                        string

	Nullable         bool
	IntOrString      bool // x-kubernetes-int-or-string
	PreserveUnknown  bool // x-kubernetes-preserve-unknown-fields
	EmbeddedResource bool // x-kubernetes-embedded-resource
}

// known lists the keywords Parse accepts: the value validations a structural schema may
// carry and the Kubernetes extensions. Others (not, $ref, allOf with types, …) are refused.
var known = map[string]bool{
	"type": true, "format": true, "description": true, "title": true, "properties": true,
	"additionalProperties": true, "items": true, "required": true, "enum": true, "default": true,
	"minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true,
	"minLength": true, "maxLength": true, "minItems": true, "maxItems": true, "pattern": true,
	"nullable": true, "example": true, "uniqueItems": true, "multipleOf": true,
	"minProperties": true, "maxProperties": true, "externalDocs": true,
	"x-kubernetes-int-or-string": true, "x-kubernetes-preserve-unknown-fields": true,
	"x-kubernetes-embedded-resource": true, "x-kubernetes-list-type": true,
	"x-kubernetes-list-map-keys": true, "x-kubernetes-map-type": true,
	"x-kubernetes-validations": true,
}

// Parse reads the schema tree m and returns its structural schema together with the causes
// of every structural rule it breaks, under path (for a CRD:
// "spec.versions[0].schema.openAPIV3Schema"). It mirrors NewStructural and
// ValidateStructural in pkg/apiserver/schema.
func Parse(m map[string]any, path string) (*Schema, []api.StatusCause) {
	p := &parser{}
	s := p.node(m, path, 0)
	if s != nil && s.Type != "object" && len(p.causes) == 0 {
		p.causes = append(p.causes, validation.Invalid(path+".type", s.Type, "must be object at the root"))
	}
	if s != nil {
		if md, ok := s.Properties["metadata"]; ok {
			p.metadata(md, path+".properties[metadata]")
		}
	}
	return s, p.causes
}

type parser struct{ causes []api.StatusCause }

func (p *parser) add(c api.StatusCause) { p.causes = append(p.causes, c) }

// maxDepth bounds the recursion of hostile schemas; real ones are a few levels deep.
const maxDepth = 64

func (p *parser) node(m map[string]any, path string, depth int) *Schema {
	if depth > maxDepth {
		p.add(validation.Forbidden(path, "must not be nested more than 64 levels"))
		return nil
	}
	s := &Schema{}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !known[k] {
			p.add(validation.Forbidden(path+"."+k, "must not be used: this simulator knows only the keywords of a structural schema"))
		}
	}
	s.Type, _ = m["type"].(string)
	s.Format, _ = m["format"].(string)
	s.Description, _ = m["description"].(string)
	s.Nullable, _ = m["nullable"].(bool)
	s.IntOrString, _ = m["x-kubernetes-int-or-string"].(bool)
	s.PreserveUnknown, _ = m["x-kubernetes-preserve-unknown-fields"].(bool)
	s.EmbeddedResource, _ = m["x-kubernetes-embedded-resource"].(bool)
	if _, ok := m["x-kubernetes-validations"]; ok {
		p.add(validation.Forbidden(path+".x-kubernetes-validations", "CEL validation rules are not supported by this simulator"))
	}
	switch s.Type {
	case "", "object", "array", "string", "integer", "number", "boolean":
	default:
		p.add(validation.NotSupported(path+".type", s.Type, []string{"array", "boolean", "integer", "number", "object", "string"}))
	}
	if s.Type == "" && !s.IntOrString && !s.PreserveUnknown {
		p.add(validation.Required(path+".type", "must not be empty for specified object fields"))
	}
	if s.IntOrString && s.Type != "" {
		p.add(validation.Forbidden(path+".type", "must be empty if x-kubernetes-int-or-string is true"))
	}
	if s.EmbeddedResource && s.Type != "object" {
		p.add(validation.Invalid(path+".type", s.Type, "must be object if x-kubernetes-embedded-resource is true"))
	}
	if v, ok := m["default"]; ok {
		s.Default, s.HasDefault = v, true
	}
	if e, ok := m["enum"].([]any); ok {
		s.Enum = e
	}
	for _, r := range asSlice(m["required"]) {
		if name, ok := r.(string); ok {
			s.Required = append(s.Required, name)
		}
	}
	s.Minimum, s.Maximum = number(m["minimum"]), number(m["maximum"])
	s.ExclusiveMinimum, _ = m["exclusiveMinimum"].(bool)
	s.ExclusiveMaximum, _ = m["exclusiveMaximum"].(bool)
	s.MinLength, s.MaxLength = count(m["minLength"]), count(m["maxLength"])
	s.MinItems, s.MaxItems = count(m["minItems"]), count(m["maxItems"])
	if pat, ok := m["pattern"].(string); ok {
		re, err := regexp.Compile(pat)
		if err != nil {
			p.add(validation.Invalid(path+".pattern", pat, "must be a valid regular expression, but isn't: "+err.Error()))
		}
		s.Pattern, s.PatternText = re, pat
	}
	if props, ok := m["properties"].(map[string]any); ok {
		if s.Type != "object" && s.Type != "" {
			p.add(validation.Forbidden(path+".properties", "must not be specified unless type is object"))
		}
		s.Properties = make(map[string]*Schema, len(props))
		for _, name := range sortedKeys(props) {
			child, _ := props[name].(map[string]any)
			if child == nil {
				p.add(validation.Required(fmt.Sprintf("%s.properties[%s].type", path, name), "must not be empty for specified object fields"))
				continue
			}
			if c := p.node(child, fmt.Sprintf("%s.properties[%s]", path, name), depth+1); c != nil {
				s.Properties[name] = c
			}
		}
	}
	switch ap := m["additionalProperties"].(type) {
	case map[string]any:
		if len(s.Properties) > 0 {
			p.add(validation.Forbidden(path+".additionalProperties", "additionalProperties and properties are mutual exclusive"))
		}
		s.Additional = p.node(ap, path+".additionalProperties", depth+1)
	case bool:
		if !ap {
			p.add(validation.Forbidden(path+".additionalProperties", "must not be false"))
		}
	}
	if it, ok := m["items"].(map[string]any); ok {
		s.Items = p.node(it, path+".items", depth+1)
	} else if s.Type == "array" {
		p.add(validation.Required(path+".items", "must be specified"))
	}
	return s
}

// metadata checks the root's metadata member: only name and generateName, strings without
// defaults, may be specified (the metadata rule of ValidateStructural).
func (p *parser) metadata(md *Schema, path string) {
	if md.Type != "object" {
		p.add(validation.Invalid(path+".type", md.Type, "must be object"))
	}
	for _, name := range sortedKeys(md.Properties) {
		if name != "name" && name != "generateName" {
			p.add(validation.Forbidden(path+".properties["+name+"]", "must not be specified"))
			continue
		}
		if c := md.Properties[name]; c.Type != "string" {
			p.add(validation.Invalid(path+".properties["+name+"].type", c.Type, "must be string"))
		}
	}
	if md.HasDefault {
		p.add(validation.Forbidden(path+".default", "must not be specified"))
	}
}

func asSlice(v any) []any { s, _ := v.([]any); return s }

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
	f := number(v)
	if f == nil || *f < 0 || *f > math.MaxInt32 {
		return nil
	}
	n := int64(*f)
	return &n
}
