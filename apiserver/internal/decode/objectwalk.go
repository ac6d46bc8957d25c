package decode

import (
	"strings"

	"github.com/informer-lab/informer-lab/apiserver/internal/schema"
)

// The schema side of Object's reader: which member is which, what it may hold, and what
// is stored.

// value reads one value against s (nil: anything). keep is false for null, which the
// caller drops or replaces by the zero value.
func (d *objectDecoder) value(s *schema.Schema) (v any, keep bool) {
	if s != nil && s.Kind == schema.KindAny && s.Name != "" {
		d.opaque++
		defer func() { d.opaque-- }()
	}
	switch c := d.next(); {
	case c == '{':
		if err := s.Check(schema.JSONObject, "{}"); err != nil {
			d.fail(err)
			d.skip()
			return nil, false
		}
		return d.object(s, false), true
	case c == '[':
		if err := s.Check(schema.JSONArray, "[]"); err != nil {
			d.fail(err)
			d.skip()
			return nil, false
		}
		return d.array(s), true
	case c == '"':
		str := d.str()
		if s != nil && s.Kind == schema.KindQuantity {
			return d.quantity(strings.TrimSpace(str), str)
		}
		if s != nil && !(s.Kind == schema.KindString && s.Format == "") && s.Kind != schema.KindAny && s.Kind != schema.KindIntOrString {
			if err := s.Check(schema.JSONString, str); err != nil {
				d.fail(err)
			}
		}
		return str, true
	case c == 't' || c == 'f':
		if !d.literal("true") && !d.literal("false") {
			d.bad()
			return nil, false
		}
		if s != nil && s.Kind != schema.KindBoolean && s.Kind != schema.KindAny {
			text := "false"
			if c == 't' {
				text = "true"
			}
			if err := s.Check(schema.JSONBool, text); err != nil {
				d.fail(err)
			}
		}
		return c == 't', true
	case c == 'n':
		d.expect("null")
		return nil, false
	case c == '-' || (c >= '0' && c <= '9'):
		v, lit := d.number()
		if d.invalid {
			return nil, false
		}
		if s == nil {
			s = anything
		}
		if s.Kind == schema.KindQuantity {
			return d.quantity(string(lit), v)
		}
		if !numberFits(s, v) {
			if err := s.Check(schema.JSONNumber, string(lit)); err != nil {
				d.fail(err)
			}
		}
		return v, v != nil
	default:
		d.bad()
		return nil, false
	}
}

// quantity is what a resource.Quantity member is stored as: the text the Go type writes
// back out (schema.CanonicalQuantity), "0.5" and 0.5 becoming "500m". A text it cannot
// read ends the decode with ParseQuantity's error (orig is kept meanwhile).
func (d *objectDecoder) quantity(text string, orig any) (any, bool) {
	q, err := schema.CanonicalQuantity(text)
	if err != nil {
		d.fail(&schema.StopError{Err: err})
		return orig, orig != nil
	}
	return q, true
}

// anything is the schema of a value inside a free-form one: an interface{} upstream.
var anything = &schema.Schema{Kind: schema.KindAny}

// numberFits is the allocation-free common case of Check for a number v from number.
func numberFits(s *schema.Schema, v any) bool {
	switch s.Kind {
	case schema.KindAny, schema.KindNumber:
		return v != nil
	case schema.KindInteger:
		n, ok := v.(int64)
		return ok && (s.Format != "int32" || int64(int32(n)) == n)
	}
	return false
}

// object reads an object at its opening brace against s (nil, KindAny or KindFreeObject:
// any members). top marks the body itself, whose status member is not checked for
// required members.
func (d *objectDecoder) object(s *schema.Schema, top bool) map[string]any {
	if !d.enter() {
		return nil
	}
	d.pos++ // '{'
	m := make(map[string]any, 8)
	if d.next() == '}' {
		d.pos++
		d.depth--
		d.checkRequired(s, m)
		return m
	}
	var seen seenKeys
	for !d.stopped() {
		if d.next() != '"' {
			d.bad()
			break
		}
		name, plain := d.strRaw()
		if !plain {
			name = []byte(d.unescape(name))
		}
		if d.next() != ':' {
			d.bad()
			break
		}
		d.pos++
		d.member(s, name, plain, top, m, &seen)
		if d.stopped() {
			break
		}
		switch d.next() {
		case ',':
			d.pos++
		case '}':
			d.pos++
			d.depth--
			d.checkRequired(s, m)
			return m
		default:
			d.bad()
		}
	}
	return m
}

// member reads the value of member name into m. Properties are stored under the schema's
// own string, so known keys are not allocated.
func (d *objectDecoder) member(s *schema.Schema, name []byte, plain, top bool, m map[string]any, seen *seenKeys) {
	var key, via string
	var child *schema.Schema
	isField := false
	if s != nil && s.Kind == schema.KindObject {
		if p, ok := s.Property(name); ok {
			key, child, via, isField = p.Name, p.Schema, p.Via, true
		}
	}
	if !isField {
		if plain {
			key = d.cut(name)
		} else {
			key = string(name)
		}
		var known bool
		if child, known = s.Member(key); !known {
			if top && (strings.EqualFold(key, "kind") || strings.EqualFold(key, "apiVersion")) {
				d.kindCase = true
			}
			d.problem("unknown", key)
			d.skip()
			return
		}
	}
	if seen.addOrFind(name) {
		d.problem("duplicate", key)
	}
	savedOwner, nFields, savedStatus := d.owner, len(d.fields), d.inStatus
	if isField {
		if n := s.StructName(); n != "" { // inline objects (custom resources) keep the enclosing name
			d.owner = n
		}
		if via != "" {
			d.fields = append(d.fields, via)
		}
		d.fields = append(d.fields, key)
	}
	if top && key == "status" {
		d.inStatus = true
	}
	d.path = append(d.path, pathSegment{name: key})
	v, keep := d.value(child)
	d.path = d.path[:len(d.path)-1]
	d.owner, d.fields, d.inStatus = savedOwner, d.fields[:nFields], savedStatus
	switch {
	case keep:
		m[key] = v
	case isField:
		delete(m, key) // null leaves a struct field unset
	default:
		m[key] = child.Zero() // null in a map is the element type's zero value
	}
}

func (d *objectDecoder) checkRequired(s *schema.Schema, m map[string]any) {
	if s == nil || s.Kind != schema.KindObject || d.inStatus {
		return
	}
	for _, name := range s.Missing(m) {
		segs := append(d.path[:len(d.path):len(d.path)], pathSegment{name: name})
		d.required = append(d.required, fieldPath(segs))
	}
}

// array reads an array at its opening bracket against s, a KindArray or anything-goes.
func (d *objectDecoder) array(s *schema.Schema) []any {
	if !d.enter() {
		return nil
	}
	d.pos++ // '['
	var items *schema.Schema
	if s != nil {
		items = s.Items
	}
	out := make([]any, 0, 4)
	if d.next() == ']' {
		d.pos++
		d.depth--
		return out
	}
	for i := 0; !d.stopped(); i++ {
		d.path = append(d.path, pathSegment{index: i, isIndex: true})
		v, keep := d.value(items)
		if !keep && !d.stopped() {
			v = items.Zero() // null in a slice is the element type's zero value
			if m, ok := v.(map[string]any); ok {
				d.checkRequired(items, m)
			}
		}
		d.path = d.path[:len(d.path)-1]
		out = append(out, v)
		if d.stopped() {
			break
		}
		switch d.next() {
		case ',':
			d.pos++
		case ']':
			d.pos++
			d.depth--
			return out
		default:
			d.bad()
		}
	}
	return out
}
