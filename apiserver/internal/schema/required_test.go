package schema

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// TestCh01_SchemaMissingRequiredMatchesValidate: MissingRequired lists what Validate lists
// as required and leaves the tree as Validate leaves it, for objects with nothing to do
// (then it allocates nothing), and for objects with unknown members, nulls (members, map
// values, array items), required members missing (under status too), type errors, and
// values no JSON decoder makes.
func TestCh01_SchemaMissingRequiredMatchesValidate(t *testing.T) {
	pod, ok := ForKind(podGVK)
	require.True(t, ok)
	cm, ok := ForKind(api.GroupVersionKind{Version: "v1", Kind: "ConfigMap"})
	require.True(t, ok)
	widget, _ := parseTestDocument(t).ForKind(widgetGVK)
	tests := []struct {
		name  string
		s     *Schema
		obj   string
		quiet bool // nothing to prune, replace or report
	}{
		{"configmap", cm, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","labels":{"x":"y"},"managedFields":[{"manager":"m","fieldsV1":{"f:data":{}}}]},"data":{"k":"v"}}`, true},
		{"pod", pod, `{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i","ports":[{"containerPort":80}],"resources":{"limits":{"cpu":"1"}}}]},"status":{"phase":"Pending"}}`, true},
		{"pod required under status is not reported", pod, `{"spec":{"containers":[{"name":"c"}]},"status":{"containerStatuses":[{"name":"c"}]}}`, true},
		{"pod missing a container name", pod, `{"spec":{"containers":[{"image":"i"}]}}`, false},
		{"pod without spec", pod, `{"metadata":{"name":"p"}}`, true},
		{"pod unknown member", pod, `{"spec":{"containers":[{"name":"c","bogus":1}]},"zz":true}`, false},
		{"pod null member", pod, `{"metadata":{"labels":null},"spec":{"containers":[{"name":"c"}]}}`, false},
		{"pod null map value", pod, `{"metadata":{"labels":{"a":null}},"spec":{"containers":[{"name":"c"}]}}`, false},
		{"pod null array item", pod, `{"spec":{"containers":[null,{"name":"c"}]}}`, false},
		{"pod null array item under status", pod, `{"spec":{"containers":[{"name":"c"}]},"status":{"conditions":[null]}}`, false},
		{"pod type error", pod, `{"spec":{"containers":"c"}}`, true},
		{"pod type error hiding a null (neither walk looks below it)", pod, `{"spec":{"containers":[{"name":"c","ports":{"x":null}}]}}`, true},
		{"pod null below a map where a list belongs", pod, `{"spec":{"containers":{"x":[null]}}}`, true},
		{"widget valid", widget, `{"kind":"Widget","spec":{"size":"1Gi","port":80,"tags":{"a":"b"},"raw":{"x":[1,null]},"ratio":0.5,"blob":"AQI=","children":[{"size":2}]}}`, true},
		{"widget required", widget, `{"spec":{"children":[{"size":"1"},{}]}}`, false},
		{"widget required top", widget, `{}`, false},
		{"widget preserved", widget, `{"spec":{"size":"1"},"extra":{"n":1,"other":{"deep":null}}}`, true},
		{"widget unknown and required", widget, `{"spec":{"zz":1,"children":[{"q":true}]},"top":1}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var a, b, c map[string]any
			require.NoError(t, json.Unmarshal([]byte(tt.obj), &a))
			require.NoError(t, json.Unmarshal([]byte(tt.obj), &b))
			require.NoError(t, json.Unmarshal([]byte(tt.obj), &c))
			assert.Equal(t, tt.quiet, tt.s.quietObject(c, true, false), "nothing to do")
			assert.Equal(t, tt.s.Validate(b).Required, tt.s.MissingRequired(a))
			assert.Empty(t, cmp.Diff(b, a), "the tree as Validate leaves it")
			if tt.quiet {
				assert.Zero(t, testing.AllocsPerRun(10, func() { tt.s.MissingRequired(a) }))
			}
		})
	}
	t.Run("values no JSON decoder makes", func(t *testing.T) {
		// A managedFields entry as the field manager writes it: fieldsV1 is raw JSON.
		entry := map[string]any{"manager": "m", "operation": "Update", "fieldsType": "FieldsV1", "fieldsV1": json.RawMessage(`{"f:data":{}}`)}
		obj := map[string]any{"metadata": map[string]any{"name": "a", "managedFields": []any{entry}}, "data": map[string]any{"k": "v"}}
		assert.True(t, cm.quietObject(obj, true, false))
		assert.Empty(t, cm.MissingRequired(obj))
		assert.Zero(t, testing.AllocsPerRun(10, func() { cm.MissingRequired(obj) }))
		// Where an object belongs, Validate cannot read one: it is left to Validate.
		odd := map[string]any{"metadata": map[string]any{"name": "a", "labels": map[string]string{"a": "b"}}}
		assert.False(t, cm.quietObject(odd, true, false))
		assert.Panics(t, func() { cm.MissingRequired(odd) }, "as Validate does")
		assert.Panics(t, func() { cm.Validate(odd) })
	})
}
