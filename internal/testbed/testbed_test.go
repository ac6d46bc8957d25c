package testbed_test

import (
	"context"
	"errors"
	"os"
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
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/internal/leakcheck"
	"github.com/informer-lab/informer-lab/internal/testbed"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/store"
)

// TestMain fails the package if a goroutine of the pipeline outlives the tests; the synctest
// bubbles check themselves, this catches the real-time HTTP test.
func TestMain(m *testing.M) {
	const lab = "informer-lab/informer-lab/"
	os.Exit(leakcheck.Main(m, lab+"informer.", lab+"reflector.", lab+"processor.", lab+"workqueue.",
		lab+"apiserver.", lab+"listwatch.", lab+"rest.", lab+"rest/watch.", lab+"internal/testbed.", lab+"controller."))
}

func pod(ns, name string) *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name},
		Spec:       api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx"}}},
	}
}

// enqueuer is the handler of a controller: every notification becomes its key.
type enqueuer struct{ ctl *testbed.Controller }

func (e enqueuer) add(obj any) {
	if key, err := store.DeletionHandlingMetaNamespaceKeyFunc(obj); err == nil {
		e.ctl.Queue.Add(key)
	}
}
func (e enqueuer) OnAdd(obj any, _ bool)  { e.add(obj) }
func (e enqueuer) OnUpdate(_, newObj any) { e.add(newObj) }
func (e enqueuer) OnDelete(obj any)       { e.add(obj) }

// syncs records what a controller's reconcile saw.
type syncs struct {
	mu      sync.Mutex
	keys    []string
	workers map[int]bool
}

func (s *syncs) reconcile(ctx context.Context, key string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.keys = append(s.keys, key)
	s.workers[testbed.Worker(ctx)] = true
	return nil
}

// TestTestbed_InProcess: the in-process assembly (contract 1, 2, 4, 5): namespaces made at New,
// an informer of one namespace with its handler, a controller whose numbered workers reconcile
// every key the handler enqueues, and a Close that leaves no goroutine in the bubble.
func TestTestbed_InProcess(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tb, err := testbed.New(testbed.Options{Namespaces: []string{"a", "b"}})
		require.NoError(t, err)
		defer tb.Close()
		assert.Empty(t, tb.URL)
		assert.Nil(t, tb.REST)
		ctx := context.Background()
		for _, p := range []*api.Pod{pod("a", "x"), pod("b", "y")} {
			_, err := tb.Server.Create(ctx, "pods", p.Namespace, p)
			require.NoError(t, err)
		}

		inf, err := tb.NewInformer(testbed.InformerOptions{Profile: informer.ProfileCurrent, Namespace: "a",
			Indexers: store.Indexers{store.NamespaceIndex: store.MetaNamespaceIndexFunc}})
		require.NoError(t, err)
		assert.Same(t, inf, tb.Informer())
		got := &syncs{workers: map[int]bool{}}
		ctl := tb.NewController("pods", got.reconcile)
		reg, err := tb.AddHandler("enqueue", enqueuer{ctl}, nil)
		require.NoError(t, err)
		require.NoError(t, tb.RunInformer(ctx))
		require.True(t, informer.WaitForCacheSync(ctx.Done(), inf.HasSynced, reg.HasSynced))
		ctl.Start(ctx, 2)

		_, err = tb.Server.Create(ctx, "pods", "a", pod("a", "z"))
		require.NoError(t, err)
		synctest.Wait()

		cached, err := tb.Pods().ByNamespace("a").Get("z")
		require.NoError(t, err)
		assert.Equal(t, "z", cached.Name)
		_, err = tb.Pods().ByNamespace("b").Get("y")
		assert.True(t, api.IsNotFound(err), "the informer watches namespace a only")
		got.mu.Lock()
		defer got.mu.Unlock()
		assert.ElementsMatch(t, []string{"a/x", "a/z"}, got.keys)
		for w := range got.workers {
			assert.Contains(t, []int{1, 2}, w, "workers are numbered from 1")
		}
		assert.Zero(t, testbed.Worker(ctx), "outside a worker")
	})
}

// TestTestbed_LoopHooks: a testbed controller runs controller.Loop, with the hooks and
// MaxRetries its caller sets (contract 4): two retries, then a give-up and the report.
func TestTestbed_LoopHooks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tb, err := testbed.New(testbed.Options{})
		require.NoError(t, err)
		defer tb.Close()
		var mu sync.Mutex
		var events []string
		note := func(s string) {
			mu.Lock()
			events = append(events, s)
			mu.Unlock()
		}
		boom := errors.New("boom")
		ctl := tb.NewController("failing", func(context.Context, string) error { return boom })
		ctl.Loop.MaxRetries = 2
		ctl.Loop.OnRetry = func(_ context.Context, key string, requeues int, err error) {
			note(key + " retry " + strconv.Itoa(requeues) + " " + err.Error())
		}
		ctl.Loop.OnGiveUp = func(_ context.Context, key string, err error) { note(key + " give up " + err.Error()) }
		ctl.Loop.HandleError = func(key string, err error) { note(key + " reported " + err.Error()) }
		ctl.Start(context.Background(), 1)
		ctl.Queue.Add("k")
		time.Sleep(time.Second) // virtual: every backoff of the default limiter has passed
		synctest.Wait()
		mu.Lock()
		defer mu.Unlock()
		assert.Equal(t, []string{"k retry 0 boom", "k retry 1 boom", "k give up boom", "k reported boom"}, events)
		assert.Zero(t, ctl.Queue.NumRequeues("k"), "given up keys are forgotten")
	})
}

// TestTestbed_WatchFilter: the client-side fault hook sees every watch (contract 3). A server
// that never ends the watch-list's initial list keeps a watch-list informer from syncing.
func TestTestbed_WatchFilter(t *testing.T) {
	for _, drop := range []bool{false, true} {
		t.Run(map[bool]string{false: "pass-through", true: "DropInitialEventsEnd"}[drop], func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var mu sync.Mutex
				watches := 0
				tb, err := testbed.New(testbed.Options{WatchFilter: func(w watch.Interface) watch.Interface {
					mu.Lock()
					watches++
					mu.Unlock()
					if drop {
						return testbed.DropInitialEventsEnd(w)
					}
					return w
				}})
				require.NoError(t, err)
				defer tb.Close()
				_, err = tb.Server.Create(context.Background(), "pods", "default", pod("default", "x"))
				require.NoError(t, err)
				inf, err := tb.NewInformer(testbed.InformerOptions{Profile: informer.ProfileCurrent})
				require.NoError(t, err)
				require.NoError(t, tb.RunInformer(context.Background()))
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				synced := informer.WaitForCacheSync(ctx.Done(), inf.HasSynced)
				assert.Equal(t, !drop, synced)
				mu.Lock()
				assert.Positive(t, watches)
				mu.Unlock()
				tb.StopInformer()
			})
		})
	}
}

// TestTestbed_HTTP: with Listen the server serves HTTP, the REST client connects, and the
// informer lists and watches through it (contract 1, 2); Close stops it all, which TestMain
// checks.
func TestTestbed_HTTP(t *testing.T) {
	tb, err := testbed.New(testbed.Options{Listen: "127.0.0.1:0", UserAgent: "testbed-test", Namespaces: []string{"demo"},
		Server: apiserver.Options{WatchBufferSize: 64}})
	require.NoError(t, err)
	defer tb.Close()
	require.NotEmpty(t, tb.URL)
	require.NotNil(t, tb.REST)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err = tb.Server.Create(ctx, "pods", "demo", pod("demo", "web"))
	require.NoError(t, err)

	inf, err := tb.NewInformer(testbed.InformerOptions{Profile: informer.ProfileClassic, Namespace: "demo"})
	require.NoError(t, err)
	require.NoError(t, tb.RunInformer(ctx))
	require.True(t, informer.WaitForCacheSync(ctx.Done(), inf.HasSynced))
	cached, err := tb.Pods().ByNamespace("demo").Get("web")
	require.NoError(t, err)
	assert.Equal(t, "web", cached.Name)
	assert.Positive(t, tb.Server.RequestCounts()[apiserver.RequestKey{Verb: "list", Resource: "pods"}],
		"the informer listed over HTTP")
	tb.Close()
	tb.Close() // a second Close does nothing
}

// TestTestbed_Misuse: steps out of order are errors, not panics.
func TestTestbed_Misuse(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, err := testbed.New(testbed.Options{Namespaces: []string{"a", "a"}})
		assert.ErrorContains(t, err, "creating namespace a")

		tb, err := testbed.New(testbed.Options{})
		require.NoError(t, err)
		defer tb.Close()
		_, err = tb.AddHandler("h", processor.ResourceEventHandlerFuncs{}, nil)
		assert.ErrorContains(t, err, "before NewInformer")
		assert.ErrorContains(t, tb.RunInformer(context.Background()), "before NewInformer")
		tb.StopInformer() // not running: nothing to do

		_, err = tb.NewInformer(testbed.InformerOptions{})
		require.NoError(t, err)
		_, err = tb.NewInformer(testbed.InformerOptions{})
		assert.ErrorContains(t, err, "already exists")
		require.NoError(t, tb.RunInformer(context.Background()))
		assert.ErrorContains(t, tb.RunInformer(context.Background()), "already running")

		ctl := tb.NewController("never-started", func(context.Context, string) error { return nil })
		ctl.Stop()
		ctl.Stop()
		assert.True(t, ctl.Queue.ShuttingDown())
	})
}
