package structural

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// The value validation of custom objects: kube-openapi's SchemaValidator
// (k8s.io/kube-openapi pkg/validation/validate) as apiextensions-apiserver builds it
// (pkg/apiserver/validation: NewSchemaValidator, ValidateCustomResource and the ratcheting
// of ValidateCustomResourceUpdate). Each node runs the validators kube-openapi runs, in its
// order (type, the junctors, string, format, number, array, enum, object), counts matches as
// it does (anyOf and oneOf report the best-matching clause's errors), deduplicates errors by
// their text, and turns them into field causes as kubeOpenAPIResultToFieldErrors does:
// errors that are not about one field (the junctors', range checks of the schema's own
// bounds) get the field "<nil>" at the root.

// errKind says what field error a kube-openapi error becomes.
type errKind int

const (
	kInvalid      errKind = iota // any other *errors.Validation: field.Invalid
	kRequired                    // field.Required
	kEnum                        // field.NotSupported
	kTooLong                     // field.TooLong
	kMaxItems                    // field.TooMany
	kTooManyProps                // field.TooMany
	kType                        // field.TypeInvalid
	kPlain                       // not an *errors.Validation: field.Invalid of the whole value, ""
)

type verr struct {
	kind     errKind
	name     string // the path kube-openapi names ("spec.replicas", "" for the value itself)
	value    any
	valid    int64
	enum     []any
	msg      string
	hasValue bool
}

// Validator checks values against one schema. The zero value checks as the validator of
// custom objects does; Defaults is the one ValidateDefaults builds from the structural
// schema (formats kept as written, x-kubernetes-int-or-string not turned into a type).
type Validator struct {
	Schema   *Schema
	Defaults bool
}

// Validate mirrors ValidateCustomResource: the causes of value against the schema, their
// fields under prefix ("" for a whole object, "status" for a status update,
// "….default" for a default).
func (v Validator) Validate(prefix string, value any) []api.StatusCause {
	if v.Schema == nil {
		return nil
	}
	c := &vctx{defaults: v.Defaults}
	return toCauses(prefix, c.node(v.Schema, "", value, nil))
}

// ValidateUpdate mirrors ValidateCustomResourceUpdate with CRDValidationRatcheting (on by
// default since v1.30): the errors of a part of value that equals its correlated part of
// old (same member of an object or map, same key in a map-list) are dropped, so that an
// object invalid under a tightened schema can still be updated elsewhere.
func (v Validator) ValidateUpdate(prefix string, value, old any) []api.StatusCause {
	if v.Schema == nil {
		return nil
	}
	c := &vctx{defaults: v.Defaults}
	return toCauses(prefix, c.node(v.Schema, "", value, newCorrelation(value, old, v.Schema)))
}

type vctx struct{ defaults bool }

// types is the schema's type as the validator sees it: int-or-string is both types for
// custom objects (ConvertJSONSchemaProps), nothing for defaults (ToKubeOpenAPI).
func (c *vctx) types(s *Schema) []string {
	if s.IntOrString && !c.defaults {
		return []string{"integer", "string"}
	}
	if s.Type == "" {
		return nil
	}
	return []string{s.Type}
}

// format is the schema's format after StripUnsupportedFormatsPostProcess, for custom
// objects; as written for defaults.
func (c *vctx) format(s *Schema, types []string) string {
	if c.defaults || s.Format == "" {
		return s.Format
	}
	t := ""
	if len(types) == 1 {
		t = types[0]
	}
	switch t {
	case "", "string":
		if supportedFormats[strings.ReplaceAll(s.Format, "-", "")] {
			return s.Format
		}
	case "integer":
		if s.Format == "int32" || s.Format == "int64" {
			return s.Format
		}
	case "number":
		if s.Format == "float" || s.Format == "double" {
			return s.Format
		}
	}
	return ""
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// node mirrors SchemaValidator.Validate for one schema node, then the ratcheting of
// ratchetingValueValidator when the node is correlated with an old value.
func (c *vctx) node(s *Schema, path string, data any, cor *correlation) *result {
	res := &result{}
	if s == nil {
		return res
	}
	types := c.types(s)
	format := c.format(s, types)
	if data == nil {
		res.merge(typeCheck(types, s.Nullable, format, path, nil))
		res.merge(s.enumCheck(path, nil))
		return ratchet(res, cor)
	}
	kind := kindOf(data)
	run := func(r *result) { res.merge(r); res.matches++ }
	if len(types) > 0 || format != "" {
		run(typeCheck(types, s.Nullable, format, path, data))
	}
	run(c.junctors(s, path, data))
	if kind == "string" {
		run(stringCheck(s, path, data.(string)))
		if knownFormat(format) {
			run(formatCheck(format, path, data.(string)))
		}
	}
	if kind == "integer" || kind == "number" {
		t, f := "", ""
		if len(types) == 1 && (types[0] == "integer" || types[0] == "number") {
			t = types[0]
			if (t == "integer" && (format == "int32" || format == "int64")) || (t == "number" && (format == "float" || format == "double")) {
				f = format
			}
		}
		run(numberCheck(s, t, f, path, data))
	}
	if kind == "array" {
		run(c.array(s, path, data.([]any), cor))
	}
	run(s.enumCheck(path, data))
	if kind == "object" {
		run(c.object(s, path, data.(map[string]any), cor))
	}
	res.matches++
	return ratchet(res, cor)
}

// ratchet drops the errors of a node equal to its old self (MergeAsWarnings).
func ratchet(res *result, cor *correlation) *result {
	if cor != nil && !res.valid() && cor.equal() {
		return &result{matches: res.matches}
	}
	return res
}

func kindOf(x any) string {
	switch x.(type) {
	case string:
		return "string"
	case bool:
		return "boolean"
	case int64, int:
		return "integer"
	case float64:
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return ""
}

// invalidType mirrors errors.InvalidType: the value kube-openapi reports is the type or
// format found, quoted in the message when it is a string.
func invalidType(path, want string, value any) verr {
	var msg string
	if s, ok := value.(string); ok {
		msg = fmt.Sprintf("%s in body must be of type %s: %q", path, want, s)
	} else {
		msg = fmt.Sprintf("%s in body must be of type %s", path, want)
	}
	return verr{kind: kType, name: path, value: value, hasValue: true, msg: msg}
}

func has(list []string, s string) bool { return contains(list, s) }

// typeCheck mirrors typeValidator.Validate.
func typeCheck(types []string, nullable bool, format, path string, data any) *result {
	if data == nil {
		if len(types) > 0 && !has(types, "null") && !nullable {
			return one(invalidType(path, strings.Join(types, ","), "null"))
		}
		return &result{matches: 1}
	}
	kind := kindOf(data)
	schFormat := ""
	switch kind {
	case "integer":
		schFormat = "int64"
	case "number":
		schFormat = "float64"
	}
	isFloatInt := kind == "number" && isJSONInteger(data.(float64)) && has(types, "integer")
	isIntFloat := kind == "integer" && has(types, "number")
	if kind != "string" && kind != "array" && format != "" && !(has(types, kind) || schFormat == format || isFloatInt || isIntFloat) {
		return one(invalidType(path, format, schFormat))
	}
	if !(has(types, "number") || has(types, "integer")) && format != "" && (kind == "string" || kind == "array") {
		return &result{matches: 1}
	}
	if !(has(types, kind) || isFloatInt || isIntFloat) {
		return one(invalidType(path, strings.Join(types, ","), kind))
	}
	return &result{matches: 1}
}

// isJSONInteger mirrors swag.IsFloat64AJSONInteger.
func isJSONInteger(f float64) bool {
	if math.IsNaN(f) || math.IsInf(f, 0) || f < -(1<<53) || f > 1<<53 {
		return false
	}
	return f == math.Trunc(f)
}

// junctors mirrors schemaPropsValidator.Validate: anyOf, oneOf, allOf, not.
func (c *vctx) junctors(s *Schema, path string, data any) *result {
	main := &result{}
	if len(s.AnyOf) > 0 {
		var best, first *result
		ok := false
		for _, clause := range s.AnyOf {
			r := c.node(clause, path, data, nil)
			if r.valid() {
				best, ok, first = nil, true, r
				break
			}
			if best == nil || r.matches > best.matches {
				best = r
			}
		}
		if !ok {
			main.add(verr{kind: kPlain, msg: fmt.Sprintf("%q must validate at least one schema (anyOf)", path)})
		}
		if best != nil {
			main.merge(best)
		} else if first != nil {
			main.merge(first)
		}
	}
	if len(s.OneOf) > 0 {
		var best, first *result
		validated := 0
		for _, clause := range s.OneOf {
			r := c.node(clause, path, data, nil)
			if r.valid() {
				validated++
				best = nil
				if first == nil {
					first = r
				}
				continue
			}
			if validated == 0 && (best == nil || r.matches > best.matches) {
				best = r
			}
		}
		if validated != 1 {
			more := "Found none valid"
			if validated > 0 {
				more = fmt.Sprintf("Found %d valid alternatives", validated)
			}
			main.add(verr{kind: kPlain, msg: fmt.Sprintf("%q must validate one and only one schema (oneOf). %s", path, more)})
			if best != nil {
				main.merge(best)
			}
		} else if first != nil {
			main.merge(first)
		}
	}
	if len(s.AllOf) > 0 {
		validated := 0
		for _, clause := range s.AllOf {
			r := c.node(clause, path, data, nil)
			if r.valid() {
				validated++
			}
			main.merge(r)
		}
		if validated != len(s.AllOf) {
			more := ""
			if validated == 0 {
				more = ". None validated"
			}
			main.add(verr{kind: kPlain, msg: fmt.Sprintf("%q must validate all the schemas (allOf)%s", path, more)})
		}
	}
	if s.Not != nil && c.node(s.Not, path, data, nil).valid() {
		main.add(verr{kind: kPlain, msg: fmt.Sprintf("%q must not validate the schema (not)", path)})
	}
	main.matches++
	return main
}

// array mirrors schemaSliceValidator.Validate.
func (c *vctx) array(s *Schema, path string, data []any, cor *correlation) *result {
	res := &result{}
	if s.Items != nil {
		for i, e := range data {
			res.merge(c.node(s.Items, fmt.Sprintf("%s[%d]", path, i), e, cor.index(i)))
		}
	}
	size := int64(len(data))
	if s.MinItems != nil && size < *s.MinItems {
		res.add(verr{kind: kInvalid, name: path, value: size, hasValue: true, msg: fmt.Sprintf("%s in body should have at least %d items", path, *s.MinItems)})
	}
	if s.MaxItems != nil && size > *s.MaxItems {
		res.add(verr{kind: kMaxItems, name: path, value: size, valid: *s.MaxItems, msg: fmt.Sprintf("%s in body should have at most %d items", path, *s.MaxItems)})
	}
	if s.UniqueItems {
		for i := range data {
			for j := 0; j < i; j++ {
				if jsonEqual(data[i], data[j]) {
					res.add(verr{kind: kInvalid, name: path, msg: fmt.Sprintf("%s in body shouldn't contain duplicates", path)})
				}
			}
		}
	}
	res.matches++
	return res
}

// object mirrors objectValidator.Validate, members in sorted order (kube-openapi walks Go
// maps, in no order).
func (c *vctx) object(s *Schema, path string, data map[string]any, cor *correlation) *result {
	res := &result{}
	n := int64(len(data))
	if s.MinProperties != nil && n < *s.MinProperties {
		res.add(verr{kind: kInvalid, name: path, value: n, hasValue: true, msg: fmt.Sprintf("%s in body should have at least %d properties", path, *s.MinProperties)})
	}
	if s.MaxProperties != nil && n > *s.MaxProperties {
		res.add(verr{kind: kTooManyProps, name: path, value: n, valid: *s.MaxProperties, msg: fmt.Sprintf("%s in body should have at most %d properties", path, *s.MaxProperties)})
	}
	keys := sortedKeys(data)
	if s.AdditionalPropertiesBool != nil && !*s.AdditionalPropertiesBool {
		for _, k := range keys {
			if _, ok := s.Properties[k]; !ok {
				res.add(verr{kind: kInvalid, name: path, value: k, hasValue: true, msg: fmt.Sprintf("%s.%s in body is a forbidden property", path, k)})
			}
		}
	} else if s.AdditionalProperties != nil {
		for _, k := range keys {
			if _, ok := s.Properties[k]; !ok {
				res.merge(c.node(s.AdditionalProperties, path+"."+k, data[k], cor.key(k, path == "")))
			}
		}
	}
	for _, k := range sortedKeys(s.Properties) {
		if v, ok := data[k]; ok {
			res.merge(c.node(s.Properties[k], join(path, k), v, cor.key(k, path == "")))
		}
	}
	for _, k := range s.Required {
		if _, ok := data[k]; !ok {
			res.add(verr{kind: kRequired, name: path + "." + k, msg: fmt.Sprintf("%s.%s in body is required", path, k)})
		}
	}
	return res
}

// toCauses mirrors kubeOpenAPIResultToFieldErrors.
func toCauses(prefix string, res *result) []api.StatusCause {
	var causes []api.StatusCause
	for _, e := range res.errs {
		field := prefix
		if e.kind != kPlain && e.name != "" && e.name != "." {
			field = join(prefix, strings.TrimPrefix(e.name, "."))
		}
		if field == "" {
			field = "<nil>"
		}
		value := e.value
		if !e.hasValue || value == nil {
			value = ""
		}
		switch e.kind {
		case kRequired:
			causes = append(causes, validation.Required(field, ""))
		case kEnum:
			enum := e.enum
			causes = append(causes, validation.NotSupportedOf(field, e.value, len(enum), func(i int) string {
				if s, ok := enum[i].(string); ok {
					return s
				}
				b, _ := json.Marshal(enum[i])
				return string(b)
			}))
		case kTooLong:
			causes = append(causes, validation.TooLong(field, int(e.valid)))
		case kMaxItems, kTooManyProps:
			actual, _ := e.value.(int64)
			causes = append(causes, api.StatusCause{Type: api.CauseTypeTooMany, Field: field,
				Message: fmt.Sprintf("Too many: %d: must have at most %d %s", actual, e.valid, plural(e.valid, "item"))})
		case kType:
			c := validation.Invalid(field, value, e.msg)
			c.Type = api.CauseTypeTypeInvalid
			causes = append(causes, c)
		default:
			causes = append(causes, validation.Invalid(field, value, e.msg))
		}
	}
	return causes
}

func plural(n int64, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
