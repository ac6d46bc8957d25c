package reflector_test

// Integration: the reflector against the simulated apiserver over real HTTP, through the
// REST client of package rest. Production code never imports apiserver; tests may. Real sockets
// cannot run in a synctest bubble, so these tests use the real clock, a fast backoff and
// bounded polling.

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/listwatch"
	"github.com/informer-lab/informer-lab/reflector"
	"github.com/informer-lab/informer-lab/rest"
	"github.com/informer-lab/informer-lab/store"
)

func newPod(name string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "demo"},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}}}
}

// startServer runs the simulated apiserver with namespace demo and returns a REST client.
func startServer(t testing.TB, opts apiserver.Options) (*apiserver.Server, *rest.RESTClient) {
	t.Helper()
	srv := apiserver.NewTestServer(t, opts)
	_, err := srv.Create(context.Background(), "namespaces", "", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "demo"}})
	require.NoError(t, err)
	c, err := rest.RESTClientFor(&rest.Config{Host: srv.URL()})
	require.NoError(t, err)
	return srv, c
}

// podNames are every pod name the test uses.
var podNames = []string{"a", "b", "c", "d"}

// serverState and storeState map name → RV, to compare the cache with the server (INV-1).
// The server is read with GETs, because the test counts LIST and WATCH requests.
func serverState(t *testing.T, srv *apiserver.Server) map[string]string {
	out := map[string]string{}
	for _, n := range podNames {
		obj, err := srv.Get(context.Background(), "pods", "demo", n)
		if api.IsNotFound(err) {
			continue
		}
		require.NoError(t, err)
		out[n] = obj.(*api.Pod).ResourceVersion
	}
	return out
}

func storeState(st store.Store) map[string]string {
	out := map[string]string{}
	for _, obj := range st.List() {
		p := obj.(*api.Pod)
		out[p.Name] = p.ResourceVersion
	}
	return out
}

func eventuallyConsistent(t *testing.T, srv *apiserver.Server, st store.Store, msg string) {
	t.Helper()
	assert.Eventually(t, func() bool {
		return assert.ObjectsAreEqual(serverState(t, srv), storeState(st))
	}, 10*time.Second, 5*time.Millisecond, msg)
}

// TestCh05_Integration_HTTP syncs a store from the simulated apiserver, follows changes,
// and recovers from missed events plus a compaction (410 → relist). With watch-list the
// server sees no LIST at all (T24); with watch-list rejected, the reflector falls back to
// LIST + WATCH (CG5, R-6).
func TestCh05_Integration_HTTP(t *testing.T) {
	tests := []struct {
		name        string
		reject      bool
		syncLists   int
		syncWatches int
		relistLists int
	}{
		{"watch-list", false, 0, 1, 0},
		{"watch-list rejected: LIST fallback", true, 1, 2, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, c := startServer(t, apiserver.Options{RejectWatchList: tt.reject})
			ctx := context.Background()
			for _, n := range []string{"a", "b", "c"} {
				_, err := srv.Create(ctx, "pods", "demo", newPod(n))
				require.NoError(t, err)
			}
			srv.ResetRequestCounts()

			st := store.NewStore(store.MetaNamespaceKeyFunc)
			lw := listwatch.NewListWatchFromClient(c, "pods", "demo", nil)
			fast := &reflector.Backoff{Duration: 10 * time.Millisecond, Factor: 2, Jitter: 1, Steps: 5, Cap: 100 * time.Millisecond}
			r := reflector.NewReflectorWithOptions(lw, &api.Pod{}, st, reflector.ReflectorOptions{Name: "it", Backoff: fast})
			runCtx, cancel := context.WithCancel(ctx)
			done := make(chan struct{})
			go func() { r.RunWithContext(runCtx); close(done) }()
			defer func() { cancel(); <-done }()

			eventuallyConsistent(t, srv, st, "initial sync")
			watchKey := apiserver.RequestKey{Verb: "watch", Resource: "pods"}
			// The cache may be synced a moment before the watch after a LIST is open.
			assert.Eventually(t, func() bool { return srv.RequestCounts()[watchKey] >= tt.syncWatches }, 10*time.Second, time.Millisecond)
			counts := srv.RequestCounts()
			assert.Equal(t, tt.syncLists, counts[apiserver.RequestKey{Verb: "list", Resource: "pods"}], "LISTs")
			assert.Equal(t, tt.syncWatches, counts[watchKey], "WATCHes")

			_, err := srv.Create(ctx, "pods", "demo", newPod("d"))
			require.NoError(t, err)
			a, err := srv.Get(ctx, "pods", "demo", "a")
			require.NoError(t, err)
			a.(*api.Pod).Labels = map[string]string{"v": "2"}
			_, err = srv.Update(ctx, "pods", "demo", a)
			require.NoError(t, err)
			_, err = srv.Delete(ctx, "pods", "demo", "b", &api.DeleteOptions{GracePeriodSeconds: new(int64)})
			require.NoError(t, err)
			eventuallyConsistent(t, srv, st, "watch events")
			// The RV moves right after the store write.
			assert.Eventually(t, func() bool { return fmt.Sprint(srv.ResourceVersion()) == r.LastSyncResourceVersion() },
				10*time.Second, time.Millisecond)

			// The reflector misses a change, the server compacts, the watch breaks: the
			// re-watch from the old RV is answered with 410 and a relist repairs the cache.
			srv.ResetRequestCounts()
			srv.DropNextEvents(apiserver.DropRule{Count: 1})
			_, err = srv.Delete(ctx, "pods", "demo", "c", &api.DeleteOptions{GracePeriodSeconds: new(int64)})
			require.NoError(t, err)
			srv.CompactAll()
			srv.CloseAllWatches()
			eventuallyConsistent(t, srv, st, "relist after 410")
			counts = srv.RequestCounts()
			assert.Equal(t, tt.relistLists, counts[apiserver.RequestKey{Verb: "list", Resource: "pods"}], "relist LISTs")
			// By the time the cache is repaired the server has seen the re-watch that got
			// 410, then the watch-list (or the refused watch-list before the LIST).
			assert.GreaterOrEqual(t, counts[apiserver.RequestKey{Verb: "watch", Resource: "pods"}], 2, "relist WATCHes")
		})
	}
}

// BenchmarkReflect50kPodsHTTP syncs 50k pods from the simulated apiserver over HTTP into a
// store.Store: by watch-list (one streamed WATCH) and by paged LIST (the server rejects
// watch-list, so the reflector falls back), each in JSON and in protobuf. In protobuf the
// objects are read straight into api.Pod, with no JSON between.
func BenchmarkReflect50kPodsHTTP(b *testing.B) {
	const n = 50_000
	for _, mode := range []struct {
		name   string
		reject bool
	}{{"watch-list", false}, {"list", true}} {
		for _, ct := range []string{"json", "protobuf"} {
			b.Run(mode.name+"/"+ct, func(b *testing.B) {
				srv, c := startServer(b, apiserver.Options{RejectWatchList: mode.reject, HonourLimitWithRV0: true})
				if ct == "protobuf" {
					var err error
					c, err = rest.RESTClientFor(&rest.Config{Host: srv.URL(), ContentType: "application/vnd.kubernetes.protobuf"})
					if err != nil {
						b.Fatal(err)
					}
				}
				ctx := context.Background()
				for i := range n {
					if _, err := srv.Create(ctx, "pods", "demo", newPod(fmt.Sprintf("p%05d", i))); err != nil {
						b.Fatal(err)
					}
				}
				lw := listwatch.NewListWatchFromClient(c, "pods", "demo", nil)
				b.ReportAllocs()
				for b.Loop() {
					st := &syncedStore{Store: store.NewStore(store.MetaNamespaceKeyFunc), synced: make(chan struct{})}
					r := reflector.NewReflectorWithOptions(lw, &api.Pod{}, st, reflector.ReflectorOptions{Name: "bench"})
					runCtx, cancel := context.WithCancel(ctx)
					done := make(chan struct{})
					go func() { r.RunWithContext(runCtx); close(done) }()
					<-st.synced
					cancel()
					<-done
					if len(st.ListKeys()) != n {
						b.Fatalf("synced %d of %d", len(st.ListKeys()), n)
					}
				}
			})
		}
	}
}

// syncedStore is a store.Store that closes synced after its first Replace: the moment the
// reflector has synced.
type syncedStore struct {
	store.Store
	once   sync.Once
	synced chan struct{}
}

func (s *syncedStore) Replace(list []any, rv string) error {
	err := s.Store.Replace(list, rv)
	s.once.Do(func() { close(s.synced) })
	return err
}
