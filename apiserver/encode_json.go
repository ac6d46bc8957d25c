package apiserver

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/informer-lab/informer-lab/internal/jsonstr"
)

// A stored object is a tree of map[string]any, []any, string, int64, bool and nil. Its JSON is
// made once per version, but that once is on the path of every write's watchers and every
// first list; encoding/json's reflection over interface values costs several times what a
// direct walk does. appendJSON writes exactly what json.Marshal writes for such a tree (keys
// sorted, <, > and & escaped as \u003c, \u003e and \u0026), and hands anything else to it.

// appendJSON appends the JSON of v to b.
func appendJSON(b []byte, v any) ([]byte, error) {
	switch t := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return jsonstr.Append(b, t), nil
	case int64:
		return strconv.AppendInt(b, t, 10), nil
	case bool:
		return strconv.AppendBool(b, t), nil
	case map[string]any:
		if t == nil {
			return append(b, "null"...), nil
		}
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonstr.Append(b, k)
			b = append(b, ':')
			var err error
			if b, err = appendJSON(b, t[k]); err != nil {
				return b, err
			}
		}
		return append(b, '}'), nil
	case []any:
		if t == nil {
			return append(b, "null"...), nil
		}
		b = append(b, '[')
		for i, e := range t {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendJSON(b, e); err != nil {
				return b, err
			}
		}
		return append(b, ']'), nil
	}
	if raw, ok := v.(json.RawMessage); ok { // managedFields' fieldsV1
		if out, ok := jsonstr.AppendRaw(b, raw); ok {
			return out, nil
		}
	}
	data, err := json.Marshal(v) // float64, json.Number, typed values: rare in a stored tree
	return append(b, data...), err
}
