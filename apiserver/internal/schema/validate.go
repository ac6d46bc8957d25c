package schema

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Validation of an object that is already a JSON tree (a patched object, an object from
// storage), with the same checks the byte decoder in package decode makes while it reads.

// Result is what Validate found.
type Result struct {
	// Err is the first type or format error, as the real decoder words it; nil if none.
	Err error
	// Unknown lists the paths of members no schema node knows ("spec.containers[0].x"),
	// which Validate removed.
	Unknown []string
	// Required lists the paths of required members that are missing.
	Required []string
}

// Validate checks obj, the JSON tree of a whole object (map[string]any, []any, string,
// bool, nil, and int64, float64, int or json.Number numbers), against s, and edits it in
// place: unknown members are removed, null members dropped. Members are visited in sorted
// order, a tree having no other. Required members are not checked under the top-level
// status, which the real server's strategies do not validate for presence.
func (s *Schema) Validate(obj map[string]any) Result {
	v := validators.Get().(*validator)
	v.object(s, obj, true)
	res := v.res
	// Reset for the next walk: the stacks are empty again after a walk (each step pops
	// what it pushed), and the names they held are dropped.
	clear(v.fields[:cap(v.fields)])
	clear(v.path[:cap(v.path)])
	*v = validator{path: v.path[:0], fields: v.fields[:0]}
	validators.Put(v)
	return res
}

// validators keeps the walk's stacks from one Validate to the next: every create and
// update validates its object, and the stacks escape to the heap (the walk is recursive).
// They start deep enough for most kinds, not in append's doublings.
var validators = sync.Pool{New: func() any {
	return &validator{path: make([]pathSeg, 0, 16), fields: make([]string, 0, 16)}
}}

type validator struct {
	res Result
	// path is where the walk is, as members and indexes; at spells it ("spec.containers[0]")
	// only for a member it reports, so the walk of a valid object builds no strings.
	path   []pathSeg
	fields []string // member names only, for type errors
	owner  string   // struct holding the innermost field
	// inStatus is set under the top-level status, where presence is not checked.
	inStatus bool
}

func (v *validator) fail(err error) {
	if v.res.Err != nil {
		return
	}
	if te, ok := err.(*TypeError); ok && (v.owner != "" || len(v.fields) > 0) {
		te.Struct, te.Field = v.owner, strings.Join(v.fields, ".")
	}
	v.res.Err = err
}

// pathSeg is one step of a path: a member name, or an index when name is "".
type pathSeg struct {
	name  string
	index int
}

func (v *validator) at(name string) string {
	var b strings.Builder
	for i, p := range v.path {
		if p.name == "" {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(p.index))
			b.WriteByte(']')
			continue
		}
		b.WriteString(joinName(i > 0, p.name))
	}
	b.WriteString(joinName(len(v.path) > 0, name))
	return b.String()
}

func joinName(dot bool, name string) string {
	if dot {
		return "." + name
	}
	return name
}

// value checks x against s and returns it as it should be stored, keep false to drop it.
func (v *validator) value(s *Schema, x any, top bool) (any, bool) {
	k, text := classify(x)
	if k == JSONNull {
		return nil, false
	}
	if err := s.Check(k, text); err != nil {
		v.fail(err)
		return x, true
	}
	switch k {
	case JSONObject:
		if s != nil && (s.Kind == KindObject || s.Kind == KindMap) {
			v.object(s, x.(map[string]any), top)
		}
	case JSONArray:
		if s != nil && s.Kind == KindArray {
			arr := x.([]any)
			for i, e := range arr {
				v.path = append(v.path, pathSeg{index: i})
				if e == nil {
					arr[i] = s.Items.Zero()
					if z, ok := arr[i].(map[string]any); ok && !v.inStatus {
						v.object(s.Items, z, false)
					}
				} else {
					arr[i], _ = v.value(s.Items, e, false)
				}
				v.path = v.path[:len(v.path)-1]
			}
		}
	}
	return x, true
}

func (v *validator) object(s *Schema, m map[string]any, top bool) {
	var buf [16]string // most objects have fewer members: no allocation for them
	keys := buf[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		child, known := s.Member(k)
		if !known {
			if s.PreservesUnknown() {
				continue
			}
			v.res.Unknown = append(v.res.Unknown, v.at(k))
			delete(m, k)
			continue
		}
		prop := s.Properties[k]
		isField := s.Kind == KindObject && prop != nil
		savedOwner, nFields := v.owner, len(v.fields)
		if isField {
			if n := s.StructName(); n != "" { // inline objects keep the enclosing name
				v.owner = n
			}
			if prop.Via != "" {
				v.fields = append(v.fields, prop.Via)
			}
			v.fields = append(v.fields, k)
		}
		v.path = append(v.path, pathSeg{name: k})
		savedStatus := v.inStatus
		v.inStatus = v.inStatus || (top && k == "status")
		// value edits objects and arrays in place and returns x itself when it keeps it:
		// only a dropped member is written back.
		_, keep := v.value(child, m[k], false)
		v.inStatus = savedStatus
		switch {
		case !keep && isField:
			delete(m, k)
		case !keep:
			m[k] = child.Zero()
		}
		v.path = v.path[:len(v.path)-1]
		v.owner, v.fields = savedOwner, v.fields[:nFields]
	}
	if s.Kind == KindObject && !v.inStatus {
		for _, name := range s.Missing(m) {
			v.res.Required = append(v.res.Required, v.at(name))
		}
	}
}

// classify gives a tree value's JSON kind and the text Check wants.
func classify(x any) (JSONKind, string) {
	switch t := x.(type) {
	case nil:
		return JSONNull, ""
	case map[string]any:
		return JSONObject, "{}"
	case []any:
		return JSONArray, "[]"
	case string:
		return JSONString, t
	case bool:
		return JSONBool, strconv.FormatBool(t)
	case int64:
		return JSONNumber, strconv.FormatInt(t, 10)
	case int:
		return JSONNumber, strconv.Itoa(t)
	case json.Number:
		return JSONNumber, string(t)
	case float64:
		return JSONNumber, strconv.FormatFloat(t, 'g', -1, 64)
	}
	return JSONObject, "{}" // any other Go value cannot come from JSON; treat as opaque
}
