package deltafifo

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/store"
)

// ---------------------------------------------------------------------------------------
// Helpers (prefixed rf so they cannot clash with the DeltaFIFO tests in this package).

func rfPod(name, rv string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "ns", Name: name, ResourceVersion: rv}}
}

func rfKnown(t testing.TB, objs ...any) store.Store {
	t.Helper()
	s := store.NewStore(store.DeletionHandlingMetaNamespaceKeyFunc)
	for _, o := range objs {
		require.NoError(t, s.Add(o))
	}
	return s
}

// rfModes are the two configurations every RF statement is checked in.
var rfModes = []struct {
	name   string
	atomic bool
}{{"nonatomic", false}, {"atomic", true}}

func rfNew(t testing.TB, atomic bool, known ...any) *RealFIFO {
	t.Helper()
	if atomic {
		return NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true, UnlockWhileProcessing: true, EmitDeltaTypeBookmark: true})
	}
	return NewRealFIFOWithOptions(RealFIFOOptions{KnownObjects: rfKnown(t, known...)})
}

// rfSummary renders a delta as one comparable string.
func rfSummary(d Delta) string {
	switch o := d.Object.(type) {
	case ReplacedAllInfo:
		keys := make([]string, 0, len(o.Objects))
		for _, obj := range o.Objects {
			keys = append(keys, rfObjString(obj))
		}
		return fmt.Sprintf("%s rv=%s [%s]", d.Type, o.ResourceVersion, strings.Join(keys, " "))
	case SyncAllInfo:
		return string(d.Type)
	case BookmarkInfo:
		return fmt.Sprintf("%s rv=%s", d.Type, o.ResourceVersion)
	}
	return string(d.Type) + " " + rfObjString(d.Object)
}

func rfObjString(obj any) string {
	switch o := obj.(type) {
	case store.DeletedFinalStateUnknown:
		return "DFSU(" + o.Key + "," + rfObjString(o.Obj) + ")"
	case nil:
		return "nil"
	case *api.Pod:
		s := o.Namespace + "/" + o.Name + "@" + o.ResourceVersion
		if o.Labels["transformed"] != "" {
			s += "+T"
		}
		return s
	}
	return fmt.Sprintf("%v", obj)
}

func rfSummaries(ds []Delta) []string {
	out := make([]string, 0, len(ds))
	for _, d := range ds {
		out = append(out, rfSummary(d))
	}
	return out
}

// rfQueued is a white-box snapshot of the queue.
func rfQueued(f *RealFIFO) []string {
	f.lock.Lock()
	defer f.lock.Unlock()
	return rfSummaries(f.items)
}

func rfLen(f *RealFIFO) int {
	f.lock.Lock()
	defer f.lock.Unlock()
	return len(f.items)
}

// rfPopAll pops until the queue is empty, one delta per Pop.
func rfPopAll(t testing.TB, f *RealFIFO) []string {
	t.Helper()
	var got []string
	for rfLen(f) > 0 {
		item, err := f.Pop(func(obj any, _ bool) error { return nil })
		require.NoError(t, err)
		ds := item.(Deltas)
		require.Len(t, ds, 1, "RF-9: one delta per Pop")
		got = append(got, rfSummary(ds[0]))
	}
	return got
}

func rfIsClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// rfTransformer labels pods so tests can see which objects went through it.
func rfTransformer(calls *int) store.TransformFunc {
	return func(obj any) (any, error) {
		*calls++
		p, ok := obj.(*api.Pod)
		if !ok {
			return obj, nil
		}
		c := *p
		c.Labels = map[string]string{"transformed": "yes"}
		return &c, nil
	}
}

// rfSortedKnown lists keys in sorted order: a store lists them in map order, and the spec
// promises no order among KnownObjects-derived deltas.
type rfSortedKnown struct{ store.Store }

func (s rfSortedKnown) ListKeys() []string {
	keys := s.Store.ListKeys()
	slices.Sort(keys)
	return keys
}

// rfMissingKnown lists a key it cannot return, as an indexer racing a delete would.
type rfMissingKnown struct{ keys []string }

func (m rfMissingKnown) ListKeys() []string                 { return m.keys }
func (m rfMissingKnown) GetByKey(string) (any, bool, error) { return nil, false, nil }

// checkInvariants verifies the INV-21 queue state that can be checked from inside, at
// quiescence (no Pop or PopBatch running).
func (f *RealFIFO) checkInvariants() error {
	f.lock.Lock()
	defer f.lock.Unlock()
	var errs []error
	if f.initialPopulationCount < 0 {
		errs = append(errs, fmt.Errorf("initialPopulationCount %d < 0", f.initialPopulationCount))
	}
	if want := f.populated && f.initialPopulationCount == 0; f.syncedClosed != want {
		errs = append(errs, fmt.Errorf("syncedClosed=%v, want %v (populated=%v, count=%d)",
			f.syncedClosed, want, f.populated, f.initialPopulationCount))
	}
	if rfIsClosed(f.synced) != f.syncedClosed {
		errs = append(errs, fmt.Errorf("synced channel closed=%v but syncedClosed=%v", rfIsClosed(f.synced), f.syncedClosed))
	}
	if !f.syncedClosed && f.initialPopulationCount > len(f.items) {
		errs = append(errs, fmt.Errorf("initialPopulationCount %d > %d queued deltas", f.initialPopulationCount, len(f.items)))
	}
	if !f.populated && f.initialPopulationCount != 0 {
		errs = append(errs, fmt.Errorf("not populated but initialPopulationCount=%d", f.initialPopulationCount))
	}
	for i, d := range f.items {
		switch d.Type {
		case Added, Updated, Deleted, Replaced, Sync:
			if _, err := f.keyOf(d.Object); err != nil {
				errs = append(errs, fmt.Errorf("item %d (%s) has no key: %w", i, d.Type, err))
			}
		case ReplacedAll, SyncAll:
			if !f.emitAtomicEvents {
				errs = append(errs, fmt.Errorf("item %d: %s in a non-atomic queue", i, d.Type))
			}
		case Bookmark:
			if !f.emitDeltaTypeBookmark {
				errs = append(errs, fmt.Errorf("item %d: Bookmark without EmitDeltaTypeBookmark", i))
			}
		default:
			errs = append(errs, fmt.Errorf("item %d: unknown delta type %q", i, d.Type))
		}
	}
	return errors.Join(errs...)
}

// ---------------------------------------------------------------------------------------
// RF-1 construction.

func TestCh04_RF1_ConstructionRules(t *testing.T) {
	known := rfKnown(t)
	cases := []struct {
		name      string
		opts      RealFIFOOptions
		wantPanic bool
	}{
		{"atomic without known", RealFIFOOptions{AtomicEvents: true}, false},
		{"atomic with unlock and bookmarks", RealFIFOOptions{AtomicEvents: true, UnlockWhileProcessing: true, EmitDeltaTypeBookmark: true}, false},
		{"atomic with known", RealFIFOOptions{AtomicEvents: true, KnownObjects: known}, true},
		{"nonatomic with known", RealFIFOOptions{KnownObjects: known}, false},
		{"nonatomic without known", RealFIFOOptions{}, true},
		{"nonatomic with unlock", RealFIFOOptions{KnownObjects: known, UnlockWhileProcessing: true}, true},
		{"nonatomic with bookmarks", RealFIFOOptions{KnownObjects: known, EmitDeltaTypeBookmark: true}, true},
		{"negative batch size", RealFIFOOptions{AtomicEvents: true, BatchSize: -1}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.wantPanic {
				assert.Panics(t, func() { NewRealFIFOWithOptions(tc.opts) })
				return
			}
			f := NewRealFIFOWithOptions(tc.opts)
			require.NoError(t, f.checkInvariants())
		})
	}
}

func TestCh04_RF1_Defaults(t *testing.T) {
	f := NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true})
	assert.Equal(t, 1000, f.batchSize, "RF-1: default batch size")
	key, err := f.keyFunc(rfPod("a", "1"))
	require.NoError(t, err)
	assert.Equal(t, "ns/a", key, "RF-1: default key func is MetaNamespaceKeyFunc")

	calls := 0
	tr := rfTransformer(&calls)
	d := NewRealFIFO(nil, rfKnown(t), tr)
	assert.False(t, d.emitAtomicEvents, "NewRealFIFO is the non-atomic queue")
	require.NotNil(t, d.Transformer())
	_, _ = d.Transformer()(rfPod("a", "1"))
	assert.Equal(t, 1, calls, "Transformer returns the configured func")
}

// ---------------------------------------------------------------------------------------
// RF-2, RF-3 and T22: arrival order, one delta per event.

func TestCh04_RF2_OneDeltaPerEventInArrivalOrder(t *testing.T) {
	for _, m := range rfModes {
		t.Run(m.name, func(t *testing.T) {
			f := rfNew(t, m.atomic)
			require.NoError(t, f.Add(rfPod("a", "1")))
			require.NoError(t, f.Update(rfPod("a", "2")))
			require.NoError(t, f.Add(rfPod("b", "3")))
			require.NoError(t, f.Delete(rfPod("a", "4")))
			require.NoError(t, f.Delete(rfPod("a", "4")))
			require.NoError(t, f.Update(rfPod("b", "5")))
			assert.True(t, f.HasSynced(), "RF-2: Add/Update/Delete mark populated")
			want := []string{"Added ns/a@1", "Updated ns/a@2", "Added ns/b@3", "Deleted ns/a@4", "Deleted ns/a@4", "Updated ns/b@5"}
			if diff := cmp.Diff(want, rfPopAll(t, f)); diff != "" {
				t.Fatalf("RF-2 nothing merged or reordered (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCh04_RF2_KeyErrorRefused(t *testing.T) {
	for _, m := range rfModes {
		t.Run(m.name, func(t *testing.T) {
			f := rfNew(t, m.atomic)
			err := f.Add("not an object")
			var ke store.KeyError
			require.ErrorAs(t, err, &ke)
			assert.Zero(t, rfLen(f))
		})
	}
}

func TestCh04_RF3_DeleteNeverConsultsKnownObjects(t *testing.T) {
	for _, m := range rfModes {
		t.Run(m.name, func(t *testing.T) {
			f := rfNew(t, m.atomic) // nothing known
			require.NoError(t, f.Delete(rfPod("ghost", "9")))
			if diff := cmp.Diff([]string{"Deleted ns/ghost@9"}, rfPopAll(t, f)); diff != "" {
				t.Fatalf("RF-3/D-2 (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCh04_T22_InOrderDelivery(t *testing.T) {
	for _, m := range rfModes {
		t.Run(m.name, func(t *testing.T) {
			f := rfNew(t, m.atomic)
			require.NoError(t, f.Add(rfPod("a", "1")))
			require.NoError(t, f.Add(rfPod("b", "2")))
			require.NoError(t, f.Update(rfPod("a", "3")))
			if diff := cmp.Diff([]string{"Added ns/a@1", "Added ns/b@2", "Updated ns/a@3"}, rfPopAll(t, f)); diff != "" {
				t.Fatalf("T22 pops a, b, a (-want +got):\n%s", diff)
			}
		})
	}
}

// ---------------------------------------------------------------------------------------
// RF-4, RF-5 Replace.

func TestCh04_RF4_NonAtomicReplace(t *testing.T) {
	calls := 0
	known := rfKnown(t, rfPod("a", "0"), rfPod("e", "0"), rfPod("f", "0"), rfPod("h", "0"))
	f := NewRealFIFOWithOptions(RealFIFOOptions{KnownObjects: rfSortedKnown{known}, Transformer: rfTransformer(&calls)})
	// Queue through the internals so the transformer is not involved in the setup.
	f.items = []Delta{
		{Added, rfPod("d", "1")},
		{Added, rfPod("a", "1")},
		{Updated, rfPod("a", "2")},
		{Added, rfPod("b", "3")},
		{Deleted, rfPod("c", "4")},
		{Added, rfPod("f", "5")},
	}
	require.NoError(t, f.Replace([]any{rfPod("f", "9"), rfPod("g", "9")}, "9"))
	want := []string{
		"Added ns/d@1", "Added ns/a@1", "Updated ns/a@2", "Added ns/b@3", "Deleted ns/c@4", "Added ns/f@5",
		// (1) queued keys not listed, first-appearance order, last queued object; c already deleted.
		"Deleted DFSU(ns/d,ns/d@1)",
		"Deleted DFSU(ns/a,ns/a@2)",
		"Deleted DFSU(ns/b,ns/b@3)",
		// (2) known, not listed, not queued: e and h (a is queued, f is listed), in
		// ListKeys order.
		"Deleted DFSU(ns/e,ns/e@0)",
		"Deleted DFSU(ns/h,ns/h@0)",
		// (3) the list, transformed, in list order.
		"Replaced ns/f@9+T",
		"Replaced ns/g@9+T",
	}
	if diff := cmp.Diff(want, rfQueued(f)); diff != "" {
		t.Fatalf("RF-4 (-want +got):\n%s", diff)
	}
	assert.Equal(t, 2, calls, "RF-4: tombstones are not transformed")
}

func TestCh04_RF4_KnownKeyMissingGivesNilTombstone(t *testing.T) {
	f := NewRealFIFOWithOptions(RealFIFOOptions{KnownObjects: rfMissingKnown{keys: []string{"ns/x"}}})
	require.NoError(t, f.Replace(nil, "1"))
	if diff := cmp.Diff([]string{"Deleted DFSU(ns/x,nil)"}, rfQueued(f)); diff != "" {
		t.Fatalf("RF-4 (-want +got):\n%s", diff)
	}
}

func TestCh04_RF4_ListKeyErrorQueuesNothing(t *testing.T) {
	f := rfNew(t, false, rfPod("a", "1"))
	err := f.Replace([]any{rfPod("b", "1"), 42}, "2")
	var ke store.KeyError
	require.ErrorAs(t, err, &ke)
	assert.Empty(t, rfQueued(f))
}

func TestCh04_RF5_AtomicReplace(t *testing.T) {
	calls := 0
	f := NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true, Transformer: rfTransformer(&calls)})
	require.NoError(t, f.Add(rfPod("old", "1")))
	require.NoError(t, f.Replace([]any{rfPod("a", "5"), rfPod("b", "5")}, "7"))
	want := []string{"Added ns/old@1+T", "ReplacedAll rv=7 [ns/a@5+T ns/b@5+T]"}
	if diff := cmp.Diff(want, rfQueued(f)); diff != "" {
		t.Fatalf("RF-5: one ReplacedAll, no tombstones (-want +got):\n%s", diff)
	}
	assert.Equal(t, 3, calls)

	// Without a transformer the caller's slice is handed over as is.
	g := rfNew(t, true)
	list := []any{rfPod("a", "1")}
	require.NoError(t, g.Replace(list, "1"))
	require.Same(t, list[0], g.items[0].Object.(ReplacedAllInfo).Objects[0])
}

// ---------------------------------------------------------------------------------------
// RF-6 Resync, RF-7 Bookmark.

func TestCh04_RF6_Resync(t *testing.T) {
	a, b, c := rfPod("a", "1"), rfPod("b", "1"), rfPod("c", "1")
	t.Run("nonatomic", func(t *testing.T) {
		calls := 0
		f := NewRealFIFOWithOptions(RealFIFOOptions{KnownObjects: rfSortedKnown{rfKnown(t, a, b, c)}, Transformer: rfTransformer(&calls)})
		f.items = []Delta{{Deleted, store.DeletedFinalStateUnknown{Key: "ns/b"}}}
		require.NoError(t, f.Resync())
		want := []string{"Deleted DFSU(ns/b,nil)", "Sync ns/a@1", "Sync ns/c@1"}
		if diff := cmp.Diff(want, rfQueued(f)); diff != "" {
			t.Fatalf("RF-6: skip queued keys, Sync the rest (-want +got):\n%s", diff)
		}
		require.Same(t, a, f.items[1].Object, "RF-6: the cached object itself")
		assert.Zero(t, calls, "RF-6: Sync objects are not transformed")
		assert.False(t, f.HasSynced(), "Resync does not populate")
	})
	t.Run("atomic", func(t *testing.T) {
		f := rfNew(t, true)
		require.NoError(t, f.Add(a))
		require.NoError(t, f.Resync())
		require.NoError(t, f.Resync())
		if diff := cmp.Diff([]string{"Added ns/a@1", "SyncAll", "SyncAll"}, rfQueued(f)); diff != "" {
			t.Fatalf("RF-6: one SyncAll per Resync regardless of the queue (-want +got):\n%s", diff)
		}
	})
}

func TestCh04_RF7_Bookmark(t *testing.T) {
	cases := []struct {
		name string
		opts RealFIFOOptions
		want []string
	}{
		{"emit", RealFIFOOptions{AtomicEvents: true, EmitDeltaTypeBookmark: true}, []string{"Bookmark rv=42"}},
		{"atomic without emit", RealFIFOOptions{AtomicEvents: true}, []string{}},
		{"nonatomic", RealFIFOOptions{KnownObjects: rfKnown(t)}, []string{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := NewRealFIFOWithOptions(tc.opts)
			require.NoError(t, f.Bookmark("42"))
			if diff := cmp.Diff(tc.want, rfQueued(f)); diff != "" {
				t.Fatalf("RF-7 (-want +got):\n%s", diff)
			}
			assert.False(t, f.HasSynced(), "RF-7: Bookmark does not populate")
		})
	}
}

// ---------------------------------------------------------------------------------------
// RF-8, RF-9 initial population and sync latch.

func TestCh04_RF8_InitialPopulationCount(t *testing.T) {
	t.Run("nonatomic counts tombstones and queued deltas", func(t *testing.T) {
		f := rfNew(t, false, rfPod("gone", "1"))
		require.NoError(t, f.Replace([]any{rfPod("a", "2"), rfPod("b", "2")}, "2"))
		assert.Equal(t, 3, f.initialPopulationCount)
		require.NoError(t, f.Replace([]any{rfPod("a", "3")}, "3"))
		assert.Equal(t, 3, f.initialPopulationCount, "RF-8: only the first Replace counts")
		require.NoError(t, f.checkInvariants())
	})
	t.Run("atomic counts one", func(t *testing.T) {
		f := rfNew(t, true)
		require.NoError(t, f.Bookmark("1"))
		require.NoError(t, f.Replace([]any{rfPod("a", "2"), rfPod("b", "2")}, "2"))
		assert.Equal(t, 2, f.initialPopulationCount, "RF-8: the queued bookmark counts too")
	})
	t.Run("empty replace syncs at once", func(t *testing.T) {
		for _, m := range rfModes {
			f := rfNew(t, m.atomic)
			if m.atomic {
				require.NoError(t, f.Replace(nil, "1"))
				assert.False(t, f.HasSynced(), "atomic: the ReplacedAll delta itself must be processed")
				rfPopAll(t, f)
			} else {
				require.NoError(t, f.Replace(nil, "1"))
			}
			assert.True(t, f.HasSynced(), m.name)
			assert.True(t, rfIsClosed(f.Done()), m.name)
		}
	})
	t.Run("add first syncs at once", func(t *testing.T) {
		for _, m := range rfModes {
			f := rfNew(t, m.atomic)
			require.NoError(t, f.Add(rfPod("a", "1")))
			require.NoError(t, f.Replace([]any{rfPod("b", "2")}, "2"))
			assert.True(t, f.HasSynced(), m.name)
			assert.Zero(t, f.initialPopulationCount, m.name)
		}
	})
}

func TestCh04_RF9_SyncedOnlyAfterLastInitialProcessed(t *testing.T) {
	for _, m := range rfModes {
		t.Run(m.name, func(t *testing.T) {
			f := rfNew(t, m.atomic)
			require.NoError(t, f.Replace([]any{rfPod("a", "1"), rfPod("b", "1")}, "1"))
			require.NoError(t, f.Add(rfPod("c", "2")))
			n := rfLen(f) - 1 // initial deltas
			for i := range n {
				_, err := f.Pop(func(_ any, initial bool) error {
					assert.True(t, initial, "RF-9: isInInitialList for initial delta %d", i)
					// Done is lock-free, so this works whether or not the lock is held.
					assert.False(t, rfIsClosed(f.Done()), "RF-9: not synced while processing delta %d", i)
					if m.atomic {
						assert.False(t, f.HasSynced(), "lock released: HasSynced callable and false")
					}
					return nil
				})
				require.NoError(t, err)
			}
			assert.True(t, rfIsClosed(f.Done()), "RF-9: synced after the last initial delta returned")
			assert.True(t, f.HasSynced())
			_, err := f.Pop(func(_ any, initial bool) error {
				assert.False(t, initial)
				return nil
			})
			require.NoError(t, err)
		})
	}
}

func TestCh04_RF9_ErrorsNotRequeued(t *testing.T) {
	for _, m := range rfModes {
		t.Run(m.name, func(t *testing.T) {
			f := rfNew(t, m.atomic)
			require.NoError(t, f.Add(rfPod("a", "1")))
			require.NoError(t, f.Add(rfPod("b", "1")))
			boom := errors.New("boom")
			item, err := f.Pop(func(any, bool) error { return boom })
			require.ErrorIs(t, err, boom)
			assert.Equal(t, []string{"Added ns/a@1"}, rfSummaries(item.(Deltas)), "RF-9: the failed delta is returned")
			assert.Equal(t, []string{"Added ns/b@1"}, rfQueued(f), "RF-9: and not requeued")
		})
	}
}

// ---------------------------------------------------------------------------------------
// RF-10 locking during process.

func TestCh04_RF10_UnlockWhileProcessingAllowsAdd(t *testing.T) {
	f := rfNew(t, true)
	require.NoError(t, f.Add(rfPod("a", "1")))
	_, err := f.Pop(func(any, bool) error {
		require.True(t, f.lock.TryLock(), "RF-10: lock released during process")
		f.lock.Unlock()
		// Same goroutine: this would deadlock if the lock were held.
		return f.Add(rfPod("b", "2"))
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"Added ns/b@2"}, rfQueued(f))

	// PopBatch too.
	require.NoError(t, f.Add(rfPod("c", "3")))
	require.NoError(t, f.PopBatch(func([]Delta, bool) error {
		return f.Add(rfPod("d", "4"))
	}, func(any, bool) error { return errors.New("unexpected single") }))
	assert.Equal(t, []string{"Added ns/d@4"}, rfQueued(f))
}

func TestCh04_RF10_LockHeldWithoutUnlock(t *testing.T) {
	f := rfNew(t, false)
	require.NoError(t, f.Add(rfPod("a", "1")))
	added := make(chan error, 1)
	_, err := f.Pop(func(any, bool) error {
		assert.False(t, f.lock.TryLock(), "RF-10/D-6: process runs under the lock")
		go func() { added <- f.Add(rfPod("b", "2")) }()
		// The goroutine's Add cannot finish while we hold the lock.
		select {
		case err := <-added:
			t.Errorf("Add completed during process: %v", err)
		default:
		}
		return nil
	})
	require.NoError(t, err)
	require.NoError(t, <-added, "Add completes once process returned")
	assert.Equal(t, []string{"Added ns/b@2"}, rfQueued(f))
}

func TestCh04_RF10_LongQueueKeepsLock(t *testing.T) {
	f := NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true, UnlockWhileProcessing: true, BatchSize: 2})
	for i := range 5 {
		require.NoError(t, f.Add(rfPod(fmt.Sprint("p", i), "1")))
	}
	// 4 remain after the pop: 4 >= 2×2, so the lock is kept for back-pressure.
	_, err := f.Pop(func(any, bool) error {
		assert.False(t, f.lock.TryLock(), "RF-10: long queue keeps the lock")
		return nil
	})
	require.NoError(t, err)
	// 3 remain: below 2×2, released.
	_, err = f.Pop(func(any, bool) error {
		if assert.True(t, f.lock.TryLock(), "RF-10: short queue releases the lock") {
			f.lock.Unlock()
		}
		return nil
	})
	require.NoError(t, err)
}

// ---------------------------------------------------------------------------------------
// RF-11 PopBatch.

// rfBatchCall records one PopBatch outcome.
type rfBatchCall struct {
	Single  bool
	Initial bool
	Deltas  []string
}

func rfPopBatch(t testing.TB, f *RealFIFO) rfBatchCall {
	t.Helper()
	var call rfBatchCall
	calls := 0
	err := f.PopBatch(func(ds []Delta, initial bool) error {
		calls++
		call = rfBatchCall{Initial: initial, Deltas: rfSummaries(ds)}
		return nil
	}, func(obj any, initial bool) error {
		calls++
		ds := obj.(Deltas)
		require.Len(t, ds, 1)
		call = rfBatchCall{Single: true, Initial: initial, Deltas: rfSummaries(ds)}
		return nil
	})
	require.NoError(t, err)
	require.Equal(t, 1, calls)
	return call
}

func TestCh04_RF11_PopBatchRules(t *testing.T) {
	a1, b1, c1, d1, e1 := rfPod("a", "1"), rfPod("b", "1"), rfPod("c", "1"), rfPod("d", "1"), rfPod("e", "1")
	cases := []struct {
		name  string
		setup func(t *testing.T) *RealFIFO
		want  []rfBatchCall
	}{
		{
			name: "stops before batchSize+1",
			setup: func(t *testing.T) *RealFIFO {
				f := NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true, BatchSize: 3})
				for _, p := range []*api.Pod{a1, b1, c1, d1, e1} {
					require.NoError(t, f.Add(p))
				}
				return f
			},
			want: []rfBatchCall{
				{Deltas: []string{"Added ns/a@1", "Added ns/b@1", "Added ns/c@1"}},
				{Deltas: []string{"Added ns/d@1", "Added ns/e@1"}},
			},
		},
		{
			name: "stops at the end of the initial population",
			setup: func(t *testing.T) *RealFIFO {
				f := rfNew(t, false)
				require.NoError(t, f.Replace([]any{a1, b1}, "1"))
				require.NoError(t, f.Add(c1))
				require.NoError(t, f.Add(d1))
				return f
			},
			want: []rfBatchCall{
				{Initial: true, Deltas: []string{"Replaced ns/a@1", "Replaced ns/b@1"}},
				{Deltas: []string{"Added ns/c@1", "Added ns/d@1"}},
			},
		},
		{
			name: "non-batchable first is taken alone",
			setup: func(t *testing.T) *RealFIFO {
				f := rfNew(t, true)
				require.NoError(t, f.Bookmark("5"))
				require.NoError(t, f.Add(a1))
				require.NoError(t, f.Add(b1))
				return f
			},
			want: []rfBatchCall{
				{Single: true, Deltas: []string{"Bookmark rv=5"}},
				{Deltas: []string{"Added ns/a@1", "Added ns/b@1"}},
			},
		},
		{
			name: "non-batchable ends the batch",
			setup: func(t *testing.T) *RealFIFO {
				f := rfNew(t, true)
				require.NoError(t, f.Add(a1))
				require.NoError(t, f.Add(b1))
				require.NoError(t, f.Resync())
				require.NoError(t, f.Replace([]any{c1}, "9"))
				require.NoError(t, f.Add(d1))
				return f
			},
			want: []rfBatchCall{
				{Deltas: []string{"Added ns/a@1", "Added ns/b@1"}},
				{Single: true, Deltas: []string{"SyncAll"}},
				{Single: true, Deltas: []string{"ReplacedAll rv=9 [ns/c@1]"}},
				{Single: true, Deltas: []string{"Added ns/d@1"}},
			},
		},
		{
			name: "repeated key ends the batch",
			setup: func(t *testing.T) *RealFIFO {
				f := rfNew(t, true)
				require.NoError(t, f.Add(a1))
				require.NoError(t, f.Add(b1))
				require.NoError(t, f.Update(rfPod("a", "2")))
				require.NoError(t, f.Add(c1))
				return f
			},
			want: []rfBatchCall{
				{Deltas: []string{"Added ns/a@1", "Added ns/b@1"}},
				{Deltas: []string{"Updated ns/a@2", "Added ns/c@1"}},
			},
		},
		{
			name: "tombstones are keyed by their Key",
			setup: func(t *testing.T) *RealFIFO {
				f := rfNew(t, false, a1)
				require.NoError(t, f.Add(b1))
				require.NoError(t, f.Replace([]any{b1}, "3")) // DFSU a, Replaced b
				return f
			},
			// The tombstone counts as key ns/a, so only the second b ends the batch.
			want: []rfBatchCall{
				{Deltas: []string{"Added ns/b@1", "Deleted DFSU(ns/a,ns/a@1)"}},
				{Single: true, Deltas: []string{"Replaced ns/b@1"}},
			},
		},
		{
			name: "batch of one goes to processSingle",
			setup: func(t *testing.T) *RealFIFO {
				f := rfNew(t, false)
				require.NoError(t, f.Add(a1))
				return f
			},
			want: []rfBatchCall{{Single: true, Deltas: []string{"Added ns/a@1"}}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := tc.setup(t)
			var got []rfBatchCall
			for rfLen(f) > 0 {
				got = append(got, rfPopBatch(t, f))
				require.NoError(t, f.checkInvariants())
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Fatalf("RF-11 (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCh04_RF11_KeyErrorTakenAndEndsBatch(t *testing.T) {
	broken := map[string]bool{}
	keyFunc := func(obj any) (string, error) {
		k, err := store.MetaNamespaceKeyFunc(obj)
		if err == nil && broken[k] {
			return "", errors.New("key func broke")
		}
		return k, err
	}
	f := NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true, KeyFunction: keyFunc})
	for _, n := range []string{"a", "x", "b"} {
		require.NoError(t, f.Add(rfPod(n, "1")))
	}
	broken["ns/x"] = true // the key func changed its mind after enqueue
	want := []rfBatchCall{
		{Deltas: []string{"Added ns/a@1", "Added ns/x@1"}},
		{Single: true, Deltas: []string{"Added ns/b@1"}},
	}
	got := []rfBatchCall{rfPopBatch(t, f), rfPopBatch(t, f)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("RF-11 (-want +got):\n%s", diff)
	}
}

func TestCh04_RF11_DecrementAfterProcessing(t *testing.T) {
	for _, m := range rfModes {
		t.Run(m.name, func(t *testing.T) {
			f := rfNew(t, m.atomic)
			require.NoError(t, f.Replace([]any{rfPod("a", "1"), rfPod("b", "1")}, "1"))
			require.NoError(t, f.Add(rfPod("c", "1")))
			seen := false
			check := func(initial bool) {
				seen = true
				assert.True(t, initial)
				assert.False(t, rfIsClosed(f.Done()), "RF-11: not synced during the batch")
			}
			require.NoError(t, f.PopBatch(
				func(_ []Delta, initial bool) error { check(initial); return nil },
				func(_ any, initial bool) error { check(initial); return nil }))
			require.True(t, seen)
			assert.True(t, rfIsClosed(f.Done()), "RF-11: synced after the batch returned")
			require.NoError(t, f.checkInvariants())
		})
	}
}

func TestCh04_RF11_ErrorReturnedNotRequeued(t *testing.T) {
	f := rfNew(t, true)
	require.NoError(t, f.Add(rfPod("a", "1")))
	require.NoError(t, f.Add(rfPod("b", "1")))
	boom := errors.New("boom")
	err := f.PopBatch(func([]Delta, bool) error { return boom }, func(any, bool) error { return nil })
	require.ErrorIs(t, err, boom)
	assert.Empty(t, rfQueued(f))
}

// ---------------------------------------------------------------------------------------
// RF-12 Close.

func TestCh04_RF12_CloseDrainsThenErrors(t *testing.T) {
	for _, m := range rfModes {
		t.Run(m.name, func(t *testing.T) {
			f := rfNew(t, m.atomic)
			require.NoError(t, f.Add(rfPod("a", "1")))
			require.NoError(t, f.Add(rfPod("b", "1")))
			f.Close()
			assert.True(t, f.IsClosed())
			require.NoError(t, f.Add(rfPod("c", "1")), "RF-12: writes after Close are accepted")
			_, err := f.Pop(func(any, bool) error { return nil })
			require.NoError(t, err)
			require.NoError(t, f.PopBatch(func([]Delta, bool) error { return nil }, func(any, bool) error { return nil }))
			_, err = f.Pop(func(any, bool) error { return nil })
			require.ErrorIs(t, err, ErrFIFOClosed)
			require.ErrorIs(t, f.PopBatch(nil, nil), ErrFIFOClosed)
		})
	}
}

func TestCh04_RF12_CloseWakesBlockedPop(t *testing.T) {
	for _, m := range rfModes {
		t.Run(m.name, func(t *testing.T) {
			f := rfNew(t, m.atomic)
			errs := make(chan error, 2)
			var wg sync.WaitGroup
			wg.Go(func() {
				_, err := f.Pop(func(any, bool) error { return nil })
				errs <- err
			})
			wg.Go(func() { errs <- f.PopBatch(nil, nil) })
			f.Close()
			wg.Wait()
			require.ErrorIs(t, <-errs, ErrFIFOClosed)
			require.ErrorIs(t, <-errs, ErrFIFOClosed)
		})
	}
}

// ---------------------------------------------------------------------------------------
// INV-21 property test.

func TestCh04_RF_INV21_Property(t *testing.T) {
	for _, m := range rfModes {
		t.Run(m.name, func(t *testing.T) {
			for seed := range uint64(20) {
				rfRunProperty(t, m.atomic, seed)
			}
		})
	}
}

func rfRunProperty(t *testing.T, atomic bool, seed uint64) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	var known store.Store
	var f *RealFIFO
	if atomic {
		f = NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true, UnlockWhileProcessing: true, EmitDeltaTypeBookmark: true, BatchSize: 4})
	} else {
		known = rfKnown(t)
		f = NewRealFIFOWithOptions(RealFIFOOptions{KnownObjects: known, BatchSize: 4})
	}
	// apply mimics the informer keeping KnownObjects in step with what it processed.
	apply := func(d Delta) {
		if known == nil {
			return
		}
		switch d.Type {
		case Deleted:
			if tomb, ok := d.Object.(store.DeletedFinalStateUnknown); ok {
				if obj, exists, _ := known.GetByKey(tomb.Key); exists {
					require.NoError(t, known.Delete(obj))
				}
				return
			}
			require.NoError(t, known.Delete(d.Object))
		default:
			require.NoError(t, known.Update(d.Object))
		}
	}
	var model []string // appended, not yet popped
	appends, pops := 0, 0
	rv := 0
	randPod := func() *api.Pod {
		rv++
		return rfPod(fmt.Sprint("p", r.IntN(8)), fmt.Sprint(rv))
	}
	for op := range 300 {
		ctx := fmt.Sprintf("seed %d op %d", seed, op)
		before := rfLen(f)
		popped := []string(nil)
		switch k := r.IntN(9); {
		case k == 0:
			require.NoError(t, f.Add(randPod()), ctx)
		case k == 1:
			require.NoError(t, f.Update(randPod()), ctx)
		case k == 2:
			require.NoError(t, f.Delete(randPod()), ctx)
		case k == 3 && r.IntN(3) == 0:
			var list []any
			for range r.IntN(5) {
				list = append(list, randPod())
			}
			// Duplicate keys in a list are possible; only distinct keys matter here.
			slices.SortFunc(list, func(a, b any) int { return strings.Compare(a.(*api.Pod).Name, b.(*api.Pod).Name) })
			list = slices.CompactFunc(list, func(a, b any) bool { return a.(*api.Pod).Name == b.(*api.Pod).Name })
			require.NoError(t, f.Replace(list, fmt.Sprint(rv)), ctx)
		case k == 4 && r.IntN(2) == 0:
			require.NoError(t, f.Resync(), ctx)
		case k == 5:
			require.NoError(t, f.Bookmark(fmt.Sprint(rv)), ctx)
		case k == 6 || k == 7:
			if before == 0 {
				continue
			}
			item, err := f.Pop(func(obj any, _ bool) error {
				apply(obj.(Deltas)[0])
				return nil
			})
			require.NoError(t, err, ctx)
			popped = rfSummaries(item.(Deltas))
		case k == 8:
			if before == 0 {
				continue
			}
			require.NoError(t, f.PopBatch(func(ds []Delta, _ bool) error {
				require.Greater(t, len(ds), 1, ctx)
				require.LessOrEqual(t, len(ds), 4, ctx)
				keys := map[string]bool{}
				for _, d := range ds {
					require.True(t, rfBatchable(d.Type), "%s: INV-21 no aggregate in a batch", ctx)
					key, err := f.keyOf(d.Object)
					require.NoError(t, err, ctx)
					require.False(t, keys[key], "%s: INV-21 duplicate key %s in batch", ctx, key)
					keys[key] = true
					apply(d)
				}
				popped = rfSummaries(ds)
				return nil
			}, func(obj any, _ bool) error {
				apply(obj.(Deltas)[0])
				popped = rfSummaries(obj.(Deltas))
				return nil
			}), ctx)
		default:
			continue
		}
		after := rfQueued(f)
		if popped != nil {
			pops += len(popped)
			require.Equal(t, model[:len(popped)], popped, "%s: INV-21 pops follow append order", ctx)
			model = model[len(popped):]
		} else {
			added := after[before:]
			appends += len(added)
			model = append(model, added...)
		}
		if diff := cmp.Diff(model, after, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("%s: queue differs from the model (-model +queue):\n%s", ctx, diff)
		}
		require.NoError(t, f.checkInvariants(), ctx)
	}
	pops += len(rfPopAll(t, f))
	assert.Equal(t, appends, pops, "seed %d: INV-21 #pops == #appends at quiescence", seed)
	require.NoError(t, f.checkInvariants())
}

// ---------------------------------------------------------------------------------------
// Concurrency.

func TestCh04_RF_ConcurrentProducerConsumerClose(t *testing.T) {
	const n = 2000
	for _, m := range rfModes {
		t.Run(m.name, func(t *testing.T) {
			f := rfNew(t, m.atomic)
			pods := make([]*api.Pod, n)
			for i := range pods {
				pods[i] = rfPod(fmt.Sprint("p", i%50), fmt.Sprint(i))
			}
			var got []string
			var consumer, producer sync.WaitGroup
			consumer.Go(func() {
				for {
					err := f.PopBatch(func(ds []Delta, _ bool) error {
						got = append(got, rfSummaries(ds)...)
						return nil
					}, func(obj any, _ bool) error {
						got = append(got, rfSummaries(obj.(Deltas))...)
						return nil
					})
					if errors.Is(err, ErrFIFOClosed) {
						return
					}
					assert.NoError(t, err)
				}
			})
			producer.Go(func() {
				for _, p := range pods {
					assert.NoError(t, f.Add(p))
				}
			})
			producer.Wait()
			f.Close()
			consumer.Wait() // no goroutine outlives the test
			require.Len(t, got, n)
			for i, s := range got {
				require.Equal(t, "Added "+rfObjString(pods[i]), s, "arrival order at %d", i)
			}
		})
	}
}

// ---------------------------------------------------------------------------------------
// Tracing.

func TestCh04_RF_Trace(t *testing.T) {
	var buf bytes.Buffer
	f := NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true, EmitDeltaTypeBookmark: true, Logger: trace.NewPlainLogger(&buf)})
	require.NoError(t, f.Add(rfPod("a", "1")))
	require.NoError(t, f.Delete(store.DeletedFinalStateUnknown{Key: "ns/b", Obj: rfPod("b", "2")}))
	require.NoError(t, f.Replace([]any{rfPod("a", "3")}, "4"))
	require.NoError(t, f.Bookmark("5"))
	require.NoError(t, f.Resync())
	require.NoError(t, f.PopBatch(func([]Delta, bool) error { return nil }, func(any, bool) error { return nil }))
	_, err := f.Pop(func(any, bool) error { return nil })
	require.NoError(t, err)

	g := NewRealFIFOWithOptions(RealFIFOOptions{KnownObjects: rfKnown(t, rfPod("k", "7")), Logger: trace.NewPlainLogger(&buf)})
	require.NoError(t, g.Replace(nil, "8"))

	want := []string{
		`msg="fifo enqueue" component=fifo op=enqueue key=ns/a rv=1 type=Added`,
		`msg="fifo enqueue" component=fifo op=enqueue key=ns/b rv=2 type=Deleted`,
		`msg="fifo enqueue" component=fifo op=enqueue key="" rv=4 type=ReplacedAll`,
		`msg="fifo enqueue" component=fifo op=enqueue key="" rv=5 type=Bookmark`,
		`msg="fifo enqueue" component=fifo op=enqueue key="" rv="" type=SyncAll`,
		`msg="fifo pop-batch" component=fifo op=pop-batch key="" rv="" size=2`,
		`msg="fifo pop" component=fifo op=pop key=ns/a rv=1 type=Added`,
		`msg="fifo pop" component=fifo op=pop key=ns/b rv=2 type=Deleted`,
		`msg="fifo pop" component=fifo op=pop key="" rv=4 type=ReplacedAll`,
		`msg="fifo enqueue" component=fifo op=enqueue key=ns/k rv=7 type=Deleted`,
	}
	got := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("trace (-want +got):\n%s", diff)
	}
}

func TestCh04_RF_TraceDisabledDoesNotAllocate(t *testing.T) {
	measure := func(l *slog.Logger) float64 {
		f := NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true, Logger: l})
		p := rfPod("a", "1")
		process := func(any, bool) error { return nil }
		return testing.AllocsPerRun(200, func() {
			_ = f.Add(p)
			_, _ = f.Pop(process)
		})
	}
	base := measure(nil)
	disabled := measure(slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelInfo})))
	enabled := measure(trace.NewPlainLogger(io.Discard))
	assert.Equal(t, base, disabled, "a disabled logger costs no allocation")
	assert.Greater(t, enabled, base, "sanity: an enabled logger does allocate")
}
