package protobuf

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/informer-lab/informer-lab/internal/jsonstr"
)

// appendJSON writes v as json.Marshal would: object keys sorted, HTML characters escaped.
// It covers what embedded documents (FieldsV1, RawExtension) hold, objects, arrays,
// strings, integers, booleans and null, and hands anything else to encoding/json. It
// exists because json.Marshal's reflection was most of the cost of encoding managedFields.
func appendJSON(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return jsonstr.Append(b, x), nil
	case bool:
		return strconv.AppendBool(b, x), nil
	case int64:
		return strconv.AppendInt(b, x, 10), nil
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		var err error
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonstr.Append(b, k)
			b = append(b, ':')
			if b, err = appendJSON(b, x[k]); err != nil {
				return b, err
			}
		}
		return append(b, '}'), nil
	case []any:
		b = append(b, '[')
		var err error
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = appendJSON(b, e); err != nil {
				return b, err
			}
		}
		return append(b, ']'), nil
	}
	if raw, ok := v.(json.RawMessage); ok {
		if out, ok := jsonstr.AppendRaw(b, raw); ok {
			return out, nil
		}
	}
	j, err := json.Marshal(v)
	return append(b, j...), err
}
