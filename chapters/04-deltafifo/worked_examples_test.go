package ch04_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/deltafifo"
	"github.com/informer-lab/informer-lab/reflector"
	"github.com/informer-lab/informer-lab/store"
)

// Both queues are what a Reflector writes into (its ReflectorStore). The reflector also reuses
// the queue's transformer for its watch-list temporary store, and atomic RealFIFO turns
// BOOKMARK events into Bookmark deltas. These assertions fail to compile if a method goes.
var (
	_ reflector.TransformingStore      = (*deltafifo.DeltaFIFO)(nil)
	_ reflector.TransformingStore      = (*deltafifo.RealFIFO)(nil)
	_ reflector.ReflectorBookmarkStore = (*deltafifo.RealFIFO)(nil)
)

// pop is one Pop as the worked examples describe it: the deltas, the isInInitialList flag
// process received, and HasSynced just before and just after the Pop.
type pop struct {
	Deltas       string
	Initial      bool
	SyncedBefore bool
	SyncedAfter  bool
}

// popAll pops while keys are queued (so it never blocks) and records every Pop.
func popAll(t *testing.T, f *deltafifo.DeltaFIFO) []pop {
	t.Helper()
	var pops []pop
	for len(f.ListKeys()) > 0 {
		p := pop{SyncedBefore: f.HasSynced()}
		item, err := f.Pop(func(_ any, initial bool) error {
			p.Initial = initial
			return nil
		})
		require.NoError(t, err)
		var parts []string
		for _, d := range item.(deltafifo.Deltas) {
			parts = append(parts, string(d.Type)+" "+render(d.Object))
		}
		p.Deltas = strings.Join(parts, ", ")
		p.SyncedAfter = f.HasSynced()
		pops = append(pops, p)
	}
	return pops
}

// deltasOnly keeps the Deltas column of pops.
func deltasOnly(pops []pop) []string {
	out := make([]string, len(pops))
	for i, p := range pops {
		out[i] = p.Deltas
	}
	return out
}

// TestCh04_WorkedExamples runs the worked examples E1–E11 of docs/behaviour/client-go.md §5.3 through DeltaFIFO's
// public API, as an informer would drive it, and compares every Pop. `known` stands for the
// informer's indexer (KnownObjects). `make ch04` prints each example's pops.
func TestCh04_WorkedExamples(t *testing.T) {
	tests := []struct {
		name     string
		known    []*api.Pod
		replaced bool // EmitDeltaTypeReplaced, as informers set it; false is the early Sync mode
		ops      func(f *deltafifo.DeltaFIFO) error
		want     []string
	}{
		{
			name: "E1 a pending object missing from the relist is tombstoned (DF-7 step 2)",
			ops: func(f *deltafifo.DeltaFIFO) error {
				return firstErr(f.Add(p("foo", "2")), f.Replace(nil, "3"))
			},
			want: []string{"Added foo@2, Deleted DFSU(ns/foo,foo@2)"},
		},
		{
			name:     "E2 Replaced delta, then the tombstone of a second relist",
			replaced: true,
			ops: func(f *deltafifo.DeltaFIFO) error {
				return firstErr(f.Add(p("foo", "2")), f.Replace([]any{p("foo", "2")}, "3"), f.Replace(nil, "4"))
			},
			want: []string{"Added foo@2, Replaced foo@2, Deleted DFSU(ns/foo,foo@2)"},
		},
		{
			name: "E3 a real delete beats the tombstone (DF-5, T3)",
			ops: func(f *deltafifo.DeltaFIFO) error {
				return firstErr(f.Add(p("foo", "2")), f.Delete(p("foo", "2")), f.Replace(nil, "3"))
			},
			want: []string{"Added foo@2, Deleted foo@2"},
		},
		{
			name: "E4 a second tombstone replaces the first (DF-5, T3)",
			ops: func(f *deltafifo.DeltaFIFO) error {
				return firstErr(f.Add(p("foo", "2")), f.Replace(nil, "3"), f.Replace(nil, "4"))
			},
			want: []string{"Added foo@2, Deleted DFSU(ns/foo,foo@2)"},
		},
		{
			name: "E5 the tombstone carries the newest pending object",
			ops: func(f *deltafifo.DeltaFIFO) error {
				return firstErr(f.Add(p("foo", "2")), f.Delete(p("foo", "2")), f.Add(p("foo", "3")), f.Replace(nil, "4"))
			},
			want: []string{"Added foo@2, Deleted foo@2, Added foo@3, Deleted DFSU(ns/foo,foo@3)"},
		},
		{
			name:  "E6 Sync mode: a delete, then a relist that brings the object back",
			known: []*api.Pod{p("foo", "1")},
			ops: func(f *deltafifo.DeltaFIFO) error {
				return firstErr(f.Delete(p("foo", "1")), f.Replace([]any{p("foo", "2")}, "2"))
			},
			want: []string{"Deleted foo@1, Sync foo@2"},
		},
		{
			name:  "E7 a known object missing from the relist is tombstoned with the cached copy (DF-7 step 3, T5)",
			known: []*api.Pod{p("foo", "5"), p("bar", "6"), p("baz", "7")},
			ops: func(f *deltafifo.DeltaFIFO) error {
				return firstErr(f.Delete(p("baz", "10")), f.Replace([]any{p("foo", "5")}, "11"))
			},
			want: []string{"Deleted baz@10", "Sync foo@5", "Deleted DFSU(ns/bar,bar@6)"},
		},
		{
			name:  "E8 a pending key is tombstoned with its newest queued object, a known key with the cached one",
			known: []*api.Pod{p("foo", "5"), p("bar", "6"), p("baz", "7")},
			ops: func(f *deltafifo.DeltaFIFO) error {
				return firstErr(f.Delete(p("bar", "6")), f.Add(p("bar", "100")), f.Replace([]any{p("foo", "5")}, "101"))
			},
			want: []string{
				"Deleted bar@6, Added bar@100, Deleted DFSU(ns/bar,bar@100)",
				"Sync foo@5",
				"Deleted DFSU(ns/baz,baz@7)",
			},
		},
		{
			name:  "E9 Resync skips a key with a pending change (DF-8, T6)",
			known: []*api.Pod{p("foo", "5")},
			ops: func(f *deltafifo.DeltaFIFO) error {
				return firstErr(f.Update(p("foo", "6")), f.Resync())
			},
			want: []string{"Updated foo@6"},
		},
		{
			name:  "E10 Resync skips a key with a pending delete",
			known: []*api.Pod{p("foo", "5")},
			ops: func(f *deltafifo.DeltaFIFO) error {
				return firstErr(f.Delete(p("foo", "10")), f.Resync())
			},
			want: []string{"Deleted foo@10"},
		},
		{
			name:  "E11 the initial population: three known keys, a relist that keeps one",
			known: []*api.Pod{p("foo", "5"), p("bar", "6"), p("baz", "7")},
			ops: func(f *deltafifo.DeltaFIFO) error {
				return f.Replace([]any{p("foo", "5")}, "8")
			},
			// bar and baz are tombstoned in map order; the initial count is 1 listed + 2 deletions.
			want: []string{"Sync foo@5", "Deleted DFSU(ns/bar,bar@6)", "Deleted DFSU(ns/baz,baz@7)"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := deltafifo.NewDeltaFIFOWithOptions(deltafifo.DeltaFIFOOptions{
				KeyFunction:           store.DeletionHandlingMetaNamespaceKeyFunc,
				KnownObjects:          known(t, tc.known...),
				EmitDeltaTypeReplaced: tc.replaced,
			})
			require.NoError(t, tc.ops(f))
			pops := popAll(t, f)
			for i, p := range pops {
				t.Logf("pop %d: [%s]", i+1, p.Deltas)
			}
			got := deltasOnly(pops)
			if strings.HasPrefix(tc.name, "E11") {
				// Tombstones of known keys come in map order (docs/behaviour/client-go.md N-7): compare the tail as a set.
				require.Len(t, got, 3)
				assert.Equal(t, tc.want[0], got[0])
				assert.ElementsMatch(t, tc.want[1:], got[1:])
				// Every pop belongs to the initial list; HasSynced turns true after the third.
				want := []pop{{Initial: true}, {Initial: true}, {Initial: true, SyncedAfter: true}}
				for i := range pops {
					pops[i].Deltas = ""
				}
				assert.Equal(t, want, pops, "E11 isInInitialList and HasSynced around each Pop (DF-9, DF-11)")
				return
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("pops (-want +got):\n%s", diff)
			}
		})
	}
}

// firstErr returns the first non-nil error, so a table row can chain queue calls.
func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// TestCh04_T2_NoLineJumping: a key keeps the place where it first entered the queue. a1, b1, a2
// pops a's two deltas first, then b; a busy key cannot push b back (DF-3).
func TestCh04_T2_NoLineJumping(t *testing.T) {
	f := deltafifo.NewDeltaFIFOWithOptions(deltafifo.DeltaFIFOOptions{})
	require.NoError(t, f.Add(p("a", "1")))
	require.NoError(t, f.Add(p("b", "1")))
	require.NoError(t, f.Update(p("a", "2")))
	for i := 3; i < 10; i++ { // however hot a gets, b stays second
		require.NoError(t, f.Update(p("a", strconv.Itoa(i))))
	}
	assert.Equal(t, []string{"ns/a", "ns/b"}, f.ListKeys())
	pops := deltasOnly(popAll(t, f))
	require.Len(t, pops, 2)
	assert.True(t, strings.HasPrefix(pops[0], "Added a@1, Updated a@2"), pops[0])
	assert.Equal(t, "Added b@1", pops[1])
}

// podFromDelete is the tombstone-safe unwrap every OnDelete handler needs: the object is either
// the pod, or a DeletedFinalStateUnknown whose Obj is the last state the cache knew.
func podFromDelete(obj any) (*api.Pod, bool) {
	if tomb, ok := obj.(store.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	pod, ok := obj.(*api.Pod)
	return pod, ok
}

// TestCh04_T4_MissedDeleteComesBackAsTombstone: p2 was deleted while the watch was down, so the
// queue never saw a Deleted event. The relist does not list p2; the queue finds it in the cache
// (KnownObjects) and queues Deleted(DeletedFinalStateUnknown{ns/p2, p2@2}). A handler that casts
// obj.(*api.Pod) would panic on it; podFromDelete does not. Both Replace-time queues produce the
// tombstone; atomic RealFIFO leaves it to the informer (T23, chapter 11).
func TestCh04_T4_MissedDeleteComesBackAsTombstone(t *testing.T) {
	cache := known(t, p("p1", "1"), p("p2", "2"))
	for name, q := range map[string]deltafifo.Queue{
		"DeltaFIFO": deltafifo.NewDeltaFIFOWithOptions(deltafifo.DeltaFIFOOptions{
			KnownObjects: cache, EmitDeltaTypeReplaced: true}),
		"RealFIFO": deltafifo.NewRealFIFOWithOptions(deltafifo.RealFIFOOptions{KnownObjects: cache}),
	} {
		t.Run(name, func(t *testing.T) {
			require.NoError(t, q.Replace([]any{p("p1", "1")}, "9"))
			q.Close()
			var deleted []any
			for {
				_, err := q.Pop(func(obj any, _ bool) error {
					for _, d := range obj.(deltafifo.Deltas) {
						if d.Type == deltafifo.Deleted {
							deleted = append(deleted, d.Object)
						}
					}
					return nil
				})
				if err != nil {
					require.ErrorIs(t, err, deltafifo.ErrFIFOClosed)
					break
				}
			}
			require.Len(t, deleted, 1)
			_, isPod := deleted[0].(*api.Pod)
			assert.False(t, isPod, "the missed delete is not a *api.Pod: obj.(*api.Pod) would panic")
			assert.Equal(t, "DFSU(ns/p2,p2@2)", render(deleted[0]))
			pod, ok := podFromDelete(deleted[0])
			require.True(t, ok)
			assert.Equal(t, "p2@2", render(pod), "the tombstone carries the last state the cache knew")
		})
	}
}

// TestCh04_T5_WhyKnownObjects: the informer hands its indexer to the queue as KnownObjects.
// With it, a relist that no longer lists b tombstones b; without it the queue has never heard
// of b (it was popped long ago) and the handler would never learn that b is gone.
func TestCh04_T5_WhyKnownObjects(t *testing.T) {
	for _, tc := range []struct {
		name  string
		known deltafifo.KeyListerGetter
		want  []string
	}{
		{"with KnownObjects", known(t, p("a", "1"), p("b", "2")), []string{"Replaced a@1", "Deleted DFSU(ns/b,b@2)"}},
		{"without KnownObjects", nil, []string{"Replaced a@1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := deltafifo.NewDeltaFIFOWithOptions(deltafifo.DeltaFIFOOptions{
				KnownObjects: tc.known, EmitDeltaTypeReplaced: true})
			require.NoError(t, f.Replace([]any{p("a", "1")}, "3"))
			assert.Equal(t, tc.want, deltasOnly(popAll(t, f)))
		})
	}
}

// TestCh04_D7_SyncedLatchTiming: DeltaFIFO closes Done() when the last initial item is popped,
// before its process function runs; RealFIFO only after it has been processed. A consumer that
// waits on Done() can therefore see a DeltaFIFO "synced" while the last initial object is not
// yet in the cache (docs/behaviour/client-go.md D-7, DF-11, RF-9).
func TestCh04_D7_SyncedLatchTiming(t *testing.T) {
	type latchQueue interface {
		deltafifo.Queue
		Done() <-chan struct{}
	}
	closed := func(ch <-chan struct{}) bool {
		select {
		case <-ch:
			return true
		default:
			return false
		}
	}
	for _, tc := range []struct {
		name             string
		q                latchQueue
		closedDuringLast bool
	}{
		{"DeltaFIFO", deltafifo.NewDeltaFIFOWithOptions(deltafifo.DeltaFIFOOptions{EmitDeltaTypeReplaced: true}), true},
		{"RealFIFO atomic", deltafifo.NewRealFIFOWithOptions(deltafifo.RealFIFOOptions{AtomicEvents: true}), false},
		{"RealFIFO", deltafifo.NewRealFIFOWithOptions(deltafifo.RealFIFOOptions{KnownObjects: known(t)}), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.NoError(t, tc.q.Replace([]any{p("a", "1")}, "1"))
			require.False(t, closed(tc.q.Done()))
			var during bool
			_, err := tc.q.Pop(func(_ any, initial bool) error {
				require.True(t, initial)
				during = closed(tc.q.Done())
				return nil
			})
			require.NoError(t, err)
			assert.Equal(t, tc.closedDuringLast, during, "Done() closed while the last initial item is processed")
			assert.True(t, closed(tc.q.Done()), "Done() closed once Pop returned")
		})
	}
}
