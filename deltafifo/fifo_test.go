package deltafifo

import (
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/store"
)

// ffDrain pops a FIFO while it still stores objects, recording each object and its initial
// flag. It stops on stored objects, not queued keys: a queue holding only keys of deleted
// objects would make Pop wait forever.
func ffDrain(t *testing.T, f *FIFO) (objs []any, initial []bool) {
	t.Helper()
	for len(f.ListKeys()) > 0 {
		obj, err := f.Pop(func(_ any, init bool) error {
			initial = append(initial, init)
			return nil
		})
		require.NoError(t, err)
		objs = append(objs, obj)
	}
	return objs, initial
}

// FF-1: only the latest object is kept, and the key keeps its place.
func TestCh04_FF1_LatestObjectOnly(t *testing.T) {
	f := NewFIFO(store.MetaNamespaceKeyFunc)
	a1, b1, a2 := dfPod("a", "1"), dfPod("b", "1"), dfPod("a", "2")
	require.NoError(t, f.Add(a1))
	require.NoError(t, f.Add(b1))
	require.NoError(t, f.Update(a2))
	objs, _ := ffDrain(t, f)
	require.Empty(t, cmp.Diff([]any{a2, b1}, objs))
}

// FF-2 and the T1 contrast: the FIFO loses the delete, the DeltaFIFO keeps it.
func TestCh04_FF2_FIFOLosesTheDelete(t *testing.T) {
	p := dfPod("p", "1")
	f := NewFIFO(store.MetaNamespaceKeyFunc)
	require.NoError(t, f.Add(p))
	require.NoError(t, f.Delete(p))
	assert.Empty(t, f.ListKeys())
	objs, _ := ffDrain(t, f)
	assert.Empty(t, objs, "the consumer never hears about p")

	df := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	require.NoError(t, df.Add(p))
	require.NoError(t, df.Delete(p))
	require.Empty(t, cmp.Diff([]Deltas{{{Added, p}, {Deleted, p}}}, dfDeltasOnly(dfDrain(t, df))))

	// Re-adding after a delete pops the new object once.
	require.NoError(t, f.Add(p))
	require.NoError(t, f.Delete(p))
	require.NoError(t, f.Add(p))
	objs, _ = ffDrain(t, f)
	require.Empty(t, cmp.Diff([]any{p}, objs))
}

// FF-3: Replace discards and enqueues the list; Resync re-enqueues stored keys; HasSynced
// turns true after the last initial item has been processed.
func TestCh04_FF3_ReplaceResyncHasSynced(t *testing.T) {
	f := NewFIFO(store.MetaNamespaceKeyFunc)
	old := dfPod("old", "1")
	a, b := dfPod("a", "1"), dfPod("b", "1")
	require.NoError(t, f.Replace([]any{a, b}, "1"))
	assert.False(t, f.HasSynced())
	keys := f.ListKeys()
	sort.Strings(keys)
	assert.Equal(t, []string{"a", "b"}, keys)

	var syncedDuring []bool
	for range 2 {
		_, err := f.Pop(func(_ any, initial bool) error {
			assert.True(t, initial)
			syncedDuring = append(syncedDuring, f.hasSyncedLocked())
			return nil
		})
		require.NoError(t, err)
	}
	assert.Equal(t, []bool{false, false}, syncedDuring, "decrement happens after process")
	assert.True(t, f.HasSynced())

	require.NoError(t, f.Add(old))
	require.NoError(t, f.Replace([]any{a}, "2"))
	assert.Equal(t, []string{"a"}, f.ListKeys(), "Replace discards old")
	assert.True(t, f.HasSynced(), "only the first Replace sets the initial count")

	require.NoError(t, f.Resync())
	assert.Len(t, f.queue, 1, "a is already queued")
	objs, initial := ffDrain(t, f)
	require.Empty(t, cmp.Diff([]any{a}, objs))
	assert.Equal(t, []bool{false}, initial)

	require.NoError(t, f.Add(b))
	_, err := f.Pop(func(any, bool) error { return nil })
	require.NoError(t, err)
	f.lock.Lock()
	f.items["b"] = b // stored but not queued, as after a failed process in old client-go
	f.lock.Unlock()
	require.NoError(t, f.Resync())
	objs, _ = ffDrain(t, f)
	require.Empty(t, cmp.Diff([]any{b}, objs))
}

// FIFO Close: drain, then ErrFIFOClosed; writes before a Replace mark it synced.
func TestCh04_FF_CloseAndEarlyWrites(t *testing.T) {
	f := NewFIFO(store.MetaNamespaceKeyFunc)
	assert.False(t, f.HasSynced())
	require.NoError(t, f.Add(dfPod("a", "1")))
	assert.True(t, f.HasSynced())
	f.Close()
	assert.True(t, f.IsClosed())
	_, err := f.Pop(func(any, bool) error { return nil })
	require.NoError(t, err)
	_, err = f.Pop(func(any, bool) error { return nil })
	require.ErrorIs(t, err, ErrFIFOClosed)

	var ke store.KeyError
	require.ErrorAs(t, f.Add(1), &ke)
	require.ErrorAs(t, f.Delete(1), &ke)
	require.ErrorAs(t, f.Replace([]any{1}, "1"), &ke)
}
