package deltafifo

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sort"
	"strconv"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/internal/fuzztape"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/store"
)

// dfPod builds a cluster-scoped-looking pod (empty namespace), so its key is just its name.
func dfPod(name, rv string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, ResourceVersion: rv}}
}

// dfKnown builds a KnownObjects store holding objs, keyed like an informer's indexer.
func dfKnown(t *testing.T, objs ...any) store.Store {
	t.Helper()
	s := store.NewStore(store.DeletionHandlingMetaNamespaceKeyFunc)
	for _, o := range objs {
		require.NoError(t, s.Add(o))
	}
	return s
}

func dfTomb(key string, obj any) store.DeletedFinalStateUnknown {
	return store.DeletedFinalStateUnknown{Key: key, Obj: obj}
}

// dfCheck asserts INV-20 (DF-1: a key is queued iff it has Deltas, no duplicates, none empty)
// after an operation.
func dfCheck(t *testing.T, f *DeltaFIFO) {
	t.Helper()
	require.NoError(t, f.checkInvariants())
}

// dfPopped is one Pop as the worked examples describe it.
type dfPopped struct {
	Deltas       Deltas
	Initial      bool
	SyncedBefore bool
	SyncedAfter  bool
}

// dfDrain pops until the queue is empty, checking invariants after each Pop. It never blocks
// because it only pops while keys are queued.
func dfDrain(t *testing.T, f *DeltaFIFO) []dfPopped {
	t.Helper()
	var out []dfPopped
	for len(f.ListKeys()) > 0 {
		p := dfPopped{SyncedBefore: f.HasSynced()}
		item, err := f.Pop(func(obj any, initial bool) error {
			p.Initial = initial
			return nil
		})
		require.NoError(t, err)
		p.Deltas = item.(Deltas)
		p.SyncedAfter = f.HasSynced()
		out = append(out, p)
		dfCheck(t, f)
	}
	return out
}

// dfDeltasOnly strips the sync flags, for examples that only compare deltas.
func dfDeltasOnly(pops []dfPopped) []Deltas {
	out := make([]Deltas, len(pops))
	for i, p := range pops {
		out[i] = p.Deltas
	}
	return out
}

// dfErrLister is a KeyListerGetter whose GetByKey fails or reports absence, to exercise the
// error branches of DF-4, DF-7 and DF-8.
type dfErrLister struct {
	keys   []string
	err    error
	absent bool
}

func (l dfErrLister) ListKeys() []string { return l.keys }
func (l dfErrLister) GetByKey(string) (any, bool, error) {
	if l.err != nil {
		return nil, false, l.err
	}
	return nil, !l.absent, nil
}

// TestCh04_WorkedExamplesInternals runs E1–E11 of docs/behaviour/client-go.md §5.3 against the queue's internals and
// compares every Pop.
func TestCh04_WorkedExamplesInternals(t *testing.T) {
	v1, v2, v3 := dfPod("foo", "1"), dfPod("foo", "2"), dfPod("foo", "3")
	foo5, foo6, foo10 := dfPod("foo", "5"), dfPod("foo", "6"), dfPod("foo", "10")
	bar6, bar100 := dfPod("bar", "6"), dfPod("bar", "100")
	baz7, baz10 := dfPod("baz", "7"), dfPod("baz", "10")

	tests := []struct {
		name     string
		known    []any // nil: an empty KnownObjects store
		replaced bool  // EmitDeltaTypeReplaced
		run      func(t *testing.T, f *DeltaFIFO)
		want     []Deltas
		// unordered: pops of different keys may come in map order (tombstones).
		unordered bool
		// wantFlags, if set, are the full per-pop records (E11).
		wantFlags []dfPopped
	}{
		{
			name: "E1 Add then empty Replace tombstones the pending object",
			run: func(t *testing.T, f *DeltaFIFO) {
				require.NoError(t, f.Add(v2))
				dfCheck(t, f)
				require.NoError(t, f.Replace(nil, "1"))
			},
			want: []Deltas{{{Added, v2}, {Deleted, dfTomb("foo", v2)}}},
		},
		{
			name:     "E2 Replaced delta then tombstone",
			replaced: true,
			run: func(t *testing.T, f *DeltaFIFO) {
				require.NoError(t, f.Add(v2))
				dfCheck(t, f)
				require.NoError(t, f.Replace([]any{v2}, "1"))
				dfCheck(t, f)
				require.NoError(t, f.Replace(nil, "2"))
			},
			want: []Deltas{{{Added, v2}, {Replaced, v2}, {Deleted, dfTomb("foo", v2)}}},
		},
		{
			name: "E3 real delete beats the tombstone",
			run: func(t *testing.T, f *DeltaFIFO) {
				require.NoError(t, f.Add(v2))
				require.NoError(t, f.Delete(v2))
				dfCheck(t, f)
				require.NoError(t, f.Replace(nil, "1"))
			},
			want: []Deltas{{{Added, v2}, {Deleted, v2}}},
		},
		{
			name: "E4 second tombstone replaces the first",
			run: func(t *testing.T, f *DeltaFIFO) {
				require.NoError(t, f.Add(v2))
				require.NoError(t, f.Replace(nil, "1"))
				dfCheck(t, f)
				require.NoError(t, f.Replace(nil, "2"))
			},
			want: []Deltas{{{Added, v2}, {Deleted, dfTomb("foo", v2)}}},
		},
		{
			name: "E5 tombstone carries the newest object",
			run: func(t *testing.T, f *DeltaFIFO) {
				require.NoError(t, f.Add(v2))
				require.NoError(t, f.Delete(v2))
				require.NoError(t, f.Add(v3))
				dfCheck(t, f)
				require.NoError(t, f.Replace(nil, "1"))
			},
			want: []Deltas{{{Added, v2}, {Deleted, v2}, {Added, v3}, {Deleted, dfTomb("foo", v3)}}},
		},
		{
			name:  "E6 Sync mode: delete then relist with a new object",
			known: []any{v1},
			run: func(t *testing.T, f *DeltaFIFO) {
				require.NoError(t, f.Delete(v1))
				dfCheck(t, f)
				require.NoError(t, f.Replace([]any{v2}, "2"))
			},
			want: []Deltas{{{Deleted, v1}, {Sync, v2}}},
		},
		{
			name:  "E7 known object missing from the list becomes a tombstone",
			known: []any{foo5, bar6, baz7},
			run: func(t *testing.T, f *DeltaFIFO) {
				require.NoError(t, f.Delete(baz10))
				dfCheck(t, f)
				require.NoError(t, f.Replace([]any{foo5}, "11"))
			},
			want: []Deltas{
				{{Deleted, baz10}},
				{{Sync, foo5}},
				{{Deleted, dfTomb("bar", bar6)}},
			},
		},
		{
			name:  "E8 pending key tombstoned with its newest object, known key with the cached one",
			known: []any{foo5, bar6, baz7},
			run: func(t *testing.T, f *DeltaFIFO) {
				require.NoError(t, f.Delete(bar6))
				require.NoError(t, f.Add(bar100))
				dfCheck(t, f)
				require.NoError(t, f.Replace([]any{foo5}, "101"))
			},
			want: []Deltas{
				{{Deleted, bar6}, {Added, bar100}, {Deleted, dfTomb("bar", bar100)}},
				{{Sync, foo5}},
				{{Deleted, dfTomb("baz", baz7)}},
			},
		},
		{
			name:  "E9 Resync skips a key with a pending Update",
			known: []any{foo5},
			run: func(t *testing.T, f *DeltaFIFO) {
				require.NoError(t, f.Update(foo6))
				dfCheck(t, f)
				require.NoError(t, f.Resync())
			},
			want: []Deltas{{{Updated, foo6}}},
		},
		{
			name:  "E10 Resync skips a key with a pending Delete",
			known: []any{foo5},
			run: func(t *testing.T, f *DeltaFIFO) {
				require.NoError(t, f.Delete(foo10))
				dfCheck(t, f)
				require.NoError(t, f.Resync())
			},
			want: []Deltas{{{Deleted, foo10}}},
		},
		{
			name:      "E11 initial list with tombstones: all three pops are initial",
			known:     []any{foo5, bar6, baz7},
			replaced:  true,
			unordered: true,
			run: func(t *testing.T, f *DeltaFIFO) {
				require.False(t, f.HasSynced())
				require.NoError(t, f.Replace([]any{foo5}, "8"))
			},
			want: []Deltas{
				{{Replaced, foo5}},
				{{Deleted, dfTomb("bar", bar6)}},
				{{Deleted, dfTomb("baz", baz7)}},
			},
			wantFlags: []dfPopped{
				{Initial: true, SyncedBefore: false, SyncedAfter: false},
				{Initial: true, SyncedBefore: false, SyncedAfter: false},
				{Initial: true, SyncedBefore: false, SyncedAfter: true},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{
				KnownObjects:          dfKnown(t, tc.known...),
				EmitDeltaTypeReplaced: tc.replaced,
			})
			tc.run(t, f)
			dfCheck(t, f)
			pops := dfDrain(t, f)
			got := dfDeltasOnly(pops)
			var opts []cmp.Option
			if tc.unordered {
				opts = append(opts, cmpopts.SortSlices(func(a, b Deltas) bool {
					ka, _ := f.KeyOf(a)
					kb, _ := f.KeyOf(b)
					return ka < kb
				}))
			}
			if diff := cmp.Diff(tc.want, got, opts...); diff != "" {
				t.Fatalf("pops (-want +got):\n%s", diff)
			}
			if tc.wantFlags != nil {
				for i := range pops {
					pops[i].Deltas = nil
				}
				if diff := cmp.Diff(tc.wantFlags, pops); diff != "" {
					t.Fatalf("sync flags (-want +got):\n%s", diff)
				}
			}
		})
	}
}

// DF-2: Add and Update append their own delta, never merged, and Update of an unseen key is
// still Updated.
func TestCh04_DF2_AddUpdateAppend(t *testing.T) {
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	a1, a2, b1 := dfPod("a", "1"), dfPod("a", "2"), dfPod("b", "1")
	require.NoError(t, f.Update(b1)) // never seen: still Updated
	require.NoError(t, f.Add(a1))
	require.NoError(t, f.Add(a2)) // Added,Added is not merged
	require.NoError(t, f.Update(a2))
	require.NoError(t, f.Update(a2)) // Updated,Updated is not merged
	dfCheck(t, f)
	assert.True(t, f.HasSynced(), "writes before any Replace make the first batch empty")
	got := dfDeltasOnly(dfDrain(t, f))
	want := []Deltas{{{Updated, b1}}, {{Added, a1}, {Added, a2}, {Updated, a2}, {Updated, a2}}}
	require.Empty(t, cmp.Diff(want, got))
}

// DF-3: keys keep the position where they first became pending; a popped key re-enters at
// the tail.
func TestCh04_DF3_PositionRule(t *testing.T) {
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	for _, n := range []string{"a", "b", "c"} {
		require.NoError(t, f.Add(dfPod(n, "1")))
	}
	require.NoError(t, f.Update(dfPod("a", "2")))
	require.NoError(t, f.Update(dfPod("c", "2")))
	dfCheck(t, f)
	assert.Equal(t, []string{"a", "b", "c"}, f.ListKeys())

	_, err := f.Pop(func(any, bool) error { return nil })
	require.NoError(t, err)
	require.NoError(t, f.Update(dfPod("a", "3")))
	dfCheck(t, f)
	assert.Equal(t, []string{"b", "c", "a"}, f.ListKeys())
}

// T2: a hot key does not jump the line.
func TestCh04_T2_NoLineJumpingInternals(t *testing.T) {
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	a1, b1, a2 := dfPod("a", "1"), dfPod("b", "1"), dfPod("a", "2")
	for _, o := range []any{a1, b1, a2} {
		require.NoError(t, f.Add(o))
		dfCheck(t, f)
	}
	got := dfDeltasOnly(dfDrain(t, f))
	require.Empty(t, cmp.Diff([]Deltas{{{Added, a1}, {Added, a2}}, {{Added, b1}}}, got))
}

// T1: every change survives until Pop, including the delete; the FIFO loses it (FF-2).
func TestCh04_T1_AllChangesKept(t *testing.T) {
	v1, v2 := dfPod("p", "1"), dfPod("p", "2")
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	require.NoError(t, f.Add(v1))
	require.NoError(t, f.Update(v2))
	require.NoError(t, f.Delete(v2))
	dfCheck(t, f)
	got := dfDeltasOnly(dfDrain(t, f))
	require.Empty(t, cmp.Diff([]Deltas{{{Added, v1}, {Updated, v2}, {Deleted, v2}}}, got))

	ff := NewFIFO(store.MetaNamespaceKeyFunc)
	require.NoError(t, ff.Add(v1))
	require.NoError(t, ff.Update(v2))
	require.NoError(t, ff.Delete(v2))
	assert.Empty(t, ff.ListKeys(), "FIFO: the delete leaves nothing to pop")
}

// DF-4: which deletes are dropped, with and without KnownObjects.
func TestCh04_DF4_DeleteDropRules(t *testing.T) {
	p := dfPod("p", "1")
	t.Run("no KnownObjects, nothing pending: dropped", func(t *testing.T) {
		f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
		require.NoError(t, f.Delete(p))
		dfCheck(t, f)
		assert.Empty(t, f.ListKeys())
		assert.True(t, f.HasSynced(), "a dropped delete still marks the queue populated")
	})
	t.Run("no KnownObjects, pending: appended", func(t *testing.T) {
		f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
		require.NoError(t, f.Add(p))
		require.NoError(t, f.Delete(p))
		dfCheck(t, f)
		require.Empty(t, cmp.Diff([]Deltas{{{Added, p}, {Deleted, p}}}, dfDeltasOnly(dfDrain(t, f))))
	})
	t.Run("known absent, nothing pending: dropped", func(t *testing.T) {
		f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: dfKnown(t)})
		require.NoError(t, f.Delete(p))
		dfCheck(t, f)
		assert.Empty(t, f.ListKeys())
	})
	t.Run("known present: appended", func(t *testing.T) {
		f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: dfKnown(t, p)})
		require.NoError(t, f.Delete(p))
		dfCheck(t, f)
		require.Empty(t, cmp.Diff([]Deltas{{{Deleted, p}}}, dfDeltasOnly(dfDrain(t, f))))
	})
	t.Run("known lookup fails: appended", func(t *testing.T) {
		f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: dfErrLister{err: errors.New("boom")}})
		require.NoError(t, f.Delete(p))
		dfCheck(t, f)
		require.Empty(t, cmp.Diff([]Deltas{{{Deleted, p}}}, dfDeltasOnly(dfDrain(t, f))))
	})
	t.Run("known absent but pending: appended", func(t *testing.T) {
		f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: dfKnown(t)})
		require.NoError(t, f.Add(p))
		require.NoError(t, f.Delete(p))
		dfCheck(t, f)
		require.Empty(t, cmp.Diff([]Deltas{{{Added, p}, {Deleted, p}}}, dfDeltasOnly(dfDrain(t, f))))
	})
	t.Run("tombstone is keyed by its Key", func(t *testing.T) {
		f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: dfKnown(t, p)})
		require.NoError(t, f.Delete(dfTomb("p", nil)))
		dfCheck(t, f)
		assert.Equal(t, []string{"p"}, f.ListKeys())
	})
}

// TestCh04_DF5_DedupDeltas: dfDedupDeltas alone (DF-5). Only the last two deltas are
// examined and only two deletions merge; the older wins unless it is a tombstone.
func TestCh04_DF5_DedupDeltas(t *testing.T) {
	real1, real2 := dfPod("x", "1"), dfPod("x", "2")
	tomb1, tomb2 := dfTomb("x", real1), dfTomb("x", real2)
	tests := []struct {
		name string
		in   Deltas
		want Deltas
	}{
		{"real then real: older kept", Deltas{{Deleted, real1}, {Deleted, real2}}, Deltas{{Deleted, real1}}},
		{"real then tombstone: real kept", Deltas{{Deleted, real1}, {Deleted, tomb2}}, Deltas{{Deleted, real1}}},
		{"tombstone then real: real replaces it", Deltas{{Deleted, tomb1}, {Deleted, real2}}, Deltas{{Deleted, real2}}},
		{"tombstone then tombstone: newer kept", Deltas{{Deleted, tomb1}, {Deleted, tomb2}}, Deltas{{Deleted, tomb2}}},
		{"Added,Added not merged", Deltas{{Added, real1}, {Added, real2}}, Deltas{{Added, real1}, {Added, real2}}},
		{"Updated,Updated not merged", Deltas{{Updated, real1}, {Updated, real2}}, Deltas{{Updated, real1}, {Updated, real2}}},
		{"Deleted,Added not merged", Deltas{{Deleted, real1}, {Added, real2}}, Deltas{{Deleted, real1}, {Added, real2}}},
		{"only the last two", Deltas{{Deleted, real1}, {Added, real2}, {Deleted, real2}}, Deltas{{Deleted, real1}, {Added, real2}, {Deleted, real2}}},
		{"single", Deltas{{Deleted, real1}}, Deltas{{Deleted, real1}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := append(Deltas(nil), tc.in...)
			require.Empty(t, cmp.Diff(tc.want, dfDedupDeltas(in)))
		})
	}
}

// DF-5: only the last two deltas are examined, only two deletions merge, the older one wins
// unless it is a tombstone; here through the queue: a real delete, a newer one, then the
// tombstone of an empty relist (T3) collapse into the first.
func TestCh04_DF5_DeleteDedup(t *testing.T) {
	real1, real2 := dfPod("x", "1"), dfPod("x", "2")
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: dfKnown(t, real1)})
	require.NoError(t, f.Delete(real1))
	require.NoError(t, f.Delete(real2))
	dfCheck(t, f)
	require.NoError(t, f.Replace(nil, "3"))
	dfCheck(t, f)
	require.Empty(t, cmp.Diff([]Deltas{{{Deleted, real1}}}, dfDeltasOnly(dfDrain(t, f))))
}

// T3: consecutive deletions collapse to the most informative one (E3, E4 through Replace).
func TestCh04_T3_ConsecutiveDeletesCollapse(t *testing.T) {
	x := dfPod("x", "1")
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: dfKnown(t, x)})
	require.NoError(t, f.Delete(x))
	require.NoError(t, f.Replace(nil, "2"))
	dfCheck(t, f)
	require.Empty(t, cmp.Diff([]Deltas{{{Deleted, x}}}, dfDeltasOnly(dfDrain(t, f))))

	f = NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	require.NoError(t, f.Add(x))
	require.NoError(t, f.Replace(nil, "2"))
	require.NoError(t, f.Replace(nil, "3"))
	dfCheck(t, f)
	require.Empty(t, cmp.Diff([]Deltas{{{Added, x}, {Deleted, dfTomb("x", x)}}}, dfDeltasOnly(dfDrain(t, f))))
}

// DF-6: the transformer sees Add/Update/Delete/Replace objects (also in Sync mode), never
// tombstones or resync objects, and its error aborts the call.
func TestCh04_DF6_Transformer(t *testing.T) {
	var seen []string
	transform := func(obj any) (any, error) {
		p, ok := obj.(*api.Pod)
		if !ok {
			return nil, fmt.Errorf("unexpected %T", obj)
		}
		if p.Name == "bad" {
			return nil, errors.New("bad object")
		}
		seen = append(seen, p.Name+"@"+p.ResourceVersion)
		return dfPod(p.Name, p.ResourceVersion+"t"), nil
	}
	cached := dfPod("cached", "9")
	gone := dfPod("gone", "8")
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{Transformer: transform, KnownObjects: dfKnown(t, cached, gone)})
	require.NotNil(t, f.Transformer())

	require.NoError(t, f.Add(dfPod("a", "1")))
	require.NoError(t, f.Update(dfPod("a", "2")))
	require.NoError(t, f.Delete(dfPod("a", "3")))
	require.NoError(t, f.Replace([]any{dfPod("b", "4"), cached}, "5")) // Sync mode: still transformed
	dfCheck(t, f)
	assert.Equal(t, []string{"a@1", "a@2", "a@3", "b@4", "cached@9"}, seen, "tombstones for a and gone are not transformed")

	err := f.Add(dfPod("bad", "1"))
	require.EqualError(t, err, "bad object")
	assert.NotContains(t, f.ListKeys(), "bad", "a failed transform enqueues nothing")

	got := dfDeltasOnly(dfDrain(t, f))
	require.Empty(t, cmp.Diff([]Deltas{
		{{Added, dfPod("a", "1t")}, {Updated, dfPod("a", "2t")}, {Deleted, dfPod("a", "3t")}},
		{{Sync, dfPod("b", "4t")}},
		{{Sync, dfPod("cached", "9t")}},
		{{Deleted, dfTomb("gone", gone)}},
	}, got))

	// Resync replays the cached object untransformed.
	seen = nil
	require.NoError(t, f.Resync())
	dfCheck(t, f)
	assert.Empty(t, seen)
	got = dfDeltasOnly(dfDrain(t, f))
	require.Empty(t, cmp.Diff([]Deltas{{{Sync, cached}}, {{Sync, gone}}}, got,
		cmpopts.SortSlices(func(a, b Deltas) bool { return a[0].Object.(*api.Pod).Name < b[0].Object.(*api.Pod).Name })))
}

// DF-7: Replace appends list deltas, tombstones pending and known keys, and the first one
// sets initialPopulationCount = distinct listed keys + queued deletions.
func TestCh04_DF7_Replace(t *testing.T) {
	a1, a2, b1 := dfPod("a", "1"), dfPod("a", "2"), dfPod("b", "1")
	k1, k2 := dfPod("k1", "1"), dfPod("k2", "1")

	t.Run("count uses distinct keys plus deletions", func(t *testing.T) {
		f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: dfKnown(t, k1, k2, a1), EmitDeltaTypeReplaced: true})
		require.NoError(t, f.Replace([]any{a1, a2, b1}, "7"))
		dfCheck(t, f)
		assert.Equal(t, 2+2, f.initialPopulationCount)
		assert.Equal(t, "7", f.LastSyncResourceVersion())
		assert.Equal(t, []string{"a", "b"}, f.ListKeys()[:2], "list deltas come before tombstones")
		pops := dfDrain(t, f)
		require.Len(t, pops, 4)
		require.Empty(t, cmp.Diff(Deltas{{Replaced, a1}, {Replaced, a2}}, pops[0].Deltas))
		assert.True(t, pops[3].SyncedAfter)
		assert.False(t, pops[2].SyncedAfter)
	})
	t.Run("Sync mode without KnownObjects", func(t *testing.T) {
		f := NewDeltaFIFO(store.MetaNamespaceKeyFunc, nil)
		require.NoError(t, f.Replace([]any{a1}, "1"))
		dfCheck(t, f)
		require.Empty(t, cmp.Diff([]Deltas{{{Sync, a1}}}, dfDeltasOnly(dfDrain(t, f))))
	})
	t.Run("known lookup fails: tombstone without object", func(t *testing.T) {
		f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: dfErrLister{keys: []string{"gone"}, err: errors.New("boom")}})
		require.NoError(t, f.Replace(nil, "1"))
		dfCheck(t, f)
		require.Empty(t, cmp.Diff([]Deltas{{{Deleted, dfTomb("gone", nil)}}}, dfDeltasOnly(dfDrain(t, f))))
	})
	t.Run("known reports absent: tombstone without object", func(t *testing.T) {
		f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: dfErrLister{keys: []string{"gone"}, absent: true}})
		require.NoError(t, f.Replace(nil, "1"))
		require.Empty(t, cmp.Diff([]Deltas{{{Deleted, dfTomb("gone", nil)}}}, dfDeltasOnly(dfDrain(t, f))))
	})
	t.Run("pending tombstone is unwrapped", func(t *testing.T) {
		f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: dfKnown(t, k1)})
		require.NoError(t, f.Delete(dfTomb("k1", k1)))
		require.NoError(t, f.Replace(nil, "1"))
		dfCheck(t, f)
		require.Empty(t, cmp.Diff([]Deltas{{{Deleted, dfTomb("k1", k1)}}}, dfDeltasOnly(dfDrain(t, f))))
	})
	t.Run("key error aborts", func(t *testing.T) {
		f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
		err := f.Replace([]any{"not an object"}, "1")
		var ke store.KeyError
		require.ErrorAs(t, err, &ke)
	})
}

// T5: the KnownObjects indexer is what lets a relist notice objects deleted while the watch
// was down.
func TestCh04_T5_KnownObjectsFindMissedDeletes(t *testing.T) {
	a, b := dfPod("a", "1"), dfPod("b", "1")
	with := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: dfKnown(t, a, b), EmitDeltaTypeReplaced: true})
	require.NoError(t, with.Replace([]any{a}, "2"))
	dfCheck(t, with)
	require.Empty(t, cmp.Diff([]Deltas{{{Replaced, a}}, {{Deleted, dfTomb("b", b)}}}, dfDeltasOnly(dfDrain(t, with))))

	without := NewDeltaFIFOWithOptions(DeltaFIFOOptions{EmitDeltaTypeReplaced: true})
	require.NoError(t, without.Replace([]any{a}, "2"))
	dfCheck(t, without)
	require.Empty(t, cmp.Diff([]Deltas{{{Replaced, a}}}, dfDeltasOnly(dfDrain(t, without))))
}

// DF-8: Resync replays known objects as Sync, skipping pending keys and failed lookups.
func TestCh04_DF8_Resync(t *testing.T) {
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	require.NoError(t, f.Resync())
	assert.Empty(t, f.ListKeys(), "no KnownObjects: no-op")
	assert.False(t, f.HasSynced(), "Resync does not populate")

	a, b := dfPod("a", "1"), dfPod("b", "1")
	f = NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: dfKnown(t, a, b)})
	require.NoError(t, f.Update(dfPod("a", "2")))
	require.NoError(t, f.Resync())
	dfCheck(t, f)
	require.Empty(t, cmp.Diff([]Deltas{{{Updated, dfPod("a", "2")}}, {{Sync, b}}}, dfDeltasOnly(dfDrain(t, f))))

	for _, l := range []dfErrLister{{keys: []string{"x"}, err: errors.New("boom")}, {keys: []string{"x"}, absent: true}} {
		f = NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: l})
		require.NoError(t, f.Resync())
		assert.Empty(t, f.ListKeys())
	}
}

// DF-9: Pop holds the lock while process runs, and Done is closed before the last initial
// item's process runs.
func TestCh04_DF9_PopHoldsLock(t *testing.T) {
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{EmitDeltaTypeReplaced: true})
	require.NoError(t, f.Replace([]any{dfPod("a", "1"), dfPod("b", "1")}, "1"))
	for i := range 2 {
		_, err := f.Pop(func(_ any, initial bool) error {
			assert.False(t, f.lock.TryLock(), "process runs under the queue lock")
			assert.True(t, initial)
			assert.Equal(t, i == 1, dfIsClosedChan(f.Done()), "Done closes when the last initial item is popped")
			return nil
		})
		require.NoError(t, err)
		dfCheck(t, f)
	}
	assert.True(t, f.HasSynced())
}

// Pop blocks while the queue is empty and wakes up on Add.
func TestCh04_DF9_PopBlocksUntilAdd(t *testing.T) {
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	type result struct {
		item any
		err  error
	}
	started := make(chan struct{})
	res := make(chan result, 1)
	go func() {
		close(started)
		item, err := f.Pop(func(any, bool) error { return nil })
		res <- result{item, err}
	}()
	<-started
	select {
	case r := <-res:
		t.Fatalf("Pop returned %v before anything was added", r)
	default:
	}
	p := dfPod("p", "1")
	require.NoError(t, f.Add(p))
	r := <-res
	require.NoError(t, r.err)
	require.Empty(t, cmp.Diff(Deltas{{Added, p}}, r.item))
	dfCheck(t, f)
}

// DF-10: an error from process comes back with the Deltas; nothing is requeued.
func TestCh04_DF10_ProcessErrorNotRequeued(t *testing.T) {
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	p := dfPod("p", "1")
	require.NoError(t, f.Add(p))
	boom := errors.New("boom")
	item, err := f.Pop(func(any, bool) error { return boom })
	require.ErrorIs(t, err, boom)
	require.Empty(t, cmp.Diff(Deltas{{Added, p}}, item))
	assert.Empty(t, f.ListKeys())
	dfCheck(t, f)
}

// DF-11: the HasSynced latch.
func TestCh04_DF11_HasSynced(t *testing.T) {
	t.Run("write before Replace", func(t *testing.T) {
		f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
		assert.False(t, f.HasSynced())
		require.NoError(t, f.Add(dfPod("a", "1")))
		assert.True(t, f.HasSynced())
		assert.True(t, dfIsClosedChan(f.Done()))
	})
	t.Run("empty first Replace", func(t *testing.T) {
		f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
		require.NoError(t, f.Replace(nil, "1"))
		assert.True(t, f.HasSynced())
	})
	t.Run("after the initial pops, and never false again", func(t *testing.T) {
		f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{EmitDeltaTypeReplaced: true})
		require.NoError(t, f.Replace([]any{dfPod("a", "1"), dfPod("b", "1")}, "1"))
		assert.False(t, f.HasSynced())
		pops := dfDrain(t, f)
		require.Empty(t, cmp.Diff([]bool{false, true}, []bool{pops[0].SyncedAfter, pops[1].SyncedAfter}))
		require.NoError(t, f.Replace([]any{dfPod("c", "1")}, "2"))
		assert.True(t, f.HasSynced(), "a second Replace does not reset the latch")
		pops = dfDrain(t, f)
		assert.False(t, pops[0].Initial)
	})
}

// DF-12: Close lets Pop drain, then reports ErrFIFOClosed; writes are still accepted.
func TestCh04_DF12_Close(t *testing.T) {
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	require.NoError(t, f.Add(dfPod("a", "1")))
	f.Close()
	assert.True(t, f.IsClosed())
	require.NoError(t, f.Add(dfPod("b", "1")))
	for _, want := range []string{"a", "b"} {
		item, err := f.Pop(func(any, bool) error { return nil })
		require.NoError(t, err)
		key, err := f.KeyOf(item)
		require.NoError(t, err)
		assert.Equal(t, want, key)
	}
	item, err := f.Pop(func(any, bool) error { t.Fatal("process must not run"); return nil })
	require.ErrorIs(t, err, ErrFIFOClosed)
	assert.Nil(t, item)
}

// DF-13: KeyOf.
func TestCh04_DF13_KeyOf(t *testing.T) {
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "ns", Name: "p"}}
	key, err := f.KeyOf(p)
	require.NoError(t, err)
	assert.Equal(t, "ns/p", key)

	key, err = f.KeyOf(Deltas{{Added, dfPod("old", "1")}, {Deleted, dfTomb("ns/t", nil)}})
	require.NoError(t, err)
	assert.Equal(t, "ns/t", key, "Deltas are keyed by the newest object; a tombstone by its Key")

	_, err = f.KeyOf(Deltas{})
	require.ErrorIs(t, err, ErrZeroLengthDeltasObject)
	var ke store.KeyError
	require.ErrorAs(t, err, &ke)

	_, err = f.KeyOf(42)
	require.Error(t, err)
	err = f.Add(42)
	require.ErrorAs(t, err, &ke)
	err = f.Delete(42)
	require.ErrorAs(t, err, &ke)
	dfCheck(t, f)
}

// DF-14 and the race detector: one producer, two consumers, Close at the end. Every delta is
// delivered exactly once and every goroutine ends.
func TestCh04_DF14_ConcurrentProducerConsumers(t *testing.T) {
	const keys, updates = 50, 20
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		received = map[string]int{}
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for u := range updates {
			for k := range keys {
				p := dfPod("k"+strconv.Itoa(k), strconv.Itoa(u))
				if u == 0 {
					assert.NoError(t, f.Add(p))
				} else {
					assert.NoError(t, f.Update(p))
				}
			}
		}
		f.Close()
	}()
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				item, err := f.Pop(func(obj any, _ bool) error {
					ds := obj.(Deltas)
					key, err := f.KeyOf(ds)
					if err != nil {
						return err
					}
					mu.Lock()
					received[key] += len(ds)
					mu.Unlock()
					return nil
				})
				if errors.Is(err, ErrFIFOClosed) {
					assert.Nil(t, item)
					return
				}
				assert.NoError(t, err)
			}
		}()
	}
	wg.Wait()
	require.Len(t, received, keys)
	for k, n := range received {
		assert.Equal(t, updates, n, k)
	}
	dfCheck(t, f)
}

// INV-20 property test: random writes (some of whose events are "dropped", as during a watch
// disconnect), relists, resyncs and pops, with a consumer that keeps KnownObjects up to date
// like an informer. After a final relist and drain, KnownObjects equals the server state.
func TestCh04_INV20_Property(t *testing.T) {
	const seeds, ops = 20, 300
	for seed := range uint64(seeds) {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			dfRunOps(t, rand.New(rand.NewPCG(seed, 42)), ops)
		})
	}
}

// FuzzDeltaFIFOOps drives the INV-20 property run with the fuzzer's bytes as its choices:
// go test -run='^$' -fuzz=FuzzDeltaFIFOOps ./deltafifo/
func FuzzDeltaFIFOOps(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0, 1, 0, 1, 1, 0, 0, 3, 9, 1, 2, 4, 1, 3, 5, 0, 0, 9})
	f.Add([]byte("add update delete replace resync pop"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dfRunOps(t, fuzztape.New(data), len(data)/3)
	})
}

// dfRunOps is the body of the INV-20 property run; pick makes every choice, so a seeded
// *rand.Rand and a fuzzer's tape drive the same code.
func dfRunOps(t *testing.T, pick fuzztape.Chooser, ops int) {
	const nkeys = 6
	known := store.NewStore(store.DeletionHandlingMetaNamespaceKeyFunc)
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: known, EmitDeltaTypeReplaced: pick.IntN(2) == 0})
	server := map[string]*api.Pod{}
	rv := 0
	serverList := func() []any {
		names := make([]string, 0, len(server))
		for n := range server {
			names = append(names, n)
		}
		sort.Strings(names)
		out := make([]any, len(names))
		for i, n := range names {
			out[i] = server[n]
		}
		return out
	}
	apply := func(obj any, _ bool) error {
		for _, d := range obj.(Deltas) {
			if d.Type == Deleted {
				if err := known.Delete(d.Object); err != nil {
					return err
				}
				continue
			}
			if _, exists, _ := known.Get(d.Object); exists {
				if err := known.Update(d.Object); err != nil {
					return err
				}
			} else if err := known.Add(d.Object); err != nil {
				return err
			}
		}
		return nil
	}
	synced := false
	for range ops {
		deliver := pick.IntN(5) != 0
		name := "p" + strconv.Itoa(pick.IntN(nkeys))
		switch op := pick.IntN(10); {
		case op < 3: // create or update
			rv++
			p := dfPod(name, strconv.Itoa(rv))
			_, existed := server[name]
			server[name] = p
			if deliver {
				if existed {
					require.NoError(t, f.Update(p))
				} else {
					require.NoError(t, f.Add(p))
				}
			}
		case op < 4: // delete
			if old, ok := server[name]; ok {
				delete(server, name)
				rv++
				if deliver {
					require.NoError(t, f.Delete(old))
				}
			}
		case op < 5:
			require.NoError(t, f.Replace(serverList(), strconv.Itoa(rv)))
		case op < 6:
			require.NoError(t, f.Resync())
		default:
			if len(f.ListKeys()) > 0 {
				_, err := f.Pop(apply)
				require.NoError(t, err)
			}
		}
		dfCheck(t, f)
		if synced {
			require.True(t, f.HasSynced(), "HasSynced is monotone")
		}
		synced = f.HasSynced()
	}
	require.NoError(t, f.Replace(serverList(), strconv.Itoa(rv)))
	dfCheck(t, f)
	for len(f.ListKeys()) > 0 {
		_, err := f.Pop(apply)
		require.NoError(t, err)
		dfCheck(t, f)
	}
	require.True(t, f.HasSynced())
	got := map[string]string{}
	for _, o := range known.List() {
		p := o.(*api.Pod)
		got[p.Name] = p.ResourceVersion
	}
	want := map[string]string{}
	for n, p := range server {
		want[n] = p.ResourceVersion
	}
	require.Empty(t, cmp.Diff(want, got))
}

// Tracing: exact lines for enqueue, tombstone and pop.
func TestCh04_Tracing(t *testing.T) {
	var buf bytes.Buffer
	gone := dfPod("gone", "3")
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{
		Logger:                trace.NewPlainLogger(&buf),
		KnownObjects:          dfKnown(t, gone),
		EmitDeltaTypeReplaced: true,
	})
	require.NoError(t, f.Add(dfPod("a", "1")))
	require.NoError(t, f.Update(dfPod("a", "2")))
	require.NoError(t, f.Delete(dfPod("a", "2")))
	require.NoError(t, f.Replace([]any{dfPod("b", "4")}, "4"))
	dfDrain(t, f)
	want := `msg="fifo enqueue" component=fifo op=enqueue key=a rv=1 type=Added
msg="fifo enqueue" component=fifo op=enqueue key=a rv=2 type=Updated
msg="fifo enqueue" component=fifo op=enqueue key=a rv=2 type=Deleted
msg="fifo enqueue" component=fifo op=enqueue key=b rv=4 type=Replaced
msg="fifo tombstone" component=fifo op=tombstone key=a rv=2 type=Deleted
msg="fifo tombstone" component=fifo op=tombstone key=gone rv=3 type=Deleted
msg="fifo pop" component=fifo op=pop key=a rv=2 type=Added,Updated,Deleted
msg="fifo pop" component=fifo op=pop key=b rv=4 type=Replaced
msg="fifo pop" component=fifo op=pop key=gone rv=3 type=Deleted
`
	require.Empty(t, cmp.Diff(want, buf.String()))
}

// Tracing costs no allocation when the logger is nil or Debug is disabled.
func TestCh04_TracingDisabledAllocs(t *testing.T) {
	p := dfPod("p", "1")
	allocs := func(l *slog.Logger) float64 {
		f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{Logger: l})
		return testing.AllocsPerRun(100, func() {
			_ = f.Add(p)
			_ = f.Update(p)
			_, _ = f.Pop(func(any, bool) error { return nil })
		})
	}
	quiet := slog.New(slog.NewTextHandler(&bytes.Buffer{}, &slog.HandlerOptions{Level: slog.LevelInfo}))
	assert.Equal(t, allocs(nil), allocs(quiet))
}
