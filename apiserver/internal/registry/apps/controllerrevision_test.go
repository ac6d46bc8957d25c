package apps

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/informer-lab/informer-lab/api"
)

// TestCh01_Strategy_ControllerRevisionData checks ValidateControllerRevisionCreate and
// Update: data is required and must be an object, the revision not negative, and the data
// may not change while the revision may.
func TestCh01_Strategy_ControllerRevisionData(t *testing.T) {
	k := ControllerRevisions()
	assert.Equal(t, "apps", k.Group)
	s := k.Strategy
	assert.False(t, s.HasStatus())
	assert.False(t, s.HasGeneration())
	rev := func(body map[string]any) *api.Unstructured {
		obj := map[string]any{"apiVersion": "apps/v1", "kind": "ControllerRevision", "metadata": map[string]any{"name": "r"}}
		for k, v := range body {
			obj[k] = v
		}
		return &api.Unstructured{Object: obj}
	}
	messages := func(causes []api.StatusCause) []string {
		var out []string
		for _, c := range causes {
			out = append(out, c.Field+": "+c.Message)
		}
		return out
	}
	assert.Empty(t, s.Validate(rev(map[string]any{"revision": int64(1), "data": map[string]any{"a": int64(1)}})))
	assert.Equal(t, []string{"revision: Invalid value: -1: must be greater than or equal to 0", "data: Required value: data is mandatory"},
		messages(s.Validate(rev(map[string]any{"revision": int64(-1)}))))
	assert.Equal(t, []string{"data: Required value: data must be a valid JSON object"},
		messages(s.Validate(rev(map[string]any{"revision": int64(1), "data": []any{int64(1)}}))))

	old := rev(map[string]any{"revision": int64(1), "data": map[string]any{"spec": map[string]any{"a": int64(1)}}})
	assert.Empty(t, s.ValidateUpdate(rev(map[string]any{"revision": int64(2), "data": map[string]any{"spec": map[string]any{"a": int64(1)}}}), old))
	assert.Equal(t, []string{`data: Invalid value: {"spec":{"a":2}}: field is immutable`},
		messages(s.ValidateUpdate(rev(map[string]any{"revision": int64(1), "data": map[string]any{"spec": map[string]any{"a": int64(2)}}}), old)))
}
