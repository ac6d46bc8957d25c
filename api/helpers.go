package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
)

// Helpers for the map[string]any trees inside Unstructured. A path is a list of object keys,
// e.g. ("metadata", "labels"). Reads never panic on an unexpected shape: they report "not
// found" or an error instead.

// nestedField returns the value at path, and whether it was there. It fails only when a
// member on the way is present but not an object.
func nestedField(obj map[string]any, fields ...string) (any, bool, error) {
	var val any = obj
	for i, field := range fields {
		m, ok := val.(map[string]any)
		if !ok {
			if val == nil {
				return nil, false, nil
			}
			return nil, false, fmt.Errorf("%s is %T, not an object", strings.Join(fields[:i], "."), val)
		}
		if val, ok = m[field]; !ok {
			return nil, false, nil
		}
	}
	return val, true, nil
}

// NestedString mirrors unstructured.NestedString: the string at path, whether it was found,
// and an error if the value there is not a string.
func NestedString(obj map[string]any, fields ...string) (string, bool, error) {
	val, found, err := nestedField(obj, fields...)
	if !found || err != nil {
		return "", found, err
	}
	s, ok := val.(string)
	if !ok {
		return "", false, fmt.Errorf("%s is %T, not a string", strings.Join(fields, "."), val)
	}
	return s, true, nil
}

// NestedMap mirrors unstructured.NestedMap: a deep copy of the object at path, so the caller
// may change it freely.
func NestedMap(obj map[string]any, fields ...string) (map[string]any, bool, error) {
	val, found, err := nestedField(obj, fields...)
	if !found || err != nil {
		return nil, found, err
	}
	m, ok := val.(map[string]any)
	if !ok {
		return nil, false, fmt.Errorf("%s is %T, not an object", strings.Join(fields, "."), val)
	}
	return DeepCopyJSONValue(m).(map[string]any), true, nil
}

// SetNestedField mirrors unstructured.SetNestedField: it stores a deep copy of value at path,
// creating the objects on the way. A member on the way that is null counts as absent; one
// that holds anything else but an object is an error.
func SetNestedField(obj map[string]any, value any, fields ...string) error {
	if obj == nil || len(fields) == 0 {
		return errors.New("SetNestedField needs a non-nil map and a non-empty path")
	}
	m := obj
	for i, field := range fields[:len(fields)-1] {
		switch next := m[field].(type) {
		case map[string]any:
			m = next
		case nil:
			created := map[string]any{}
			m[field] = created
			m = created
		default:
			return fmt.Errorf("%s is %T, not an object", strings.Join(fields[:i+1], "."), next)
		}
	}
	m[fields[len(fields)-1]] = DeepCopyJSONValue(value)
	return nil
}

// RemoveNestedField mirrors unstructured.RemoveNestedField: it deletes the member at path,
// if it exists.
func RemoveNestedField(obj map[string]any, fields ...string) {
	if len(fields) == 0 {
		return
	}
	parent, _, _ := nestedField(obj, fields[:len(fields)-1]...)
	if m, ok := parent.(map[string]any); ok {
		delete(m, fields[len(fields)-1])
	}
}

// nestedInt64 reads an integer (see AsInt64).
func nestedInt64(obj map[string]any, fields ...string) (int64, bool) {
	val, found, _ := nestedField(obj, fields...)
	if !found {
		return 0, false
	}
	return AsInt64(val)
}

// AsInt64 returns the whole number a JSON value holds, and whether it holds one. JSON numbers
// arrive as int64 from our decoder but as float64 from a plain json.Unmarshal (or as
// json.Number with UseNumber), and a tree built in Go may hold an int or int32; all are
// accepted. A float64 counts only when it is whole and inside int64's range, a json.Number
// only when its text is an integer; any other value, null included, is not a number. It is
// ours: unstructured.NestedInt64 accepts an int64 alone.
func AsInt64(v any) (int64, bool) {
	switch n := v.(type) {
	case int64:
		return n, true
	case int:
		return int64(n), true
	case int32:
		return int64(n), true
	case float64:
		// Only whole numbers inside int64's range are integers: float64(math.MaxInt64) is
		// 2^63, just outside it, and NaN fails the first comparison.
		if n == math.Trunc(n) && n >= math.MinInt64 && n < math.MaxInt64 {
			return int64(n), true
		}
	case json.Number:
		if i, err := n.Int64(); err == nil {
			return i, true
		}
	}
	return 0, false
}

// DeepCopyJSONValue mirrors runtime.DeepCopyJSONValue in apimachinery. It copies a JSON value tree: maps and slices get new storage, scalars are
// immutable and shared. []string and map[string]string (handy for callers of SetNestedField)
// are converted to the []any and map[string]any a JSON decoder would produce. Other types
// are returned unchanged, where upstream would panic.
func DeepCopyJSONValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		if v == nil {
			return v
		}
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = DeepCopyJSONValue(e)
		}
		return out
	case []any:
		if v == nil {
			return v
		}
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = DeepCopyJSONValue(e)
		}
		return out
	case []string:
		if v == nil {
			return []any(nil)
		}
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = e
		}
		return out
	case map[string]string:
		if v == nil {
			return map[string]any(nil)
		}
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = e
		}
		return out
	default:
		return v
	}
}
