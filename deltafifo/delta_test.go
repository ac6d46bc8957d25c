package deltafifo

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// K-4: Oldest and Newest point at the first and last delta, or are nil for no deltas.
func TestCh04_K4_OldestNewest(t *testing.T) {
	var empty Deltas
	assert.Nil(t, empty.Oldest())
	assert.Nil(t, empty.Newest())

	d := Deltas{{Type: Added, Object: 1}, {Type: Updated, Object: 2}, {Type: Deleted, Object: 3}}
	assert.Equal(t, Delta{Type: Added, Object: 1}, *d.Oldest())
	assert.Equal(t, Delta{Type: Deleted, Object: 3}, *d.Newest())
	d.Newest().Object = 4 // pointers into the slice, as client-go
	assert.Equal(t, 4, d[2].Object)
}

func TestCh04_DeltaTypeStrings(t *testing.T) {
	for _, dt := range []DeltaType{Added, Updated, Deleted, Replaced, Sync, ReplacedAll, SyncAll, Bookmark} {
		assert.NotEmpty(t, string(dt))
	}
	assert.Equal(t, "Replaced", string(Replaced))
}
