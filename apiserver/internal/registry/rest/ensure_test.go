package rest

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCh01_Strategy_EnsureMember checks that a missing member is written out as its zero,
// an existing one (null included) stays, and a path through a non-object is left alone.
func TestCh01_Strategy_EnsureMember(t *testing.T) {
	obj := map[string]any{"value": int64(7), "spec": map[string]any{"limits": nil}, "odd": "text"}
	EnsureMember(obj, int64(0), "value")
	EnsureMember(obj, int64(0), "revision")
	EnsureMember(obj, []any{}, "spec", "limits")
	EnsureMember(obj, map[string]any{}, "status", "x")
	EnsureMember(obj, int64(1), "odd", "y")
	assert.Equal(t, map[string]any{
		"value": int64(7), "revision": int64(0), "spec": map[string]any{"limits": nil},
		"status": map[string]any{"x": map[string]any{}}, "odd": "text",
	}, obj)
}
