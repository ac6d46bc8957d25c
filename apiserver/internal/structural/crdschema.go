package structural

import (
	"fmt"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// CheckOptions are what a CRD's schema check depends on beyond the schema.
type CheckOptions struct {
	// StatusSubresource: a version using this schema has the status subresource, so the
	// root may hold only what survives extracting properties[status].
	StatusSubresource bool
}

// Check mirrors validateCustomResourceDefinitionValidation for one openAPIV3Schema: path
// names the schema ("spec.validation.openAPIV3Schema" when every version shares it,
// "spec.versions[1].schema.openAPIV3Schema" otherwise). It returns the parsed schema and
// the causes, in the real order: the root's restrictions under a status subresource and
// nullable, the structural rules (or, when those hold, the defaults), then the OpenAPI
// checks of every node; NewStructural's own errors only when nothing else was found. The
// rules of x-kubernetes-validations are compiled by Rules when one is installed.
func Check(tree map[string]any, path string, opts CheckOptions) (*Schema, []api.StatusCause) {
	s := Parse(tree)
	var causes []api.StatusCause
	if opts.StatusSubresource {
		causes = append(causes, statusRootCauses(tree, s, path)...)
	}
	if s.Nullable {
		causes = append(causes, validation.Forbidden(path+".nullable", "nullable cannot be true at the root"))
	}
	initErr := NewStructuralError(s)
	structuralOK := false
	if initErr == "" {
		if sc := ValidateStructural(s, path); len(sc) > 0 {
			causes = append(causes, sc...)
		} else if dc := ValidateDefaults(s, path); len(dc) > 0 {
			causes = append(causes, dc...)
		} else {
			structuralOK = true
		}
	}
	w := &walker{}
	w.node(s, path, std{}, true)
	causes = append(causes, w.causes...)
	if len(causes) == 0 && initErr != "" {
		causes = append(causes, validation.Invalid(path, "", initErr))
	}
	if structuralOK && len(w.causes) == 0 && Rules != nil {
		_, rc := Rules.Compile(s, path)
		causes = append(causes, rc...)
	}
	return s, causes
}

// statusRootFields are the JSONSchemaProps fields in declaration order, as JSON names, and
// whether the root may use them when the status subresource is on (allowedFieldsAtRootSchema).
var statusRootFields = []struct {
	name    string
	allowed bool
}{
	{"id", false}, {"$schema", false}, {"$ref", false}, {"description", true}, {"type", true}, {"nullable", false},
	{"format", true}, {"title", true}, {"default", false}, {"maximum", true}, {"exclusiveMaximum", true},
	{"minimum", true}, {"exclusiveMinimum", true}, {"maxLength", true}, {"minLength", true}, {"pattern", true},
	{"maxItems", true}, {"minItems", true}, {"uniqueItems", true}, {"multipleOf", true}, {"enum", false},
	{"maxProperties", false}, {"minProperties", false}, {"required", true}, {"items", true}, {"allOf", false},
	{"oneOf", false}, {"anyOf", false}, {"not", false}, {"properties", true}, {"additionalProperties", false},
	{"patternProperties", false}, {"dependencies", false}, {"additionalItems", false}, {"definitions", false},
	{"externalDocs", true}, {"example", true}, {"x-kubernetes-preserve-unknown-fields", true},
	{"x-kubernetes-embedded-resource", false}, {"x-kubernetes-int-or-string", false},
	{"x-kubernetes-list-map-keys", false}, {"x-kubernetes-list-type", false}, {"x-kubernetes-map-type", false},
	{"x-kubernetes-validations", true},
}

var allowedAtRoot = "[Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations]"

// statusRootCauses mirrors the first check of validateCustomResourceDefinitionValidation:
// walking the root's fields in declaration order, a type other than object, or the first
// field not allowed, is one cause.
func statusRootCauses(tree map[string]any, s *Schema, path string) []api.StatusCause {
	for _, f := range statusRootFields {
		v, ok := tree[f.name]
		if !ok || isZeroJSON(v) {
			continue
		}
		if f.name == "type" {
			if s.Type != "object" {
				return []api.StatusCause{validation.Invalid(path+".type", s.Type, `only "object" is allowed as the type at the root of the schema if the status subresource is enabled`)}
			}
			continue
		}
		if !f.allowed {
			return []api.StatusCause{validation.InvalidRaw(path, InternalSchemaJSON(tree), fmt.Sprintf("only %s fields are allowed at the root of the schema if the status subresource is enabled", allowedAtRoot))}
		}
	}
	return nil
}

func isZeroJSON(v any) bool {
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

// std is specStandardValidatorV3's state: where defaults are forbidden and why, and
// whether the walk is inside an object's apiVersion, kind or metadata.
type std struct {
	noDefaults string // reason defaults are forbidden; "" when allowed
	insideMeta bool
}

type walker struct{ causes []api.StatusCause }

func (w *walker) add(c ...api.StatusCause) { w.causes = append(w.causes, c...) }

var openAPIV3Types = []string{"array", "boolean", "integer", "number", "object", "string"}

// node mirrors ValidateCustomResourceDefinitionOpenAPISchema for one node and what is below.
func (w *walker) node(s *Schema, path string, v std, isRoot bool) {
	if s == nil {
		return
	}
	w.standard(s, path, v)
	if s.UniqueItems {
		w.add(validation.Forbidden(path+".uniqueItems", "uniqueItems cannot be set to true since the runtime complexity becomes quadratic"))
	}
	if s.AdditionalProperties != nil || s.AdditionalPropertiesBool != nil {
		allows := s.AdditionalPropertiesBool == nil || *s.AdditionalPropertiesBool
		if len(s.Properties) != 0 && (!allows || s.AdditionalProperties != nil) {
			w.add(validation.Forbidden(path+".additionalProperties", "additionalProperties and properties are mutual exclusive"))
		}
		sub := v
		if v.insideMeta {
			sub.noDefaults = "inside additionalProperties applying to object metadata"
		}
		w.node(s.AdditionalProperties, path+".additionalProperties", sub, false)
	}
	for _, k := range sortedKeys(s.Properties) {
		sub := v
		if (isRoot || s.EmbeddedResource) && metaFields[k] {
			sub.insideMeta = true
			if isRoot {
				sub.noDefaults = "in top-level " + k
			}
		}
		w.node(s.Properties[k], prop(path, k), sub, false)
	}
	w.node(s.Not, path+".not", v, false)
	for i, c := range s.AllOf {
		w.node(c, fmt.Sprintf("%s.allOf[%d]", path, i), v, false)
	}
	for i, c := range s.OneOf {
		w.node(c, fmt.Sprintf("%s.oneOf[%d]", path, i), v, false)
	}
	for i, c := range s.AnyOf {
		w.node(c, fmt.Sprintf("%s.anyOf[%d]", path, i), v, false)
	}
	w.node(s.Items, path+".items", v, false)
	for i, c := range s.ItemsArray {
		w.node(c, fmt.Sprintf("%s.items[%d]", path, i), v, false)
	}
	if s.PreserveUnknown != nil && !*s.PreserveUnknown {
		w.add(validation.Invalid(path+".x-kubernetes-preserve-unknown-fields", false, "must be true or undefined"))
	}
	w.mapAndListTypes(s, path)
	w.add(checkRules(s, path)...)
}

// standard mirrors specStandardValidatorV3.validate.
func (w *walker) standard(s *Schema, path string, v std) {
	if s.Type != "" && !contains(openAPIV3Types, s.Type) {
		w.add(validation.NotSupported(path+".type", s.Type, openAPIV3Types))
	}
	if s.HasDefault && v.noDefaults != "" {
		w.add(validation.Forbidden(path+".default", "must not be set "+v.noDefaults))
	}
	for _, k := range []string{"id", "additionalItems", "patternProperties", "definitions", "dependencies", "$ref"} {
		if contains(s.Unsupported, k) {
			w.add(validation.Forbidden(path+"."+k, k+" is not supported"))
		}
	}
	if s.Type == "null" {
		w.add(validation.Forbidden(path+".type", "type cannot be set to null, use nullable as an alternative"))
	}
	if len(s.ItemsArray) > 0 {
		w.add(validation.Forbidden(path+".items", "items must be a schema object and not an array"))
	}
	if v.insideMeta && s.EmbeddedResource {
		w.add(validation.Forbidden(path+".x-kubernetes-embedded-resource", "must not be used inside of resource meta"))
	}
}

func typeMust(path, t, what, why string) api.StatusCause {
	if t == "" {
		return validation.Required(path+".type", "must be "+what+" if "+why+" is specified")
	}
	return validation.Invalid(path+".type", t, "must be "+what+" if "+why+" is specified")
}

func strOrNil(p *string) any {
	if p == nil {
		return nil
	}
	return *p
}

// mapAndListTypes mirrors the x-kubernetes-map-type, -list-type and -list-map-keys checks
// and validateMapListKeysMapSet.
func (w *walker) mapAndListTypes(s *Schema, path string) {
	if s.MapType != nil && s.Type != "object" {
		w.add(typeMust(path, s.Type, "object", "x-kubernetes-map-type"))
	}
	if s.MapType != nil && *s.MapType != "atomic" && *s.MapType != "granular" {
		w.add(validation.NotSupported(path+".x-kubernetes-map-type", *s.MapType, []string{"atomic", "granular"}))
	}
	if s.ListType != nil && s.Type != "array" {
		w.add(typeMust(path, s.Type, "array", "x-kubernetes-list-type"))
	} else if s.ListType != nil && *s.ListType == "set" && s.Items != nil {
		switch is := s.Items; is.Type {
		case "array":
			if is.ListType != nil && *is.ListType != "atomic" {
				w.add(validation.Invalid(path+".items.x-kubernetes-list-type", *is.ListType, "must be atomic as item of a list with x-kubernetes-list-type=set"))
			}
		case "object":
			if is.MapType == nil || *is.MapType != "atomic" {
				w.add(validation.Invalid(path+".items.x-kubernetes-map-type", strOrNil(is.ListType), "must be atomic as item of a list with x-kubernetes-list-type=set"))
			}
		}
	}
	if s.ListType != nil && *s.ListType != "atomic" && *s.ListType != "set" && *s.ListType != "map" {
		w.add(validation.NotSupported(path+".x-kubernetes-list-type", *s.ListType, []string{"atomic", "set", "map"}))
	}
	if len(s.ListMapKeys) > 0 {
		if s.ListType == nil {
			w.add(validation.Required(path+".x-kubernetes-list-type", "must be map if x-kubernetes-list-map-keys is non-empty"))
		} else if *s.ListType != "map" {
			w.add(validation.Invalid(path+".x-kubernetes-list-type", *s.ListType, "must be map if x-kubernetes-list-map-keys is non-empty"))
		}
	}
	if s.ListType != nil && *s.ListType == "map" {
		w.mapList(s, path)
	}
	if s.Items != nil && s.ListType != nil && (*s.ListType == "set" || *s.ListType == "map") {
		if s.Items.Nullable {
			w.add(validation.Forbidden(path+".items.nullable", "cannot be nullable when x-kubernetes-list-type is "+*s.ListType))
		}
		if *s.ListType == "map" {
			for _, k := range s.ListMapKeys {
				c, ok := s.Items.Properties[k]
				if !ok {
					continue
				}
				if !contains(s.Items.Required, k) && !c.HasDefault {
					w.add(validation.Required(prop(path+".items", k)+".default", "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"))
				}
				if c.Nullable {
					w.add(validation.Forbidden(prop(path+".items", k)+".nullable", "this property is in x-kubernetes-list-map-keys, so it cannot be nullable"))
				}
			}
		}
	}
}

func (w *walker) mapList(s *Schema, path string) {
	if len(s.ListMapKeys) == 0 {
		w.add(validation.Required(path+".x-kubernetes-list-map-keys", "must not be empty if x-kubernetes-list-type is map"))
	}
	if s.Items == nil && len(s.ItemsArray) == 0 {
		w.add(validation.Required(path+".items", "must have a schema if x-kubernetes-list-type is map"))
	}
	if s.Items == nil && len(s.ItemsArray) > 0 {
		w.add(validation.InvalidRaw(path+".items", "…", "must only have a single schema if x-kubernetes-list-type is map"))
	}
	if s.Items == nil {
		return
	}
	if s.Items.Type != "object" {
		w.add(validation.Invalid(path+".items.type", s.Items.Type, "must be object if parent array's x-kubernetes-list-type is map"))
		return
	}
	keys := toAny(s.ListMapKeys)
	seen := map[string]bool{}
	for _, k := range s.ListMapKeys {
		if c, ok := s.Items.Properties[k]; ok {
			if c.Type == "array" || c.Type == "object" {
				w.add(validation.Invalid(prop(path+".items", k)+".type", s.Items.Type, "must be a scalar type if parent array's x-kubernetes-list-type is map"))
			}
		} else {
			w.add(validation.Invalid(path+".x-kubernetes-list-map-keys", keys, "entries must all be names of item properties"))
		}
		if seen[k] {
			w.add(validation.Invalid(path+".x-kubernetes-list-map-keys", keys, "must not contain duplicate entries"))
		}
		seen[k] = true
	}
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
