package decode

import (
	"bytes"
	"encoding"
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"sync"
)

// The Go side of the strict scan: which JSON members a struct type has, as encoding/json
// sees them, and the removal of members that match a field only by case.

// foldMatches reports whether encoding/json would decode member key into one of fields.
func foldMatches(fields map[string]reflect.Type, key string) bool {
	for name := range fields {
		if strings.EqualFold(name, key) {
			return true
		}
	}
	return false
}

func indirectType(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

var (
	jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// isOpaqueType reports types that decode themselves (api.Time, json.RawMessage,
// api.Unstructured): their members are theirs to judge, so the scan does not look inside.
func isOpaqueType(t reflect.Type) bool {
	if t == nil || t.Kind() == reflect.Interface {
		return false
	}
	pt := reflect.PointerTo(t)
	return pt.Implements(jsonUnmarshalerType) || pt.Implements(textUnmarshalerType)
}

var structFieldsCache sync.Map // reflect.Type → map[string]reflect.Type

// structFields maps the JSON member names of struct type t to their Go types, following
// encoding/json's rules for tags, "-" and embedded structs (TypeMeta `json:",inline"`).
func structFields(t reflect.Type) map[string]reflect.Type {
	if f, ok := structFieldsCache.Load(t); ok {
		return f.(map[string]reflect.Type)
	}
	out := map[string]reflect.Type{}
	collectFields(t, out, 0)
	structFieldsCache.Store(t, out)
	return out
}

func collectFields(t reflect.Type, out map[string]reflect.Type, depth int) {
	if depth > 8 {
		return // embedding this deep does not happen in API types; stop any cycle
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			if et := indirectType(f.Type); et.Kind() == reflect.Struct {
				collectFields(et, out, depth+1)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if _, dup := out[name]; !dup {
			out[name] = f.Type
		}
	}
}

// dropMembers removes the members at paths from the JSON object in data and re-encodes it.
// It is the rare path (a member that differs from a field only by case), so it may be slow.
func dropMembers(data []byte, paths [][]pathSegment) []byte {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var root any
	if err := dec.Decode(&root); err != nil {
		return data
	}
	if _, err := dec.Token(); err != io.EOF {
		return data
	}
	for _, p := range paths {
		removeAt(root, p)
	}
	out, err := json.Marshal(root)
	if err != nil {
		return data
	}
	return out
}

// removeAt deletes the member at path p inside the decoded JSON tree v.
func removeAt(v any, p []pathSegment) {
	for i, s := range p {
		last := i == len(p)-1
		switch c := v.(type) {
		case map[string]any:
			if s.isIndex {
				return
			}
			if last {
				delete(c, s.name)
				return
			}
			v = c[s.name]
		case []any:
			if !s.isIndex || s.index >= len(c) || last {
				return
			}
			v = c[s.index]
		default:
			return
		}
	}
}
