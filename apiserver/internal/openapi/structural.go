package openapi

import (
	"slices"
)

// A custom resource's schema as kube-apiserver publishes it: the CRD's openAPIV3Schema read
// into a structural schema and written back (k8s.io/apiextensions-apiserver
// pkg/apiserver/schema: NewStructural, Unfold, ToKubeOpenAPI), which keeps the keywords a
// structural schema has and drops false flags and empty lists.

// valueKeywords are the value validations a structural schema keeps, at any level.
var valueKeywords = []string{
	"format", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength",
	"minLength", "pattern", "maxItems", "minItems", "uniqueItems", "multipleOf", "enum",
	"maxProperties", "minProperties", "required",
}

// genericKeywords are kept on a schema (not inside allOf, anyOf, oneOf and not).
var genericKeywords = []string{"type", "nullable", "description", "title", "default", "externalDocs", "example"}

// flagExtensions are written only when true.
var flagExtensions = []string{
	"x-kubernetes-preserve-unknown-fields", "x-kubernetes-embedded-resource", "x-kubernetes-int-or-string",
}

// structuralNode reads one schema of a CRD. nested is true inside a junctor, where a
// structural schema keeps value validations, validation rules, items and properties, and
// the generic keywords only as the exception kube-apiserver tolerates (type, in the anyOf
// it adds for int-or-string).
func structuralNode(m map[string]any, nested bool) *Node {
	s := Obj()
	keep := func(k string) {
		v, ok := m[k]
		// default and example are kept unless null (an interface with omitzero); other
		// keywords go when false, empty or null (omitempty, omitzero of a bool).
		if !ok || v == nil || (k != "default" && k != "example" && isZero(v)) {
			return
		}
		s.Set(k, FromValue(v))
	}
	if !nested {
		for _, k := range genericKeywords {
			keep(k)
		}
	} else {
		keep("type")
	}
	for _, k := range valueKeywords {
		keep(k)
	}
	if items, ok := m["items"].(map[string]any); ok {
		s.Set("items", structuralNode(items, nested))
	}
	if props, ok := m["properties"].(map[string]any); ok {
		p := Obj()
		for _, name := range sortedKeys(props) {
			if sub, ok := props[name].(map[string]any); ok {
				p.Set(name, structuralNode(sub, nested))
			}
		}
		s.Set("properties", p)
	}
	if !nested {
		switch ap := m["additionalProperties"].(type) {
		case map[string]any:
			s.Set("additionalProperties", structuralNode(ap, false))
		case bool:
			s.Set("additionalProperties", Boolean(ap))
		}
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		list, ok := m[k].([]any)
		if !ok || len(list) == 0 {
			continue
		}
		arr := Arr()
		for _, item := range list {
			if sub, ok := item.(map[string]any); ok {
				arr.Values = append(arr.Values, structuralNode(sub, true))
			}
		}
		s.Set(k, arr)
	}
	if not, ok := m["not"].(map[string]any); ok {
		s.Set("not", structuralNode(not, true))
	}
	if !nested {
		for _, k := range flagExtensions {
			if isTrue(m[k]) {
				s.Set(k, Boolean(true))
			}
		}
		for _, k := range []string{"x-kubernetes-list-map-keys", "x-kubernetes-list-type", "x-kubernetes-map-type"} {
			keep(k)
		}
	}
	if rules, ok := m["x-kubernetes-validations"].([]any); ok && len(rules) > 0 {
		s.Set("x-kubernetes-validations", validationRules(rules))
	}
	return s
}

// validationRules writes x-kubernetes-validations in the order of the fields of
// apiextensions/v1 ValidationRule, as the v3 document does (it writes the Go values).
func validationRules(rules []any) *Node {
	arr := Arr()
	for _, r := range rules {
		m, ok := r.(map[string]any)
		if !ok {
			continue
		}
		n := Obj()
		for _, k := range []string{"rule", "message", "messageExpression", "reason", "fieldPath", "optionalOldSelf"} {
			v, ok := m[k]
			if !ok || (k != "rule" && isZero(v)) {
				continue
			}
			n.Set(k, FromValue(v))
		}
		arr.Values = append(arr.Values, n)
	}
	return arr
}

// isZero reports the values kube-openapi leaves out: false, an empty string, list or map.
func isZero(v any) bool {
	switch t := v.(type) {
	case nil:
		return true
	case bool:
		return !t
	case string:
		return t == ""
	case []any:
		return len(t) == 0
	case map[string]any:
		return false
	}
	return false
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// intOrStringAnyOf is what Unfold adds to an int-or-string schema.
func intOrStringAnyOf() *Node {
	return Arr(Obj().Set("type", Str("integer")), Obj().Set("type", Str("string")))
}

func isIntOrStringAnyOf(n *Node) bool {
	return n != nil && string(n.JSON()) == `[{"type":"integer"},{"type":"string"}]`
}

// unfold mirrors Structural.Unfold: an x-kubernetes-int-or-string schema gets
// anyOf [integer, string] unless it has it (directly or as its first allOf); one that has
// another anyOf gets it as a new first allOf.
func unfold(s *Node) {
	if s == nil || s.Kind != Object {
		return
	}
	if props := s.Get("properties"); props != nil {
		for _, p := range props.Values {
			unfold(p)
		}
	}
	unfold(s.Get("items"))
	if ap := s.Get("additionalProperties"); ap != nil && ap.Kind == Object {
		unfold(ap)
	}
	if s.Get("x-kubernetes-int-or-string") == nil {
		return
	}
	anyOf, allOf := s.Get("anyOf"), s.Get("allOf")
	if isIntOrStringAnyOf(anyOf) || (allOf != nil && len(allOf.Values) > 0 && isIntOrStringAnyOf(allOf.Values[0].Get("anyOf"))) {
		return
	}
	if anyOf == nil {
		s.Set("anyOf", intOrStringAnyOf())
		return
	}
	first := Obj().Set("anyOf", intOrStringAnyOf())
	if allOf == nil {
		s.Set("allOf", Arr(first))
		return
	}
	allOf.Values = append([]*Node{first}, allOf.Values...)
}

// toStructuralV2 mirrors ToStructuralOpenAPIV2 of k8s.io/apiextensions-apiserver
// pkg/controller/openapi/v2: what kubectl's v2 reader cannot take goes. Junctors go;
// a nullable schema loses its type, items and properties (and is no longer required); one
// that keeps unknown fields loses items and properties, and its type when an object; an
// array left without items loses its type.
func toStructuralV2(s *Node) {
	if s == nil || s.Kind != Object {
		return
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf", "not"} {
		s.Delete(k)
	}
	if s.Get("nullable") != nil {
		s.Delete("type")
		s.Delete("nullable")
		s.Delete("items")
		s.Delete("properties")
	}
	if s.Get("x-kubernetes-preserve-unknown-fields") != nil {
		s.Delete("items")
		s.Delete("properties")
	}
	if t := s.Get("type"); t != nil && t.Text == "array" && s.Get("items") == nil {
		s.Delete("type")
	}
	if t := s.Get("type"); t != nil && t.Text == "object" && s.Get("x-kubernetes-preserve-unknown-fields") != nil {
		s.Delete("type")
	}
	if props := s.Get("properties"); props != nil {
		for i, name := range props.Keys {
			if props.Values[i].Get("nullable") != nil {
				dropRequired(s, name)
			}
		}
	}
	if ap := s.Get("additionalProperties"); ap != nil && ap.Kind == Object && ap.Get("nullable") != nil {
		s.Delete("required")
	}
	if props := s.Get("properties"); props != nil {
		for _, p := range props.Values {
			toStructuralV2(p)
		}
	}
	toStructuralV2(s.Get("items"))
	if ap := s.Get("additionalProperties"); ap != nil && ap.Kind == Object {
		toStructuralV2(ap)
	}
}

func dropRequired(s *Node, name string) {
	req := s.Get("required")
	if req == nil {
		return
	}
	req.Values = slices.DeleteFunc(req.Values, func(n *Node) bool { return n.Text == name })
	if len(req.Values) == 0 {
		s.Delete("required")
	}
}
