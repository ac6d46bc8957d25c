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
// not UTF-8), leaving tree as it was, and the caller then goes the JSON way, whose answers
// (errors, warnings) are the reference. When it takes the tree, it makes it in place into
// what ObjectForStorage returns for the tree's JSON: null members dropped (or the element
// type's zero value in a map or list), Quantities in their canonical text, kind and
// apiVersion set to expected's. A first pass only reads, so a declined tree is untouched;
// the second edits, and allocates only what those edits need.
func ObjectFromTree(tree map[string]any, sch *schema.Schema, expected api.GroupVersionKind) (*api.Unstructured, bool) {
	if sch == nil {
		return nil, false
	}
	for _, k := range [...]struct{ key, want string }{{"kind", expected.Kind}, {"apiVersion", expected.APIVersion()}} {
		if v, ok := tree[k.key]; ok && v != k.want {
			return nil, false // let the JSON way name the mismatch
		}
	}
	if !(&treeWalker{}).object(sch, tree) {
		return nil, false
	}
	(&treeWalker{edit: true}).object(sch, tree)
	u := &api.Unstructured{Object: tree}
	u.SetGroupVersionKind(expected)
	return u, true
}

// treeWalker walks a tree as objectDecoder walks JSON, giving up where that would report;
// with edit set it makes the tree what that stores (it then never gives up).
type treeWalker struct {
	depth int
	edit  bool
}

// maxTreeDepth is far below maxDepth: deeper trees go the JSON way, which knows the limit.
const maxTreeDepth = 1000

// value mirrors objectDecoder.value for v, a member or item that is not nil. When editing,
// v's replacement is returned with changed set (a Quantity's canonical text).
func (w *treeWalker) value(s *schema.Schema, v any) (repl any, changed, ok bool) {
	if s != nil && s.Kind == schema.KindAny && s.Name != "" {
		return nil, false, false // a type that decodes itself (RawExtension, FieldsV1)
	}
	switch t := v.(type) {
	case map[string]any:
		if s.Check(schema.JSONObject, "{}") != nil {
			return nil, false, false
		}
		return nil, false, w.object(s, t)
	case []any:
		if s.Check(schema.JSONArray, "[]") != nil {
			return nil, false, false
		}
		return nil, false, w.array(s, t)
	case string:
		if !utf8.ValidString(t) {
			return nil, false, false // JSON would carry it as U+FFFD
		}
		if s != nil && s.Kind == schema.KindQuantity {
			q, err := schema.CanonicalQuantity(strings.TrimSpace(t))
			if err != nil {
				return nil, false, false
			}
			return q, q != t, true
		}
		if s != nil && !(s.Kind == schema.KindString && s.Format == "") && s.Kind != schema.KindAny && s.Kind != schema.KindIntOrString {
			if s.Check(schema.JSONString, t) != nil {
				return nil, false, false
			}
		}
		return nil, false, true
	case bool:
		if s != nil && s.Kind != schema.KindBoolean && s.Kind != schema.KindAny {
			if s.Check(schema.JSONBool, strconv.FormatBool(t)) != nil {
				return nil, false, false
			}
		}
		return nil, false, true
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
		return nil, false, true
	}
	return nil, false, false // float64 (JSON may read it back as an integer), []byte, ...
}

// object mirrors objectDecoder.object and member on m.
func (w *treeWalker) object(s *schema.Schema, m map[string]any) bool {
	if w.depth++; w.depth > maxTreeDepth {
		return false
	}
	defer func() { w.depth-- }()
	for key, v := range m {
		if !utf8.ValidString(key) {
			return false
		}
		var child *schema.Schema
		isField := false
		if s != nil && s.Kind == schema.KindObject {
			if p, ok := s.Properties[key]; ok {
				child, isField = p.Schema, true
			}
		}
		if !isField {
			var known bool
			if child, known = s.Member(key); !known {
				return false // unknown: a warning or an error, the JSON way's to give
			}
		}
		if v == nil {
			if w.edit {
				if isField {
					delete(m, key) // null leaves a struct field unset
				} else {
					m[key] = child.Zero() // null in a map is the element type's zero value
				}
			}
			continue
		}
		repl, changed, ok := w.value(child, v)
		if !ok {
			return false
		}
		if changed && w.edit {
			m[key] = repl
		}
	}
	return true
}

// array mirrors objectDecoder.array on a.
func (w *treeWalker) array(s *schema.Schema, a []any) bool {
	if w.depth++; w.depth > maxTreeDepth {
		return false
	}
	defer func() { w.depth-- }()
	var items *schema.Schema
	if s != nil {
		items = s.Items
	}
	for i, e := range a {
		if e == nil {
			if w.edit {
				a[i] = items.Zero() // null in a slice is the element type's zero value
			}
			continue
		}
		repl, changed, ok := w.value(items, e)
		if !ok {
			return false
		}
		if changed && w.edit {
			a[i] = repl
		}
	}
	return true
}
