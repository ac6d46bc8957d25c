package fieldpath

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
)

// The JSON values path elements carry. Numbers may be int64 (an object decoded with integers
// kept) or float64 (FieldsV1, where every number decodes as one); both compare by value.

func asFloat(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case float32:
		return float64(n), true
	}
	return 0, false
}

func asInt(v any) (int64, bool) {
	switch n := v.(type) {
	case int64:
		return n, true
	case int:
		return int64(n), true
	case int32:
		return int64(n), true
	case json.Number:
		if i, err := n.Int64(); err == nil {
			return i, true
		}
	}
	return 0, false
}

func isFloatValue(v any) bool {
	if _, ok := asFloat(v); ok {
		return true
	}
	if n, ok := v.(json.Number); ok {
		_, err := n.Int64()
		return err != nil
	}
	return false
}

func floatOf(v any) float64 {
	if f, ok := asFloat(v); ok {
		return f
	}
	if n, ok := v.(json.Number); ok {
		f, _ := n.Float64()
		return f
	}
	i, _ := asInt(v)
	return float64(i)
}

// CompareValues mirrors value.Compare in structured-merge-diff: floats, then ints, strings,
// bools, lists, maps and null, numbers of either kind comparing by value.
func CompareValues(l, r any) int {
	lf, rf := isFloatValue(l), isFloatValue(r)
	_, li := asInt(l)
	_, ri := asInt(r)
	li = li && !lf
	ri = ri && !rf
	switch {
	case lf:
		if !rf && !ri {
			return -1
		}
		return cmp3(floatOf(l), floatOf(r))
	case rf:
		if li {
			return cmp3(floatOf(l), floatOf(r))
		}
		return 1
	}
	if li {
		if !ri {
			return -1
		}
		a, _ := asInt(l)
		b, _ := asInt(r)
		return cmp3(a, b)
	} else if ri {
		return 1
	}
	ls, lok := l.(string)
	rs, rok := r.(string)
	if lok {
		if !rok {
			return -1
		}
		return strings.Compare(ls, rs)
	} else if rok {
		return 1
	}
	lb, lok := l.(bool)
	rb, rok := r.(bool)
	if lok {
		if !rok {
			return -1
		}
		switch {
		case lb == rb:
			return 0
		case !lb:
			return -1
		}
		return 1
	} else if rok {
		return 1
	}
	ll, lok := l.([]any)
	rl, rok := r.([]any)
	if lok {
		if !rok {
			return -1
		}
		for i := 0; ; i++ {
			switch {
			case i >= len(ll) && i >= len(rl):
				return 0
			case i >= len(ll):
				return -1
			case i >= len(rl):
				return 1
			}
			if c := CompareValues(ll[i], rl[i]); c != 0 {
				return c
			}
		}
	} else if rok {
		return 1
	}
	lm, lok := l.(map[string]any)
	rm, rok := r.(map[string]any)
	if lok {
		if !rok {
			return -1
		}
		return compareMaps(lm, rm)
	} else if rok {
		return 1
	}
	return 0 // both null (or both of a type JSON has not)
}

// compareMaps walks the union of keys in lexical order as MapCompareUsing does.
func compareMaps(l, r map[string]any) int {
	if len(l) == 0 && len(r) == 0 {
		return 0
	}
	keys := make([]string, 0, len(l)+len(r))
	for k := range l {
		keys = append(keys, k)
	}
	for k := range r {
		if _, ok := l[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for i, k := range keys {
		lv, lok := l[k]
		rv, rok := r[k]
		var c int
		switch {
		case i == len(l):
			c = -1
		case i == len(r):
			c = 1
		case !lok:
			c = 1
		case !rok:
			c = -1
		default:
			c = CompareValues(lv, rv)
		}
		if c != 0 {
			return c
		}
	}
	return 0
}

func cmp3[T int64 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// EqualValues mirrors value.Equals: numbers equal by value across int and float.
func EqualValues(l, r any) bool {
	if isFloatValue(l) || isFloatValue(r) {
		_, lnum := asInt(l)
		_, rnum := asInt(r)
		lnum = lnum || isFloatValue(l)
		rnum = rnum || isFloatValue(r)
		return lnum && rnum && floatOf(l) == floatOf(r)
	}
	if a, ok := asInt(l); ok {
		b, ok := asInt(r)
		return ok && a == b
	} else if _, ok := asInt(r); ok {
		return false
	}
	switch lv := l.(type) {
	case string:
		rv, ok := r.(string)
		return ok && lv == rv
	case bool:
		rv, ok := r.(bool)
		return ok && lv == rv
	case []any:
		rv, ok := r.([]any)
		if !ok || len(lv) != len(rv) {
			return false
		}
		for i := range lv {
			if !EqualValues(lv[i], rv[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		rv, ok := r.(map[string]any)
		if !ok || len(lv) != len(rv) {
			return false
		}
		for k, a := range lv {
			b, ok := rv[k]
			if !ok || !EqualValues(a, b) {
				return false
			}
		}
		return true
	case nil:
		return r == nil
	}
	return false
}

// valueString mirrors value.ToString: how a value prints inside a path.
func valueString(v any) string {
	if v == nil {
		return "null"
	}
	if isFloatValue(v) {
		return fmt.Sprintf("%v", floatOf(v))
	}
	if i, ok := asInt(v); ok {
		return fmt.Sprintf("%v", i)
	}
	switch t := v.(type) {
	case string:
		return fmt.Sprintf("%q", t)
	case bool:
		return fmt.Sprintf("%v", t)
	case []any:
		parts := make([]string, len(t))
		for i, e := range t {
			parts[i] = valueString(e)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var b strings.Builder
		for _, k := range keys {
			fmt.Fprintf(&b, "%v=%v", k, valueString(t[k]))
		}
		return b.String()
	}
	return "{{undefined}}"
}

// marshalValue writes a value as encoding/json does (upstream uses json-iterator in its
// standard-library-compatible mode: same bytes). NaN and infinities cannot occur in JSON.
func marshalValue(v any) ([]byte, error) {
	if f, ok := asFloat(v); ok && (math.IsNaN(f) || math.IsInf(f, 0)) {
		return nil, fmt.Errorf("unsupported value: %v", f)
	}
	return json.Marshal(v)
}
