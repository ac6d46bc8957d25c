package admission

// Small readers of generic JSON objects, as the plugins see pods and their specs.

// child returns m[key] as an object, or nil.
func child(m map[string]any, key string) map[string]any {
	if m == nil {
		return nil
	}
	c, _ := m[key].(map[string]any)
	return c
}

// ensureChild returns m[key] as an object, made when missing.
func ensureChild(m map[string]any, key string) map[string]any {
	if c := child(m, key); c != nil {
		return c
	}
	c := map[string]any{}
	m[key] = c
	return c
}

// str returns m[key] as a string, or "".
func str(m map[string]any, key string) string {
	if m == nil {
		return ""
	}
	s, _ := m[key].(string)
	return s
}

// items returns the objects of the list m[key].
func items(m map[string]any, key string) []map[string]any {
	if m == nil {
		return nil
	}
	l, _ := m[key].([]any)
	out := make([]map[string]any, 0, len(l))
	for _, x := range l {
		if o, ok := x.(map[string]any); ok {
			out = append(out, o)
		}
	}
	return out
}

// appendItem appends v to the list m[key].
func appendItem(m map[string]any, key string, v any) {
	l, _ := m[key].([]any)
	m[key] = append(l, v)
}

// boolPtr returns m[key] as a bool and whether it is set.
func boolPtr(m map[string]any, key string) (bool, bool) {
	if m == nil {
		return false, false
	}
	b, ok := m[key].(bool)
	return b, ok
}

// podSpec returns a pod's spec, made when missing.
func podSpec(a *Attributes) map[string]any { return ensureChild(a.Object.Object, "spec") }

// containerKinds are the keys of a pod spec's container lists, in the order upstream visits
// them.
var containerKinds = []string{"initContainers", "containers", "ephemeralContainers"}
