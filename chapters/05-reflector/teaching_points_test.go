package ch05_test

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/deltafifo"
	"github.com/informer-lab/informer-lab/listwatch"
	"github.com/informer-lab/informer-lab/reflector"
	"github.com/informer-lab/informer-lab/reflector/fakesource"
	"github.com/informer-lab/informer-lab/store"
)

// Every test here runs in a testing/synctest bubble: time is virtual, so a 2-minute backoff
// or a 95-second resync costs nothing, and "wait until everything is blocked" replaces sleeps.

// advance moves virtual time forward and lets every goroutine settle.
func advance(d time.Duration) {
	time.Sleep(d)
	synctest.Wait()
}

// newSimServer starts the simulated apiserver in the bubble with namespace ns, and stops it
// when the test ends.
func newSimServer(t *testing.T, opts apiserver.Options) *apiserver.Server {
	srv := apiserver.New(opts)
	t.Cleanup(srv.Close)
	_, err := srv.Create(context.Background(), "namespaces", "", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "ns"}})
	require.NoError(t, err)
	return srv
}

// simLW is the in-process lister-watcher of pods in ns. Like the REST client's ListWatch it
// marks its watches watch=true, which the reflector itself never sets.
func simLW(srv *apiserver.Server) *listwatch.ListWatch {
	lw := srv.ListerWatcher("pods", "ns")
	return &listwatch.ListWatch{
		ListWithContextFunc: lw.ListWithContext,
		WatchFuncWithContext: func(ctx context.Context, opts api.ListOptions) (watch.Interface, error) {
			opts.Watch = true
			return lw.WatchWithContext(ctx, opts)
		},
	}
}

func simPod(name string) *api.Pod {
	p := newPod(name)
	p.Spec.Containers = []api.Container{{Name: "c", Image: "nginx"}}
	return p
}

func counts(srv *apiserver.Server) (lists, watches int) {
	c := srv.RequestCounts()
	return c[apiserver.RequestKey{Verb: "list", Resource: "pods"}], c[apiserver.RequestKey{Verb: "watch", Resource: "pods"}]
}

func storeRVs(s store.Store) map[string]string {
	out := map[string]string{}
	for _, obj := range s.List() {
		p := obj.(*api.Pod)
		out[p.Name] = p.ResourceVersion
	}
	return out
}

func serverRVs(t *testing.T, srv *apiserver.Server, names ...string) map[string]string {
	out := map[string]string{}
	for _, n := range names {
		obj, err := srv.Get(context.Background(), "pods", "ns", n)
		if api.IsNotFound(err) {
			continue
		}
		require.NoError(t, err)
		out[n] = obj.(*api.Pod).ResourceVersion
	}
	return out
}

// TestCh05_T6_ResyncMakesZeroCalls: resync replays the cache into the queue as Sync deltas; it
// never talks to the server. Three resync periods: three Resync calls, zero requests.
func TestCh05_T6_ResyncMakesZeroCalls(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newSimServer(t, apiserver.Options{})
		for _, n := range []string{"a", "b"} {
			_, err := srv.Create(context.Background(), "pods", "ns", simPod(n))
			require.NoError(t, err)
		}
		// The informer's cache, which the queue resyncs from.
		cache := store.NewStore(store.MetaNamespaceKeyFunc)
		fifo := deltafifo.NewDeltaFIFOWithOptions(deltafifo.DeltaFIFOOptions{KnownObjects: cache, EmitDeltaTypeReplaced: true})
		r := reflector.NewReflectorWithOptions(simLW(srv), &api.Pod{}, fifo,
			reflector.ReflectorOptions{Name: "pods", ResyncPeriod: 30 * time.Second})
		srv.ResetRequestCounts()
		rr := run(r)
		synctest.Wait()
		// Play the informer: pop the initial deltas into the cache.
		for range 2 {
			_, err := fifo.Pop(func(obj any, _ bool) error {
				return cache.Add(obj.(deltafifo.Deltas).Newest().Object)
			})
			require.NoError(t, err)
		}
		lists, watches := counts(srv)

		advance(95 * time.Second)
		var synced []string
		for range 6 { // 3 resyncs × 2 cached pods
			_, err := fifo.Pop(func(obj any, _ bool) error {
				d := obj.(deltafifo.Deltas).Newest()
				synced = append(synced, string(d.Type)+" "+d.Object.(*api.Pod).Name)
				return nil
			})
			require.NoError(t, err)
		}
		rr.stop()
		assert.ElementsMatch(t, []string{"Sync a", "Sync b", "Sync a", "Sync b", "Sync a", "Sync b"}, synced)
		l2, w2 := counts(srv)
		assert.Equal(t, lists, l2, "no LIST")
		assert.Equal(t, watches, w2, "no WATCH")
	})
}

// TestCh05_T7_ResourceVersions: the first LIST asks "0", a relist asks the last RV seen,
// and "" only after that RV turned out to be gone.
func TestCh05_T7_ResourceVersions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := fakesource.New()
		for i := range 10 {
			_, _ = src.Add(newPod(fmt.Sprint("p", i)))
		}
		r := reflector.NewReflectorWithOptions(src, &api.Pod{}, fakeStore{}, reflector.ReflectorOptions{Name: "pods", UseWatchList: off()})
		rr := run(r)
		synctest.Wait()
		src.FailListAt("10", fakesource.NewExpired("too old"))
		src.SendError(fakesource.NewExpired("too old resource version"))
		advance(time.Minute)
		rr.stop()
		assert.Equal(t, []string{"0", "10", ""}, src.ListRVs())
	})
}

// TestCh05_T8_BookmarkKeepsTheRVFresh: the watch times out (a normal close) after a bookmark
// at RV 50; the next WATCH starts at 50, at once, with no LIST.
func TestCh05_T8_BookmarkKeepsTheRVFresh(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := fakesource.New()
		_, _ = src.Add(newPod("a"))
		r := reflector.NewReflectorWithOptions(src, &api.Pod{}, fakeStore{}, reflector.ReflectorOptions{Name: "pods", UseWatchList: off()})
		rr := run(r)
		synctest.Wait()
		src.AdvanceResourceVersion(49)
		src.Bookmark()
		advance(1100 * time.Millisecond)
		closedAt := time.Now()
		src.ResetWatches()
		synctest.Wait()
		rr.stop()
		assert.Equal(t, []string{"1", "50"}, src.WatchRVs())
		calls := src.Calls()
		assert.Equal(t, closedAt, calls[len(calls)-1].At, "re-watched at the same instant")
		assert.Equal(t, 1, src.Count("LIST"))
	})
}

// TestCh05_T9_CompactionForcesRelist runs against the simulated apiserver: the reflector
// misses a delete, the server compacts its history and the watch breaks. The re-watch from
// the old RV gets ERROR 410 "too old resource version"; one LIST at that RV repairs the cache.
func TestCh05_T9_CompactionForcesRelist(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newSimServer(t, apiserver.Options{})
		ctx := context.Background()
		for _, n := range []string{"a", "b"} {
			_, err := srv.Create(ctx, "pods", "ns", simPod(n))
			require.NoError(t, err)
		}
		cache := store.NewStore(store.MetaNamespaceKeyFunc)
		lw := simLW(srv)
		var listRVs []string // the RV each LIST asked for
		var mu sync.Mutex
		list := lw.ListWithContextFunc
		lw.ListWithContextFunc = func(ctx context.Context, opts api.ListOptions) (api.Object, error) {
			mu.Lock()
			listRVs = append(listRVs, opts.ResourceVersion)
			mu.Unlock()
			return list(ctx, opts)
		}
		r := reflector.NewReflectorWithOptions(lw, &api.Pod{}, cache,
			reflector.ReflectorOptions{Name: "pods", UseWatchList: off()})
		rr := run(r)
		synctest.Wait()
		seen := r.LastSyncResourceVersion()

		srv.DropNextEvents(apiserver.DropRule{Count: 1})
		_, err := srv.Delete(ctx, "pods", "ns", "b", &api.DeleteOptions{GracePeriodSeconds: new(int64)})
		require.NoError(t, err)
		assert.Contains(t, storeRVs(cache), "b", "the delete was missed")
		srv.CompactAll()
		advance(2 * time.Second)
		srv.ResetRequestCounts()
		srv.CloseAllWatches()
		advance(time.Minute)
		rr.stop()

		assert.Equal(t, serverRVs(t, srv, "a", "b"), storeRVs(cache), "the relist repaired the cache")
		lists, _ := counts(srv)
		assert.Equal(t, 1, lists, "exactly one relist")
		mu.Lock()
		defer mu.Unlock()
		assert.Equal(t, []string{"0", seen}, listRVs, "the relist asked for the last RV it had seen")
		want, _ := strconv.ParseUint(seen, 10, 64)
		assert.Less(t, want, srv.ResourceVersion(), "the server had moved on past that RV")
	})
}

// TestCh05_T10_BackoffInVirtualTime: a LIST that always fails is retried after delays in
// [0.8, 1.6), [1.6, 3.2) … [30, 60) seconds, and the sequence restarts 2 minutes after it
// began. Two minutes of failures take no real time.
func TestCh05_T10_BackoffInVirtualTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := fakesource.New()
		errs := make([]error, 12)
		for i := range errs {
			errs[i] = fakesource.NewInternalError("etcd unavailable")
		}
		src.FailNextLists(errs...)
		r := reflector.NewReflectorWithOptions(src, &api.Pod{}, fakeStore{}, reflector.ReflectorOptions{Name: "pods", UseWatchList: off()})
		r.SetWatchErrorHandler(func(*reflector.Reflector, error) {}) // quiet
		born := time.Now()
		rr := run(r)
		advance(5 * time.Minute)
		rr.stop()

		var at []time.Duration
		for _, c := range src.Calls() {
			if c.Verb == "LIST" {
				at = append(at, c.At.Sub(born))
			}
		}
		require.GreaterOrEqual(t, len(at), 10)
		base := 800 * time.Millisecond
		lastReset := time.Duration(0)
		for i := 1; i < len(at); i++ {
			if at[i-1]-lastReset > 2*time.Minute { // the delay asked for here restarts
				base, lastReset = 800*time.Millisecond, at[i-1]
			}
			gap := at[i] - at[i-1]
			assert.GreaterOrEqual(t, gap, base, "delay %d", i)
			assert.Less(t, gap, 2*base, "delay %d", i)
			base = min(2*base, 30*time.Second) // 25.6 s doubles past the cap: 30 s
		}
	})
}

// TestCh05_T24_WatchList: against the simulated apiserver, a v0.37-style reflector syncs with
// one WATCH and no LIST, at the RV of the initial-events-end bookmark. A server that rejects
// watch-list gets the classic LIST + WATCH instead (R-35 … R-40, CG5).
func TestCh05_T24_WatchList(t *testing.T) {
	tests := []struct {
		name           string
		reject         bool
		lists, watches int
	}{
		{"watch-list", false, 0, 1},
		{"rejected: fallback", true, 1, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := newSimServer(t, apiserver.Options{RejectWatchList: tt.reject})
				for _, n := range []string{"a", "b", "c"} {
					_, err := srv.Create(context.Background(), "pods", "ns", simPod(n))
					require.NoError(t, err)
				}
				srv.ResetRequestCounts()
				cache := store.NewStore(store.MetaNamespaceKeyFunc)
				r := reflector.NewReflectorWithOptions(simLW(srv), &api.Pod{}, cache, reflector.ReflectorOptions{Name: "pods"})
				rr := run(r)
				synctest.Wait()
				rr.stop()
				lists, watches := counts(srv)
				assert.Equal(t, tt.lists, lists, "LISTs")
				assert.Equal(t, tt.watches, watches, "WATCHes")
				assert.Len(t, cache.List(), 3)
				assert.Equal(t, strconv.FormatUint(srv.ResourceVersion(), 10), r.LastSyncResourceVersion())
			})
		})
	}
}
