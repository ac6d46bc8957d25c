package defaulting

// Helpers over the generic JSON tree. A typed decoder turns a missing member and JSON null
// into the same Go zero value, so every "is it set?" question below treats the two alike.
// A member of the wrong JSON type is left alone: the real server would have refused the body
// at decode time, and leaving it keeps Default total and idempotent on any input.

// child returns m[key] when it is an object, else nil.
func child(m map[string]any, key string) map[string]any {
	c, _ := m[key].(map[string]any)
	return c
}

// path walks nested objects; nil as soon as a step is missing or not an object.
func path(m map[string]any, keys ...string) map[string]any {
	for _, k := range keys {
		if m == nil {
			return nil
		}
		m = child(m, k)
	}
	return m
}

// ensure returns m[key] as an object, creating {} when the member is missing or null, as
// defaulting a nil pointer to a struct does. A member of another type gives nil.
func ensure(m map[string]any, key string) map[string]any {
	switch v := m[key].(type) {
	case map[string]any:
		return v
	case nil:
		c := map[string]any{}
		m[key] = c
		return c
	}
	return nil
}

// each calls f for every object element of the list m[key].
func each(m map[string]any, key string, f func(map[string]any)) {
	l, _ := m[key].([]any)
	for _, e := range l {
		if o, ok := e.(map[string]any); ok {
			f(o)
		}
	}
}

// str returns m[key] as a string ("" when missing or not a string).
func str(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return s
}

// isEmptyList reports whether m[key] is missing, null or an empty list.
func isEmptyList(m map[string]any, key string) bool {
	l, _ := m[key].([]any)
	return len(l) == 0
}

// isEmptyObject reports whether m[key] is missing, null or an empty object.
func isEmptyObject(m map[string]any, key string) bool {
	o, _ := m[key].(map[string]any)
	return len(o) == 0
}

// unsetString reports whether a string field is missing, null or "".
func unsetString(m map[string]any, key string) bool {
	s, isString := m[key].(string)
	return m[key] == nil || isString && s == ""
}

// setString defaults a string field: typed, "" and absent are the same value.
func setString(m map[string]any, key, val string) {
	if unsetString(m, key) {
		m[key] = val
	}
}

// setPtr defaults a pointer field: only absent or null counts as unset, so an explicit
// 0, false or "" stays.
func setPtr(m map[string]any, key string, val any) {
	if m[key] == nil {
		m[key] = val
	}
}

// setInt defaults a non-pointer integer field, where a typed 0 is unset.
func setInt(m map[string]any, key string, val int64) {
	if isZeroNumber(m[key]) {
		m[key] = val
	}
}

// isZeroNumber reports whether v is null or the number 0 in any of the forms a decoder
// yields.
func isZeroNumber(v any) bool {
	switch n := v.(type) {
	case nil:
		return true
	case int64:
		return n == 0
	case float64:
		return n == 0
	case int:
		return n == 0
	case int32:
		return n == 0
	}
	return false
}
