package ch05_test

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/reflector"
	"github.com/informer-lab/informer-lab/reflector/fakesource"
	"github.com/informer-lab/informer-lab/store"
)

// gcRounds bounds the wait for a cleanup: an unreachable object is found by the first full
// GC, and its cleanup runs soon after on the runtime's cleanup goroutine.
const gcRounds = 50

// cancelOnReplace cancels the reflector's context as soon as the LIST reached the store, so
// ListAndWatchWithContext returns right after its list step and starts no watch.
type cancelOnReplace struct {
	reflector.ReflectorStore
	cancel context.CancelFunc
}

func (s cancelOnReplace) Replace(list []any, rv string) error {
	defer s.cancel()
	return s.ReflectorStore.Replace(list, rv)
}

// TestCh05_ListedObjectsAreAllocatedApart: an object the cache deleted must be garbage even
// while the other objects of the same LIST are still cached. If the list step handed the
// store pointers into the list's items array, one cached object would keep the whole array,
// and so every object listed with it, alive. Checked for a single-page LIST and for one the
// pager assembles from pages.
func TestCh05_ListedObjectsAreAllocatedApart(t *testing.T) {
	for _, tc := range []struct {
		name     string
		pageSize int64
	}{
		{"one page", 0},
		{"pages of 3", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const n = 8
			src := fakesource.New()
			for i := range n {
				_, err := src.Add(newPod(fmt.Sprintf("p%d", i)))
				require.NoError(t, err)
			}
			st := store.NewStore(store.MetaNamespaceKeyFunc)
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			r := reflector.NewReflectorWithOptions(src, &api.Pod{}, cancelOnReplace{st, cancel},
				reflector.ReflectorOptions{Name: "pods", UseWatchList: off()})
			r.WatchListPageSize = tc.pageSize
			require.NoError(t, r.ListAndWatchWithContext(ctx))
			require.Len(t, st.ListKeys(), n)

			kept := cleanupsOfAllBut(st, "ns/p3")
			gone := deleteWithCleanup(t, st, "ns/p3")

			require.True(t, collected(gone), "ns/p3 was deleted from the store but is still in memory after %d GC rounds", gcRounds)
			want := []string{"ns/p0", "ns/p1", "ns/p2", "ns/p4", "ns/p5", "ns/p6", "ns/p7"}
			assert.Empty(t, cmp.Diff(want, st.ListKeys(), cmpopts.SortSlices(func(a, b string) bool { return a < b })))
			select {
			case key := <-kept:
				assert.Fail(t, "a cached object was collected", key)
			default:
			}
			runtime.KeepAlive(st)
		})
	}
}

// cleanupsOfAllBut gives every object in st but the one at except a cleanup that names it on
// the returned channel: an object that stays cached must never be collected. Like
// deleteWithCleanup, it keeps no reference to any of them once it returns.
//
//go:noinline
func cleanupsOfAllBut(st store.Store, except string) <-chan string {
	objs := st.List()
	collected := make(chan string, len(objs))
	for _, obj := range objs {
		p := obj.(*api.Pod)
		if key := p.Namespace + "/" + p.Name; key != except {
			runtime.AddCleanup(p, func(key string) { collected <- key }, key)
		}
	}
	return collected
}

// deleteWithCleanup deletes key from st and returns a channel closed once the deleted object
// is collected. The object is only ever referenced from this frame, which is gone when it
// returns.
//
//go:noinline
func deleteWithCleanup(t *testing.T, st store.Store, key string) <-chan struct{} {
	obj, ok, err := st.GetByKey(key)
	require.NoError(t, err)
	require.True(t, ok)
	gone := make(chan struct{})
	runtime.AddCleanup(obj.(*api.Pod), func(c chan struct{}) { close(c) }, gone)
	require.NoError(t, st.Delete(obj))
	return gone
}

// collected runs up to gcRounds garbage collections and reports whether gone was closed.
func collected(gone <-chan struct{}) bool {
	for range gcRounds {
		runtime.GC()
		select {
		case <-gone:
			return true
		default:
			runtime.Gosched() // give the cleanup goroutine its turn
		}
	}
	return false
}
