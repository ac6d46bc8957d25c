package store

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// KeyAndResourceVersion: an object's key and RV; a tombstone's Key and the RV of the state it
// carries; nothing for what has no metadata.
func TestCh03_KeyAndResourceVersion(t *testing.T) {
	tests := []struct {
		name          string
		obj           any
		key, rv       string
		wantTombstone bool
	}{
		{name: "object", obj: pod("ns", "a", "7", nil), key: "ns/a", rv: "7"},
		{name: "cluster-scoped object", obj: pod("", "n1", "3", nil), key: "n1", rv: "3"},
		{name: "tombstone", obj: DeletedFinalStateUnknown{Key: "ns/a", Obj: pod("ns", "a", "9", nil)}, key: "ns/a", rv: "9", wantTombstone: true},
		{name: "tombstone without a state", obj: DeletedFinalStateUnknown{Key: "ns/gone"}, key: "ns/gone", wantTombstone: true},
		{name: "tombstone whose state has no metadata", obj: DeletedFinalStateUnknown{Key: "ns/x", Obj: 42}, key: "ns/x", wantTombstone: true},
		{name: "no metadata", obj: "not an object"},
		{name: "nil", obj: nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			key, rv, tomb := KeyAndResourceVersion(tc.obj)
			assert.Equal(t, tc.key, key)
			assert.Equal(t, tc.rv, rv)
			assert.Equal(t, tc.wantTombstone, tomb)
		})
	}
}
