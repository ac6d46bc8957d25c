package typed

import "encoding/json"

// JSONTree mirrors runtime.DeepCopyJSONValue's view of what JSON holds: it returns v with only the types the JSON decoder produces (map[string]any, []any,
// string, bool, int64, float64, nil): objects built in Go may hold []string,
// map[string]string or other integer types (Unstructured.SetFinalizers keeps a []string).
// It returns v itself when there is nothing to change, else a copy of what differs.
func JSONTree(v any) any {
	out, _ := jsonTree(v)
	return out
}

func jsonTree(v any) (any, bool) {
	switch t := v.(type) {
	case nil, string, bool, int64, float64:
		return v, false
	case map[string]any:
		var out map[string]any
		for k, child := range t {
			c, changed := jsonTree(child)
			if !changed {
				continue
			}
			if out == nil {
				out = make(map[string]any, len(t))
				for k2, v2 := range t {
					out[k2] = v2
				}
			}
			out[k] = c
		}
		if out == nil {
			return v, false
		}
		return out, true
	case []any:
		var out []any
		for i, child := range t {
			c, changed := jsonTree(child)
			if !changed {
				continue
			}
			if out == nil {
				out = append([]any(nil), t...)
			}
			out[i] = c
		}
		if out == nil {
			return v, false
		}
		return out, true
	case []string:
		out := make([]any, len(t))
		for i, s := range t {
			out[i] = s
		}
		return out, true
	case map[string]string:
		out := make(map[string]any, len(t))
		for k, s := range t {
			out[k] = s
		}
		return out, true
	case int:
		return int64(t), true
	case int32:
		return int64(t), true
	case int16:
		return int64(t), true
	case int8:
		return int64(t), true
	case uint:
		return int64(t), true
	case uint32:
		return int64(t), true
	case uint16:
		return int64(t), true
	case uint8:
		return int64(t), true
	case uint64:
		return int64(t), true
	case float32:
		return float64(t), true
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i, true
		}
		f, _ := t.Float64()
		return f, true
	}
	return v, false
}
