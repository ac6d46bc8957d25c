package storage

import "reflect"

// jsonEqual is reflect.DeepEqual for the trees objects are stored as (maps of string to
// any, slices of any, strings, numbers, booleans, nil), without reflection on them: an
// update compares the whole next state with the current one, and reflect.DeepEqual took
// a fifth of a server's start-up creating its bootstrap objects. It answers exactly what
// reflect.DeepEqual answers: a nil map or slice differs from an empty one, values of
// different dynamic types differ, NaN differs from itself (but a map or slice
// equals itself whatever it holds); any other type is left to
// reflect.DeepEqual.
func jsonEqual(a, b any) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case map[string]any:
		b, ok := b.(map[string]any)
		return ok && mapEqual(a, b)
	case []any:
		b, ok := b.([]any)
		if !ok || (a == nil) != (b == nil) || len(a) != len(b) {
			return false
		}
		if len(a) > 0 && &a[0] == &b[0] {
			return true // one slice, as reflect.DeepEqual takes it (NaN and all)
		}
		for i := range a {
			if !jsonEqual(a[i], b[i]) {
				return false
			}
		}
		return true
	case string:
		b, ok := b.(string)
		return ok && a == b
	case bool:
		b, ok := b.(bool)
		return ok && a == b
	case int64:
		b, ok := b.(int64)
		return ok && a == b
	case float64:
		b, ok := b.(float64)
		return ok && a == b
	}
	return reflect.DeepEqual(a, b)
}

// mapEqual is jsonEqual for two maps.
func mapEqual(a, b map[string]any) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	if reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer() {
		return true // one map, as reflect.DeepEqual takes it
	}
	for k, av := range a {
		bv, ok := b[k]
		if !ok || !jsonEqual(av, bv) {
			return false
		}
	}
	return true
}
