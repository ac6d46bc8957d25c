package storage

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// TestCh01_Storage_RecordSizeCountedOnce: with the quota on, a create or an update measures
// the object once, before its resourceVersion is stamped, and the record's size is still
// ObjectSize of what it stores, whatever resourceVersion the object carried (none, a
// string, a number) or no metadata at all; the store's live bytes are their sum.
func TestCh01_Storage_RecordSizeCountedOnce(t *testing.T) {
	tests := []struct {
		name string
		obj  map[string]any
	}{
		{"no resourceVersion", map[string]any{"metadata": map[string]any{"name": "a"}, "data": map[string]any{"k": "v"}}},
		{"a string resourceVersion", map[string]any{"metadata": map[string]any{"name": "a", "resourceVersion": "123456"}}},
		{"a number resourceVersion", map[string]any{"metadata": map[string]any{"name": "a", "resourceVersion": int64(7)}}},
		{"no metadata", map[string]any{"data": map[string]any{"k": "v"}}},
		{"metadata not an object", map[string]any{"metadata": "x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, quota := range []int{0, 1 << 20} {
				s := newTestStore(Config{QuotaBytes: quota})
				c := s.NewCollection("configmaps", "cm")
				created, err := s.Create(context.Background(), c, "ns/a", &api.Unstructured{Object: api.DeepCopyJSONValue(tt.obj).(map[string]any)}, CreateOptions{})
				require.NoError(t, err)
				assert.Equal(t, ObjectSize(created.Obj), created.size, "create, quota %d", quota)
				updated, _, err := s.GuaranteedUpdate(context.Background(), c, "ns/a", nil, func(_ *Tx, cur *Record) (*api.Unstructured, error) {
					next := &api.Unstructured{Object: api.DeepCopyJSONValue(tt.obj).(map[string]any)}
					next.Object["extra"] = "more"
					return next, nil
				}, UpdateOptions{})
				require.NoError(t, err)
				assert.Equal(t, ObjectSize(updated.Obj), updated.size, "update, quota %d", quota)
				assert.Equal(t, updated.size, s.liveBytes, "live bytes, quota %d", quota)
			}
		})
	}
}
