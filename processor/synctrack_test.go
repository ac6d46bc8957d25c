package processor

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// PL-7: synced = upstream synced && counter == 0, latched, exposed as a channel; a negative
// counter panics.
func TestCh07_PL7_SingleFileTracker(t *testing.T) {
	tr := newSingleFileTracker("informer + event handler h")
	assert.Equal(t, "informer + event handler h", tr.Name())

	tr.Start()
	tr.Start()
	tr.UpstreamHasSynced()
	assert.False(t, tr.HasSynced(), "two initial adds still pending")
	tr.Finished()
	assert.False(t, tr.HasSynced(), "one initial add still pending")
	tr.Finished()
	assert.True(t, tr.HasSynced())
	assert.True(t, IsDone(tr), "Done is closed")

	tr.Start() // a later initial add cannot unsync: the latch holds
	assert.True(t, tr.HasSynced())

	fresh := newSingleFileTracker("x")
	fresh.Start()
	fresh.Finished()
	assert.False(t, fresh.HasSynced(), "no upstream sync yet")
	fresh.UpstreamHasSynced()
	assert.True(t, fresh.HasSynced(), "upstream sync with nothing pending")

	assert.PanicsWithValue(t, "processor: sync tracker counter went negative; HasSynced would be wrong",
		newSingleFileTracker("y").Finished)
}
