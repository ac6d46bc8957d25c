package informer

// Integration test: the whole client side (rest.RESTClient → reflector → queue →
// indexer → processor → handlers) against the simulated apiserver over real HTTP. It runs in
// real time, so it waits with bounded polling instead of synctest.

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/labels"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/rest"
)

func httpPod(name string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}}}
}

// serverState is key → RV of the pods in default, as the server has them.
func serverState(t *testing.T, srv *apiserver.Server) map[string]string {
	t.Helper()
	obj, err := srv.List(context.Background(), "pods", "default", api.ListOptions{})
	require.NoError(t, err)
	out := map[string]string{}
	for _, p := range obj.(*api.PodList).Items {
		out[p.Namespace+"/"+p.Name] = p.ResourceVersion
	}
	return out
}

// TestCh08_Integration_HTTP runs a factory's pod informer with two handlers over HTTP, under
// every profile: one LIST+WATCH (or one watch-list) serves both handlers (T11, block 4.17 of
// docs/articles.md); creates, updates and deletes reach both; a delete whose event is dropped,
// followed by compaction and a closed watch, comes back from the relist as a tombstone (T4,
// T9); the lister ends equal to the server (INV-1).
func TestCh08_Integration_HTTP(t *testing.T) {
	for _, p := range profiles {
		t.Run(p.String(), func(t *testing.T) {
			t.Parallel()
			srv := apiserver.NewTestServer(t, apiserver.Options{})
			client, err := rest.RESTClientFor(&rest.Config{Host: srv.URL()})
			require.NoError(t, err)
			ctx := context.Background()
			for _, n := range []string{"a", "b"} {
				_, err := srv.Create(ctx, "pods", "default", httpPod(n))
				require.NoError(t, err)
			}
			_, err = srv.Create(ctx, "pods", "kube-system", &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "kube-system", Name: "other"},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}}})
			require.NoError(t, err)

			f := NewSharedInformerFactoryWithOptions(NewRESTSource(client), 0, WithNamespace("default"), WithProfile(p))
			inf := f.Core().V1().Pods().Informer()
			one, two := newRecorder(), newRecorder()
			for _, h := range []*recorder{one, two} {
				_, err := inf.AddEventHandler(h)
				require.NoError(t, err)
			}
			runCtx, cancel := context.WithCancel(ctx)
			defer func() {
				cancel()
				f.Shutdown()
			}()
			f.StartWithContext(runCtx)
			synced := f.WaitForCacheSyncWithContext(withTimeout(t, 10*time.Second))
			require.Equal(t, map[reflect.Type]bool{reflect.TypeOf(&api.Pod{}): true}, synced.Synced)

			count := func(verb string) int { return srv.RequestCounts()[apiserver.RequestKey{Verb: verb, Resource: "pods"}] }
			eventually(t, "the watch", func() bool { return count("watch") > 0 }) // opened just after the sync
			lists, watches := count("list"), count("watch")
			if p == ProfileCurrent {
				assert.Equal(t, []int{0, 1}, []int{lists, watches}, "one watch-list stream for both handlers")
			} else {
				assert.Equal(t, []int{1, 1}, []int{lists, watches}, "T11: one LIST and one WATCH for both handlers")
			}

			_, err = srv.Create(ctx, "pods", "default", httpPod("c"))
			require.NoError(t, err)
			_, err = srv.Patch(ctx, "pods", "default", "a", api.MergePatchType, []byte(`{"metadata":{"labels":{"x":"1"}}}`))
			require.NoError(t, err)
			_, err = srv.Delete(ctx, "pods", "default", "b", nil)
			require.NoError(t, err)
			eventually(t, "the watch events", func() bool { return two.count() == 5 && one.count() == 5 })
			for _, rec := range []*recorder{one, two} {
				lines := rec.Lines()
				assert.Regexp(t, `^ADD [ab]@\d+ init$`, lines[0])
				assert.Regexp(t, `^ADD [ab]@\d+ init$`, lines[1])
				assert.NotEqual(t, lines[0][:5], lines[1][:5], "a and b")
				assert.Regexp(t, `^ADD c@\d+$`, lines[2])
				assert.Regexp(t, `^UPD a@\d+→a@\d+$`, lines[3])
				assert.Regexp(t, `^DEL b@\d+$`, lines[4])
			}

			srv.DropNextEvents(apiserver.DropRule{Count: 1, Key: "default/c"})
			_, err = srv.Delete(ctx, "pods", "default", "c", nil)
			require.NoError(t, err)
			srv.CompactAll()
			srv.CloseAllWatches()
			eventually(t, "the relist's tombstone, in both handlers", func() bool {
				return hasPrefixLine(one.Lines(), "DEL DFSU(c@") && hasPrefixLine(two.Lines(), "DEL DFSU(c@")
			})

			pods, err := f.Core().V1().Pods().Lister().List(labels.Everything())
			require.NoError(t, err)
			got := map[string]string{}
			for _, p := range pods {
				got[p.Namespace+"/"+p.Name] = p.ResourceVersion
			}
			assert.Equal(t, serverState(t, srv), got, "INV-1 through the lister")
		})
	}
}

// withTimeout is a context that ends after d or with the test.
func withTimeout(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// eventually is a bounded poll for real-time tests.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	require.Eventually(t, cond, 10*time.Second, 5*time.Millisecond, "waiting for %s", what)
}
