package printers

import (
	"strconv"
	"time"

	"github.com/informer-lab/informer-lab/api"
)

// object is one JSON object of a stored object's tree (api.Unstructured.Object or a part of
// it). The readers below never panic on an unexpected shape: a member that is missing or of
// the wrong JSON type reads as the zero value, as an unset field of a typed struct would.
type object map[string]any

// get returns the value at path, or nil.
func (o object) get(path ...string) any {
	var v any = map[string]any(o)
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// has reports whether path holds a non-null value: a pointer field that is set.
func (o object) has(path ...string) bool { return o.get(path...) != nil }

// obj returns the object at path; nil (which reads as empty) when absent.
func (o object) obj(path ...string) object {
	m, _ := o.get(path...).(map[string]any)
	return m
}

// str returns the string at path, or "".
func (o object) str(path ...string) string {
	s, _ := o.get(path...).(string)
	return s
}

// boolean returns the bool at path and whether it was one.
func (o object) boolean(path ...string) (bool, bool) {
	b, ok := o.get(path...).(bool)
	return b, ok
}

// list returns the array at path, or nil.
func (o object) list(path ...string) []any {
	l, _ := o.get(path...).([]any)
	return l
}

// objects returns the members of the array at path that are objects.
func (o object) objects(path ...string) []object {
	l := o.list(path...)
	out := make([]object, 0, len(l))
	for _, e := range l {
		if m, ok := e.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// strings returns the members of the array at path that are strings.
func (o object) strings(path ...string) []string {
	l := o.list(path...)
	out := make([]string, 0, len(l))
	for _, e := range l {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// stringMap returns the object at path with its string members only (labels, selectors).
func (o object) stringMap(path ...string) map[string]string {
	m := o.obj(path...)
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}

// integer returns the whole number at path and whether there was one, by api.AsInt64's rules.
func (o object) integer(path ...string) (int64, bool) { return api.AsInt64(o.get(path...)) }

// int returns the integer at path, or 0.
func (o object) int(path ...string) int64 {
	n, _ := o.integer(path...)
	return n
}

// intOr returns the integer at path, or def when it is absent: a field the v1 defaulting
// would have set.
func (o object) intOr(def int64, path ...string) int64 {
	if n, ok := o.integer(path...); ok {
		return n
	}
	return def
}

// time returns the timestamp at path (metav1.Time or MicroTime, both RFC 3339) and whether
// there was a valid one.
func (o object) time(path ...string) (time.Time, bool) {
	s := o.str(path...)
	if s == "" {
		return time.Time{}, false
	}
	// time.RFC3339 also accepts the fractional seconds of a MicroTime.
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, false
	}
	return t, true
}

// quantity returns a resource.Quantity member as text: quantities travel as strings, but
// a plain JSON number is accepted too.
func (o object) quantity(path ...string) (string, bool) {
	switch v := o.get(path...).(type) {
	case string:
		return v, true
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64), true
	}
	if n, ok := o.integer(path...); ok {
		return strconv.FormatInt(n, 10), true
	}
	return "", false
}

// metadata accessors of the object being printed.

func (o object) name() string { return o.str("metadata", "name") }

func (o object) deleting() bool { return o.has("metadata", "deletionTimestamp") }

func (o object) labels() map[string]string { return o.stringMap("metadata", "labels") }

func (o object) annotation(key string) (string, bool) {
	s, ok := o.obj("metadata", "annotations")[key].(string)
	return s, ok
}
