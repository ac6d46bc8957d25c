package ch04_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/deltafifo"
)

// TestCh04_Erratum_DeleteIsADelta pins the correction to 《client-go学习》 (section Reflector, its
// DeltaFIFO paragraph), which says a delete drops the key from items but not from queue, and
// that resync later repairs the mismatch. A Delete appends a Deleted delta: the key stays
// queued with its history, queue and items hold the same keys after every call (DF-1, DF-4),
// and the consumer sees the deletion. Resync has nothing to repair.
func TestCh04_Erratum_DeleteIsADelta(t *testing.T) {
	fifo := deltafifo.NewDeltaFIFOWithOptions(deltafifo.DeltaFIFOOptions{KeyFunction: podKey})
	require.NoError(t, fifo.Add(pod{Name: "pod-1", Value: 1}))
	require.NoError(t, fifo.Add(pod{Name: "pod-2", Value: 2}))
	require.NoError(t, fifo.Delete(pod{Name: "pod-1", Value: 1}))

	assert.Equal(t, []string{"pod-1", "pod-2"}, fifo.ListKeys(), "the deleted key keeps its place in the queue")

	var got []string
	for range 2 {
		_, err := fifo.Pop(func(obj any, _ bool) error {
			for _, d := range obj.(deltafifo.Deltas) {
				got = append(got, string(d.Type)+" "+d.Object.(pod).Name)
			}
			return nil
		})
		require.NoError(t, err)
	}
	assert.Equal(t, []string{"Added pod-1", "Deleted pod-1", "Added pod-2"}, got)
	assert.Empty(t, fifo.ListKeys())
}
