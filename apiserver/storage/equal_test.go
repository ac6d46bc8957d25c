package storage

import (
	"math"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCh01_Storage_JSONEqualIsDeepEqual: jsonEqual answers what reflect.DeepEqual answers,
// on the trees stored objects are made of and on what else may reach it.
func TestCh01_Storage_JSONEqualIsDeepEqual(t *testing.T) {
	type named map[string]any
	nan := math.NaN()
	values := []any{
		nil, "", "a", "b", true, false, int64(0), int64(1), float64(0), float64(1), math.Copysign(0, -1), nan, 1, int32(1),
		map[string]any(nil), map[string]any{}, map[string]any{"a": nil}, map[string]any{"b": nil},
		map[string]any{"a": "x"}, map[string]any{"a": int64(1)}, map[string]any{"a": float64(1)},
		map[string]any{"a": map[string]any{"b": []any{int64(1), "c"}}}, map[string]any{"a": map[string]any{"b": []any{int64(1), "d"}}},
		map[string]any{"a": map[string]any(nil)}, map[string]any{"a": map[string]any{}},
		[]any(nil), []any{}, []any{nil}, []any{"a"}, []any{"a", "b"}, []any{[]any{}}, []any{[]any(nil)},
		[]string{"a"}, map[string]string{"a": "x"}, named{"a": "x"}, []any{nan}, map[string]any{"n": nan},
	}
	for _, a := range values {
		for _, b := range values {
			assert.Equal(t, reflect.DeepEqual(a, b), jsonEqual(a, b), "%#v and %#v", a, b)
			if am, ok := a.(map[string]any); ok {
				if bm, ok := b.(map[string]any); ok {
					assert.Equal(t, reflect.DeepEqual(am, bm), mapEqual(am, bm), "%#v and %#v", a, b)
				}
			}
		}
	}
	same := map[string]any{"n": nan}
	assert.Equal(t, reflect.DeepEqual(same, same), mapEqual(same, same), "one map holding NaN, with itself")
	list := []any{nan}
	assert.Equal(t, reflect.DeepEqual(list, list), jsonEqual(list, list), "one slice holding NaN, with itself")
}
