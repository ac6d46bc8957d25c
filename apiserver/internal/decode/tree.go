package decode

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/schema"
)

// ObjectFromTree is ObjectForStorage for a body already read into a tree (a protobuf
// body, read by api/protobuf): the same schema walk over the tree instead of over JSON
// text, so that the body is not written out as JSON and read back. It takes only the
// ordinary case, an object in which every member is known and every value of the type its
// schema wants; it returns false for anything else (an unknown member, a type or format
// error, a number that is not an int64, a value a Go type decodes itself, a string that is
// not UTF-8), and the caller
// then goes the JSON way, whose answers (errors, warnings) are the reference. What it
// returns is what ObjectForStorage returns for the tree's JSON: null members dropped (or
// the element type's zero value in a map), Quantities in their canonical text, kind and
// apiVersion set to expected's. tree itself is not changed.
func ObjectFromTree(tree map[string]any, sch *schema.Schema, expected api.GroupVersionKind) (*api.Unstructured, bool) {
	if sch == nil {
		return nil, false
	}
	for _, k := range [...]struct{ key, want string }{{"kind", expected.Kind}, {"apiVersion", expected.APIVersion()}} {
		if v, ok := tree[k.key]; ok && v != k.want {
			return nil, false // let the JSON way name the mismatch
		}
	}
	var w treeWalker
	obj, ok := w.object(sch, tree)
	if !ok {
		return nil, false
	}
	u := &api.Unstructured{Object: obj}
	u.SetGroupVersionKind(expected)
	return u, true
}

// treeWalker walks a tree as objectDecoder walks JSON, giving up where that would report.
type treeWalker struct{ depth int }

// maxTreeDepth is far below maxDepth: deeper trees go the JSON way, which knows the limit.
const maxTreeDepth = 1000

// value mirrors objectDecoder.value. keep is false for nil; ok is false where the JSON way
// must decide.
func (w *treeWalker) value(s *schema.Schema, v any) (out any, keep, ok bool) {
	if s != nil && s.Kind == schema.KindAny && s.Name != "" {
		return nil, false, false // a type that decodes itself (RawExtension, FieldsV1)
	}
	switch t := v.(type) {
	case nil:
		return nil, false, true
	case map[string]any:
		if s.Check(schema.JSONObject, "{}") != nil {
			return nil, false, false
		}
		m, ok := w.object(s, t)
		return m, true, ok
	case []any:
		if s.Check(schema.JSONArray, "[]") != nil {
			return nil, false, false
		}
		a, ok := w.array(s, t)
		return a, true, ok
	case string:
		if !utf8.ValidString(t) {
			return nil, false, false // JSON would carry it as U+FFFD
		}
		if s != nil && s.Kind == schema.KindQuantity {
			q, err := schema.CanonicalQuantity(strings.TrimSpace(t))
			return q, true, err == nil
		}
		if s != nil && !(s.Kind == schema.KindString && s.Format == "") && s.Kind != schema.KindAny && s.Kind != schema.KindIntOrString {
			if s.Check(schema.JSONString, t) != nil {
				return nil, false, false
			}
		}
		return t, true, true
	case bool:
		if s != nil && s.Kind != schema.KindBoolean && s.Kind != schema.KindAny {
			if s.Check(schema.JSONBool, strconv.FormatBool(t)) != nil {
				return nil, false, false
			}
		}
		return t, true, true
	case int64:
		if s == nil {
			s = anything
		}
		if s.Kind == schema.KindQuantity {
			return nil, false, false
		}
		if !numberFits(s, t) && s.Check(schema.JSONNumber, strconv.FormatInt(t, 10)) != nil {
			return nil, false, false
		}
		return t, true, true
	}
	return nil, false, false // float64 (JSON may read it back as an integer), []byte, ...
}

// object mirrors objectDecoder.object and member into a new map.
func (w *treeWalker) object(s *schema.Schema, m map[string]any) (map[string]any, bool) {
	if w.depth++; w.depth > maxTreeDepth {
		return nil, false
	}
	defer func() { w.depth-- }()
	out := make(map[string]any, len(m))
	for key, v := range m {
		if !utf8.ValidString(key) {
			return nil, false
		}
		var child *schema.Schema
		isField := false
		if s != nil && s.Kind == schema.KindObject {
			if p, ok := s.Properties[key]; ok {
				key, child, isField = p.Name, p.Schema, true
			}
		}
		if !isField {
			var known bool
			if child, known = s.Member(key); !known {
				return nil, false // unknown: a warning or an error, the JSON way's to give
			}
		}
		val, keep, ok := w.value(child, v)
		switch {
		case !ok:
			return nil, false
		case keep:
			out[key] = val
		case !isField:
			out[key] = child.Zero() // null in a map is the element type's zero value
		}
	}
	return out, true
}

// array mirrors objectDecoder.array into a new slice.
func (w *treeWalker) array(s *schema.Schema, a []any) ([]any, bool) {
	if w.depth++; w.depth > maxTreeDepth {
		return nil, false
	}
	defer func() { w.depth-- }()
	var items *schema.Schema
	if s != nil {
		items = s.Items
	}
	out := make([]any, len(a), max(len(a), 4))
	for i, e := range a {
		val, keep, ok := w.value(items, e)
		if !ok {
			return nil, false
		}
		if !keep {
			val = items.Zero() // null in a slice is the element type's zero value
		}
		out[i] = val
	}
	return out, true
}
