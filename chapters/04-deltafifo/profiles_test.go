package ch04_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/deltafifo"
	"github.com/informer-lab/informer-lab/store"
)

// The same operations through DeltaFIFO and RealFIFO, side by side: teaching points T22 and
// T23 and the handler-visible differences D-1 … D-4 of docs/behaviour/client-go.md §14.

func p(name, rv string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "ns", Name: name, ResourceVersion: rv}}
}

// render prints an object as name@rv, a tombstone as DFSU(key,obj), an atomic payload by kind.
func render(obj any) string {
	switch o := obj.(type) {
	case *api.Pod:
		return o.Name + "@" + o.ResourceVersion
	case store.DeletedFinalStateUnknown:
		inner := "nil"
		if o.Obj != nil {
			inner = render(o.Obj)
		}
		return "DFSU(" + o.Key + "," + inner + ")"
	case deltafifo.ReplacedAllInfo:
		var objs []string
		for _, x := range o.Objects {
			objs = append(objs, render(x))
		}
		return "rv=" + o.ResourceVersion + " [" + strings.Join(objs, " ") + "]"
	case deltafifo.SyncAllInfo:
		return "all"
	case deltafifo.BookmarkInfo:
		return "rv=" + o.ResourceVersion
	}
	return fmt.Sprint(obj)
}

// drain closes q and pops everything, one line per Pop: "Type obj, Type obj".
func drain(t *testing.T, q deltafifo.Queue) []string {
	t.Helper()
	q.Close()
	var pops []string
	for {
		_, err := q.Pop(func(obj any, _ bool) error {
			var parts []string
			for _, d := range obj.(deltafifo.Deltas) {
				parts = append(parts, string(d.Type)+" "+render(d.Object))
			}
			pops = append(pops, strings.Join(parts, ", "))
			return nil
		})
		if errors.Is(err, deltafifo.ErrFIFOClosed) {
			return pops
		}
		require.NoError(t, err)
	}
}

// known returns an indexer holding pods, standing in for the informer's cache.
func known(t *testing.T, pods ...*api.Pod) store.Indexer {
	t.Helper()
	idx := store.NewIndexer(store.DeletionHandlingMetaNamespaceKeyFunc, store.Indexers{})
	for _, x := range pods {
		require.NoError(t, idx.Add(x))
	}
	return idx
}

// queues builds the three queues of the three profiles over the same known objects.
func queues(t *testing.T, knownObjs store.Indexer) map[string]deltafifo.Queue {
	t.Helper()
	return map[string]deltafifo.Queue{
		"DeltaFIFO": deltafifo.NewDeltaFIFOWithOptions(deltafifo.DeltaFIFOOptions{
			KnownObjects: knownObjs, EmitDeltaTypeReplaced: true}),
		"RealFIFO": deltafifo.NewRealFIFOWithOptions(deltafifo.RealFIFOOptions{KnownObjects: knownObjs}),
		"RealFIFO atomic": deltafifo.NewRealFIFOWithOptions(deltafifo.RealFIFOOptions{
			AtomicEvents: true, UnlockWhileProcessing: true, EmitDeltaTypeBookmark: true}),
	}
}

func TestCh04_SideBySide(t *testing.T) {
	tests := []struct {
		name  string
		known []*api.Pod
		ops   func(q deltafifo.Queue)
		want  map[string][]string
	}{
		{
			// T22 and D-1: DeltaFIFO groups a key's deltas and keeps its first position, so a's
			// update overtakes b's add; RealFIFO delivers in arrival order, one delta per Pop.
			name: "T22 in-order delivery (D-1)",
			ops: func(q deltafifo.Queue) {
				_ = q.Add(p("a", "3"))
				_ = q.Add(p("b", "4"))
				_ = q.Update(p("a", "5"))
			},
			want: map[string][]string{
				"DeltaFIFO":       {"Added a@3, Updated a@5", "Added b@4"},
				"RealFIFO":        {"Added a@3", "Added b@4", "Updated a@5"},
				"RealFIFO atomic": {"Added a@3", "Added b@4", "Updated a@5"},
			},
		},
		{
			// T23 and D-4: the relist after p1 was modified, p2 deleted and c created while the
			// watch events were lost. DeltaFIFO tombstones p2 last; non-atomic RealFIFO first;
			// atomic RealFIFO leaves it to the informer, which diffs ReplacedAll against its cache.
			name:  "T23 relist with a missed delete (D-4)",
			known: []*api.Pod{p("p1", "1"), p("p2", "2")},
			ops: func(q deltafifo.Queue) {
				_ = q.Replace([]any{p("p1", "6"), p("c", "8")}, "8")
			},
			want: map[string][]string{
				"DeltaFIFO":       {"Replaced p1@6", "Replaced c@8", "Deleted DFSU(ns/p2,p2@2)"},
				"RealFIFO":        {"Deleted DFSU(ns/p2,p2@2)", "Replaced p1@6", "Replaced c@8"},
				"RealFIFO atomic": {"ReplacedAll rv=8 [p1@6 c@8]"},
			},
		},
		{
			// D-2: a delete for a key that is neither queued nor known. DeltaFIFO drops it;
			// RealFIFO queues it, and the informer will call OnDelete for a ghost.
			name: "D-2 delete of a never-seen key",
			ops: func(q deltafifo.Queue) {
				_ = q.Delete(p("ghost", "9"))
			},
			want: map[string][]string{
				"DeltaFIFO":       nil,
				"RealFIFO":        {"Deleted ghost@9"},
				"RealFIFO atomic": {"Deleted ghost@9"},
			},
		},
		{
			// D-3 and T6: resync replays the cache without calling the server, and skips keys with
			// a pending change, which would otherwise be overtaken by a stale copy. Atomic mode
			// appends one SyncAll and resolves it at processing time.
			name:  "D-3 resync skips pending keys",
			known: []*api.Pod{p("p1", "1"), p("p2", "2")},
			ops: func(q deltafifo.Queue) {
				_ = q.Update(p("p1", "7"))
				_ = q.Resync()
			},
			want: map[string][]string{
				"DeltaFIFO":       {"Updated p1@7", "Sync p2@2"},
				"RealFIFO":        {"Updated p1@7", "Sync p2@2"},
				"RealFIFO atomic": {"Updated p1@7", "SyncAll all"},
			},
		},
		{
			// T3: consecutive deletions collapse in DeltaFIFO, keeping the real object over the
			// tombstone; RealFIFO merges nothing but does not tombstone a key whose last delta is
			// already a delete.
			name: "T3 delete then relist",
			ops: func(q deltafifo.Queue) {
				_ = q.Add(p("x", "1"))
				_ = q.Delete(p("x", "2"))
				_ = q.Replace(nil, "3")
			},
			want: map[string][]string{
				"DeltaFIFO":       {"Added x@1, Deleted x@2"},
				"RealFIFO":        {"Added x@1", "Deleted x@2"},
				"RealFIFO atomic": {"Added x@1", "Deleted x@2", "ReplacedAll rv=3 []"},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			qs := queues(t, known(t, tc.known...))
			for _, name := range []string{"DeltaFIFO", "RealFIFO", "RealFIFO atomic"} {
				q := qs[name]
				tc.ops(q)
				got := drain(t, q)
				t.Logf("%-15s %s", name, strings.Join(got, " / "))
				if diff := cmp.Diff(tc.want[name], got); diff != "" {
					t.Errorf("%s pops (-want +got):\n%s", name, diff)
				}
			}
		})
	}
}

// T1: DeltaFIFO keeps every change, so the consumer sees the delete; FIFO keeps only the
// latest state and loses it (FF-2).
func TestCh04_T1_FIFOLosesTheDelete(t *testing.T) {
	df := deltafifo.NewDeltaFIFOWithOptions(deltafifo.DeltaFIFOOptions{})
	ff := deltafifo.NewFIFO(store.MetaNamespaceKeyFunc)
	for _, q := range []interface {
		Add(any) error
		Update(any) error
		Delete(any) error
	}{df, ff} {
		require.NoError(t, q.Add(p("a", "1")))
		require.NoError(t, q.Update(p("a", "2")))
		require.NoError(t, q.Delete(p("a", "2")))
	}
	require.Equal(t, []string{"Added a@1, Updated a@2, Deleted a@2"}, drain(t, df))

	ff.Close()
	_, err := ff.Pop(func(any, bool) error { t.Fatal("FIFO has nothing to pop after a delete"); return nil })
	require.ErrorIs(t, err, deltafifo.ErrFIFOClosed)
}
