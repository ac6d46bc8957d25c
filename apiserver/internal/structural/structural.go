package structural

import (
	"fmt"
	"slices"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// The structural rules of pkg/apiserver/schema/validation.go and complete.go: a type at
// every level (x-kubernetes-int-or-string and x-kubernetes-preserve-unknown-fields may stand
// in), the logical junctors carrying value validations only, every field they name also
// specified outside them, metadata at the root restricted to name and generateName.

type level int

const (
	rootLevel level = iota
	itemLevel
	fieldLevel
)

// ValidateStructural mirrors ValidateStructural: the causes of every structural rule s
// breaks, under path, sorted as the real server sorts them (by their text).
func ValidateStructural(s *Schema, path string) []api.StatusCause {
	var causes []api.StatusCause
	invariants(s, rootLevel, path, &causes)
	completeness(s, s, path, path, &causes)
	slices.SortStableFunc(causes, func(a, b api.StatusCause) int {
		ea, eb := a.Field+": "+a.Message, b.Field+": "+b.Message
		switch {
		case ea < eb:
			return -1
		case ea > eb:
			return 1
		}
		return 0
	})
	return causes
}

// NewStructuralError mirrors the errors of NewStructural that the OpenAPI checks do not
// also report ("OpenAPIV3Schema 'schema' is not supported", …): the first one found, or "".
func NewStructuralError(s *Schema) string {
	if s == nil {
		return ""
	}
	for _, k := range s.Unsupported {
		switch k {
		case "$schema":
			return "OpenAPIV3Schema 'schema' is not supported"
		case "$ref":
			return "OpenAPIV3Schema '$ref' is not supported"
		default:
			return fmt.Sprintf("OpenAPIV3Schema '%s' is not supported", k)
		}
	}
	if len(s.ItemsArray) > 0 {
		return "OpenAPIV3Schema 'items' must be a schema, but is an array"
	}
	if s.PreserveUnknown != nil && !*s.PreserveUnknown {
		return "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined"
	}
	children := []*Schema{s.Not, s.Items, s.AdditionalProperties}
	children = append(children, s.AllOf...)
	children = append(children, s.AnyOf...)
	children = append(children, s.OneOf...)
	for _, k := range sortedKeys(s.Properties) {
		children = append(children, s.Properties[k])
	}
	for _, c := range children {
		if e := NewStructuralError(c); e != "" {
			return e
		}
	}
	return ""
}

func prop(path, name string) string { return path + ".properties[" + name + "]" }

func invariants(s *Schema, lvl level, path string, causes *[]api.StatusCause) {
	if s == nil {
		return
	}
	add := func(c api.StatusCause) { *causes = append(*causes, c) }
	if s.Type == "array" && s.Items == nil {
		add(validation.Required(path+".items", "must be specified"))
	}
	invariants(s.Items, itemLevel, path+".items", causes)
	for _, k := range sortedKeys(s.Properties) {
		invariants(s.Properties[k], fieldLevel, prop(path, k), causes)
	}
	hasAdditional := s.AdditionalProperties != nil || s.AdditionalPropertiesBool != nil
	if hasAdditional && lvl == rootLevel {
		add(validation.Forbidden(path+".additionalProperties", "must not be used at the root"))
	}
	invariants(s.AdditionalProperties, fieldLevel, path+".additionalProperties", causes)

	if s.IntOrString && s.preserves() {
		add(validation.Invalid(path+".x-kubernetes-preserve-unknown-fields", true, "must be false if x-kubernetes-int-or-string is true"))
	}
	if s.IntOrString && s.EmbeddedResource {
		add(validation.Invalid(path+".x-kubernetes-embedded-resource", true, "must be false if x-kubernetes-int-or-string is true"))
	}
	junctors(s, intOrStringAnyOf(s.AnyOf), len(s.AllOf) > 0 && intOrStringAnyOf(s.AllOf[0].AnyOf), lvl, path, causes)

	checkMeta := lvl == rootLevel || s.EmbeddedResource
	switch {
	case s.EmbeddedResource && s.Type == "":
		add(validation.Required(path+".type", "must be object if x-kubernetes-embedded-resource is true"))
	case s.EmbeddedResource && s.Type != "object":
		add(validation.Invalid(path+".type", s.Type, "must be object if x-kubernetes-embedded-resource is true"))
	case !s.EmbeddedResource && s.Type == "" && !s.IntOrString && !s.preserves():
		detail := map[level]string{rootLevel: "must not be empty at the root", itemLevel: "must not be empty for specified array items",
			fieldLevel: "must not be empty for specified object fields"}[lvl]
		add(validation.Required(path+".type", detail))
	}
	if s.EmbeddedResource && hasAdditional {
		add(validation.Forbidden(path+".additionalProperties", "must not be used if x-kubernetes-embedded-resource is set"))
	}
	if lvl == rootLevel && s.Type != "" && s.Type != "object" {
		add(validation.Invalid(path+".type", s.Type, "must be object at the root"))
	}
	for _, k := range []string{"kind", "apiVersion"} {
		if c, ok := s.Properties[k]; ok && checkMeta && c.Type != "string" {
			add(validation.Invalid(prop(path, k)+".type", c.Type, "must be string"))
		}
	}
	if md, ok := s.Properties["metadata"]; ok {
		metadataInvariants(md, checkMeta, lvl, prop(path, "metadata"), causes)
	}
	if s.EmbeddedResource && !s.preserves() && len(s.Properties) == 0 {
		add(validation.Required(path+".properties", "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"))
	}
}

// metadataInvariants mirrors validateStructuralMetadataInvariants: at the root, metadata
// may restrict name and generateName, and say nothing else.
func metadataInvariants(md *Schema, checkMeta bool, lvl level, path string, causes *[]api.StatusCause) {
	if checkMeta && md.Type != "object" {
		*causes = append(*causes, validation.Invalid(path+".type", md.Type, "must be object"))
	}
	if lvl != rootLevel {
		return
	}
	_, name := md.Properties["name"]
	_, gen := md.Properties["generateName"]
	onlyNames := len(md.Properties) == 0 || (name && gen && len(md.Properties) == 2) || ((name || gen) && len(md.Properties) == 1)
	rest := *md
	rest.Type, rest.Default, rest.HasDefault, rest.Properties, rest.pattern = "", nil, false, nil, nil
	if !onlyNames || !isEmpty(&rest) {
		*causes = append(*causes, validation.Forbidden(path, "must not specify anything other than name and generateName, but metadata is implicitly specified"))
	}
}

// isEmpty reports a node with nothing set.
func isEmpty(s *Schema) bool {
	return s.Type == "" && s.Format == "" && s.Title == "" && s.Description == "" && !s.Nullable && !s.HasDefault &&
		len(s.Properties) == 0 && s.AdditionalProperties == nil && s.AdditionalPropertiesBool == nil && s.Items == nil &&
		s.Maximum == nil && s.Minimum == nil && !s.ExclusiveMaximum && !s.ExclusiveMinimum &&
		s.MaxLength == nil && s.MinLength == nil && s.MaxItems == nil && s.MinItems == nil &&
		s.MaxProperties == nil && s.MinProperties == nil && s.MultipleOf == nil && !s.UniqueItems && s.Pattern == "" &&
		s.Enum == nil && s.Required == nil && s.AllOf == nil && s.AnyOf == nil && s.OneOf == nil && s.Not == nil &&
		s.PreserveUnknown == nil && !s.EmbeddedResource && !s.IntOrString && s.ListType == nil && s.ListMapKeys == nil &&
		s.MapType == nil && s.Validations == nil
}

// intOrStringAnyOf reports kubebuilder's int-or-string pattern: anyOf [{type: integer},
// {type: string}] and nothing else in either clause.
func intOrStringAnyOf(anyOf []*Schema) bool {
	if len(anyOf) != 2 {
		return false
	}
	for i, t := range []string{"integer", "string"} {
		c := *anyOf[i]
		if c.Type != t {
			return false
		}
		c.Type = ""
		if !isEmpty(&c) {
			return false
		}
	}
	return true
}

// junctors mirrors validateValueValidation: the clauses of anyOf, allOf, oneOf and not
// (but the int-or-string patterns) are value validations only; the pattern compiles.
func junctors(s *Schema, skipAnyOf, skipFirstAllOfAnyOf bool, lvl level, path string, causes *[]api.StatusCause) {
	if !skipAnyOf {
		for i, c := range s.AnyOf {
			nested(c, false, false, lvl, fmt.Sprintf("%s.anyOf[%d]", path, i), causes)
		}
	}
	for i, c := range s.AllOf {
		nested(c, skipFirstAllOfAnyOf && i == 0, false, lvl, fmt.Sprintf("%s.allOf[%d]", path, i), causes)
	}
	for i, c := range s.OneOf {
		nested(c, false, false, lvl, fmt.Sprintf("%s.oneOf[%d]", path, i), causes)
	}
	nested(s.Not, false, false, lvl, path+".not", causes)
	if s.Pattern != "" && s.pattern == nil {
		_, err := compilePattern(s.Pattern)
		*causes = append(*causes, validation.Invalid(path+".pattern", s.Pattern, fmt.Sprintf("must be a valid regular expression, but isn't: %v", err)))
	}
}

// nested mirrors validateNestedValueValidation.
func nested(v *Schema, skipAnyOf, skipAllOfAnyOf bool, lvl level, path string, causes *[]api.StatusCause) {
	if v == nil {
		return
	}
	add := func(c api.StatusCause) { *causes = append(*causes, c) }
	junctors(v, skipAnyOf, skipAllOfAnyOf, lvl, path, causes)
	nested(v.Items, false, false, lvl, path+".items", causes)
	for _, k := range sortedKeys(v.Properties) {
		nested(v.Properties[k], false, false, fieldLevel, prop(path, k), causes)
	}
	if v.Type != "" {
		add(validation.Forbidden(path+".type", "must be empty to be structural"))
	}
	if v.AdditionalProperties != nil || (v.AdditionalPropertiesBool != nil && *v.AdditionalPropertiesBool) {
		add(validation.Forbidden(path+".additionalProperties", "must be undefined to be structural"))
	}
	checks := []struct {
		set           bool
		field, detail string
	}{
		{v.HasDefault, "default", "must be undefined to be structural"},
		{v.Title != "", "title", "must be empty to be structural"},
		{v.Description != "", "description", "must be empty to be structural"},
		{v.Nullable, "nullable", "must be false to be structural"},
		{v.preserves(), "x-kubernetes-preserve-unknown-fields", "must be false to be structural"},
		{v.EmbeddedResource, "x-kubernetes-embedded-resource", "must be false to be structural"},
		{v.IntOrString, "x-kubernetes-int-or-string", "must be false to be structural"},
		{len(v.ListMapKeys) > 0, "x-kubernetes-list-map-keys", "must be empty to be structural"},
		{v.ListType != nil, "x-kubernetes-list-type", "must be undefined to be structural"},
		{v.MapType != nil, "x-kubernetes-map-type", "must be undefined to be structural"},
		{len(v.Validations) > 0, "x-kubernetes-validations", "must be empty to be structural"},
	}
	for _, c := range checks {
		if c.set {
			add(validation.Forbidden(path+"."+c.field, c.detail))
		}
	}
	if _, ok := v.Properties["metadata"]; ok {
		add(validation.Forbidden(prop(path, "metadata"), "must not be specified in a nested context"))
	}
}

// completeness mirrors validateStructuralCompleteness: a field a junctor's clause names must
// be specified by the structural schema at the same place.
func completeness(v, s *Schema, sPath, vPath string, causes *[]api.StatusCause) {
	if v == nil {
		return
	}
	clauses := func(name string, l []*Schema) {
		for i, c := range l {
			nestedCompleteness(c, s, sPath, fmt.Sprintf("%s.%s[%d]", vPath, name, i), causes)
		}
	}
	if v.Not != nil {
		nestedCompleteness(v.Not, s, sPath, vPath+".not", causes)
	}
	clauses("allOf", v.AllOf)
	clauses("anyOf", v.AnyOf)
	clauses("oneOf", v.OneOf)
}

func nestedCompleteness(v, s *Schema, sPath, vPath string, causes *[]api.StatusCause) {
	if v == nil {
		return
	}
	if s == nil {
		*causes = append(*causes, validation.Required(sPath, "because it is defined in "+vPath))
		return
	}
	completeness(v, s, sPath, vPath, causes)
	nestedCompleteness(v.Items, s.Items, sPath+".items", vPath+".items", causes)
	for _, k := range sortedKeys(v.Properties) {
		sf, ok := s.Properties[k]
		if !ok {
			*causes = append(*causes, validation.Required(prop(sPath, k), "because it is defined in "+prop(vPath, k)))
			continue
		}
		nestedCompleteness(v.Properties[k], sf, prop(sPath, k), prop(vPath, k), causes)
	}
}
