package informer

import (
	"context"
	"errors"
	"reflect"
	"sort"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/labels"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/listwatch"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/reflector"
	"github.com/informer-lab/informer-lab/reflector/fakesource"
	"github.com/informer-lab/informer-lab/store"
)

// inProcess is a ListWatchSource over an in-process simulated apiserver, recording what the
// factory asked for.
type inProcess struct {
	srv *apiserver.Server
	mu  sync.Mutex
	// asked records "resource namespace" per ListerWatcher the factory built.
	asked []string
}

func (s *inProcess) ListWatchFor(gvr api.GroupVersionResource, namespace string, tweak func(*api.ListOptions)) listwatch.ListerWatcher {
	s.mu.Lock()
	s.asked = append(s.asked, gvr.Resource+" "+namespace)
	s.mu.Unlock()
	name := gvr.Resource
	if gvr.Group != "" {
		name += "." + gvr.Group
	}
	lw := s.srv.ListerWatcher(name, namespace)
	return &listwatch.ListWatch{
		ListWithContextFunc: func(ctx context.Context, o api.ListOptions) (api.Object, error) {
			tweak(&o)
			return lw.ListWithContext(ctx, o)
		},
		WatchFuncWithContext: func(ctx context.Context, o api.ListOptions) (watch.Interface, error) {
			tweak(&o)
			return lw.WatchWithContext(ctx, o)
		},
	}
}

func (s *inProcess) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.asked...)
}

// newServer starts an in-process apiserver inside the current bubble with a few objects:
// pods a, b in default (b labelled tier=db), pod c in kube-system, configmap cm in default.
func newServer(t *testing.T) *inProcess {
	t.Helper()
	srv := apiserver.New(apiserver.Options{})
	t.Cleanup(srv.Close)
	ctx := context.Background()
	for _, p := range []*api.Pod{
		{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "a"}},
		{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "b", Labels: map[string]string{"tier": "db"}}},
		{ObjectMeta: api.ObjectMeta{Namespace: "kube-system", Name: "c"}},
	} {
		// One container: the server refuses a pod without any (422), as kube-apiserver does.
		p.Spec.Containers = []api.Container{{Name: "c", Image: "nginx"}}
		_, err := srv.Create(ctx, "pods", p.Namespace, p)
		require.NoError(t, err)
	}
	_, err := srv.Create(ctx, "configmaps", "default", &api.ConfigMap{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "cm"}})
	require.NoError(t, err)
	return &inProcess{srv: srv}
}

func (s *inProcess) count(verb, resource string) int {
	return s.srv.RequestCounts()[apiserver.RequestKey{Verb: verb, Resource: resource}]
}

// startFactory starts f in the bubble; the returned stop cancels and waits for Shutdown.
func startFactory(t *testing.T, f SharedInformerFactory) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	f.StartWithContext(ctx)
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			f.Shutdown()
		})
	}
	t.Cleanup(stop)
	synctest.Wait()
	return stop
}

func keysOf[T api.Object](objs []T) []string {
	var out []string
	for _, o := range objs {
		m, _ := api.Accessor(o)
		out = append(out, m.GetNamespace()+"/"+m.GetName())
	}
	sort.Strings(out)
	return out
}

// TestCh08_Factory_FA1_InformerFor: one informer per Go type, built once with the per-type
// resync when configured, the factory transform applied; later calls return it whatever
// newFunc they pass (FA-1).
func TestCh08_Factory_FA1_InformerFor(t *testing.T) {
	var built []string
	newFunc := func(name string) NewInformerFunc {
		return func(_ ListWatchSource, resync time.Duration) SharedIndexInformer {
			built = append(built, name+" "+resync.String())
			return NewSharedIndexInformer(fakesource.New(), &api.Pod{}, resync, store.Indexers{})
		}
	}
	transformed := errors.New("marker")
	f := NewSharedInformerFactoryWithOptions(nil, time.Minute,
		WithCustomResyncConfig(map[api.Object]time.Duration{&api.ConfigMap{}: time.Hour}),
		WithTransform(func(any) (any, error) { return nil, transformed }))
	pods := f.InformerFor(&api.Pod{}, newFunc("pods"))
	again := f.InformerFor(&api.Pod{}, newFunc("other"))
	cms := f.InformerFor(&api.ConfigMap{}, newFunc("configmaps"))
	assert.Same(t, pods, again)
	assert.NotSame(t, pods, cms)
	assert.Equal(t, []string{"pods 1m0s", "configmaps 1h0m0s"}, built)
	tf := pods.(*sharedIndexInformer).transform
	require.NotNil(t, tf, "the factory transform was set")
	_, err := tf(nil)
	assert.ErrorIs(t, err, transformed)
}

// TestCh08_Factory_FA2_FA3_Start: asking for an informer only registers it; Start runs what is
// registered and not yet started, again on each call; after Shutdown, Start does nothing
// (FA-2, FA-3).
func TestCh08_Factory_FA2_FA3_Start(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newServer(t)
		f := NewSharedInformerFactory(s, 0)
		pods := f.Core().V1().Pods().Informer()
		_ = f.Core().V1().Pods().Lister()
		synctest.Wait()
		assert.Zero(t, s.count("list", "pods")+s.count("watch", "pods"), "FA-2: nothing runs before Start")
		assert.Equal(t, []string{"pods "}, s.requests(), "one informer, built once")

		stop := startFactory(t, f)
		assert.True(t, pods.HasSynced())
		podWatches := s.count("watch", "pods")
		require.Positive(t, podWatches)

		cms := f.Core().V1().ConfigMaps().Informer()
		assert.False(t, cms.HasSynced())
		ctx, cancel := context.WithCancel(context.Background())
		f.StartWithContext(ctx)
		synctest.Wait()
		assert.True(t, cms.HasSynced(), "the second Start starts the new informer")
		assert.Equal(t, podWatches, s.count("watch", "pods"), "and only that one")

		cancel()
		stop()
		nss := f.Core().V1().Namespaces().Informer()
		f.Start(make(chan struct{}))
		synctest.Wait()
		assert.False(t, nss.HasSynced(), "Start after Shutdown does nothing")
		assert.Zero(t, s.count("list", "namespaces")+s.count("watch", "namespaces"))
	})
}

// TestCh08_Factory_FA4_WaitForCacheSync: only started informers are waited for; the result says
// per type whether it synced before the context ended (FA-4).
func TestCh08_Factory_FA4_WaitForCacheSync(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newServer(t)
		f := NewSharedInformerFactoryWithOptions(s, 0)
		f.Core().V1().Pods().Informer()
		assert.Empty(t, f.WaitForCacheSync(make(chan struct{})), "nothing started")

		stopCh := make(chan struct{})
		f.Start(stopCh)
		_ = f.Core().V1().Namespaces().Informer() // registered after Start: not waited for
		got := f.WaitForCacheSync(stopCh)
		assert.Equal(t, map[reflect.Type]bool{reflect.TypeOf(&api.Pod{}): true}, got)
		close(stopCh)
		f.Shutdown()
	})
	synctest.Test(t, func(t *testing.T) {
		src := fakesource.New()
		for range 1000 {
			src.FailNextLists(errors.New("apiserver down"))
			src.FailNextWatches(errors.New("apiserver down"))
		}
		f := NewSharedInformerFactory(ListWatchSourceFunc(func(api.GroupVersionResource, string, func(*api.ListOptions)) listwatch.ListerWatcher {
			return src
		}), 0)
		f.Core().V1().Pods().Informer()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		f.StartWithContext(ctx)
		res := f.WaitForCacheSyncWithContext(ctx)
		assert.Equal(t, map[reflect.Type]bool{reflect.TypeOf(&api.Pod{}): false}, res.Synced)
		assert.ErrorIs(t, res.Err, context.DeadlineExceeded)
		f.Shutdown()
	})
}

// TestCh08_Factory_FA5_Shutdown: Shutdown waits for every informer the factory started, which
// the caller stops by cancelling; it is idempotent and safe to call concurrently (FA-5).
func TestCh08_Factory_FA5_Shutdown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newServer(t)
		f := NewSharedInformerFactory(s, 0)
		pods := f.Core().V1().Pods().Informer()
		ctx, cancel := context.WithCancel(context.Background())
		f.StartWithContext(ctx)
		synctest.Wait()

		done := make(chan struct{})
		var wg sync.WaitGroup
		for range 2 {
			wg.Go(f.Shutdown)
		}
		go func() { wg.Wait(); close(done) }()
		synctest.Wait()
		select {
		case <-done:
			t.Fatal("Shutdown returned while an informer was still running")
		default:
		}
		assert.False(t, pods.IsStopped())
		cancel()
		<-done
		assert.True(t, pods.IsStopped())
		f.Shutdown()
	})
}

// TestCh08_Factory_FA6_NamespaceTweakAndIndex: the factory's namespace and tweak reach every
// LIST and WATCH of namespaced kinds, cluster-scoped kinds ignore the namespace, and the
// namespace index is there by default (FA-6).
func TestCh08_Factory_FA6_NamespaceTweakAndIndex(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newServer(t)
		f := NewSharedInformerFactoryWithOptions(s, 0, WithNamespace("default"),
			WithTweakListOptions(func(o *api.ListOptions) { o.LabelSelector = "tier!=db" }))
		pods := f.Core().V1().Pods()
		nss := f.Core().V1().Namespaces()
		pods.Informer()
		nss.Informer()
		stop := startFactory(t, f)
		defer stop()
		assert.ElementsMatch(t, []string{"pods default", "namespaces "}, s.requests())

		got, err := pods.Lister().List(labels.Everything())
		require.NoError(t, err)
		assert.Equal(t, []string{"default/a"}, keysOf(got), "only default, and the tweak's selector")
		assert.Contains(t, pods.Informer().GetIndexer().GetIndexers(), store.NamespaceIndex)
		assert.NotContains(t, nss.Informer().GetIndexer().GetIndexers(), store.NamespaceIndex)
		all, err := nss.Lister().List(labels.Everything())
		require.NoError(t, err)
		assert.Len(t, all, 3, "namespaces are not limited to one namespace")
	})
}

// TestCh08_Factory_FA6_WatchListOptOut: a ListerWatcher that reports no watch-list support is
// listed and watched the classic way (FA-6, LW-2).
func TestCh08_Factory_FA6_WatchListOptOut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := newSource(t, "p1")
		f := NewSharedInformerFactory(ListWatchSourceFunc(func(api.GroupVersionResource, string, func(*api.ListOptions)) listwatch.ListerWatcher {
			return fakesource.NoWatchList{Source: src}
		}), 0)
		inf := f.Core().V1().Pods().Informer()
		stop := startFactory(t, f)
		defer stop()
		assert.True(t, inf.HasSynced())
		assert.Equal(t, 1, src.Count("LIST"))
		for _, c := range src.Calls() {
			assert.False(t, c.IsWatchList())
		}
	})
}

// TestCh08_Factory_FA7_HandlerSyncIsSeparate: the factory's WaitForCacheSync says nothing about
// handlers: a slow handler's registration is still unsynced; wait on it with WaitFor (FA-7).
func TestCh08_Factory_FA7_HandlerSyncIsSeparate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newServer(t)
		f := NewSharedInformerFactory(s, 0)
		gate := make(chan struct{})
		slow := newRecorder()
		slow.gate = gate
		reg, err := f.Core().V1().Pods().Informer().AddEventHandler(slow)
		require.NoError(t, err)
		stop := startFactory(t, f)
		defer stop()
		synced := f.WaitForCacheSync(make(chan struct{}))
		assert.True(t, synced[reflect.TypeOf(&api.Pod{})])
		assert.False(t, reg.HasSynced())

		go func() {
			time.Sleep(time.Second)
			close(gate)
		}()
		assert.True(t, WaitFor(context.Background(), "handlers", reg.HasSyncedChecker()))
		assert.Len(t, slow.Lines(), 3)
	})
}

// TestCh08_Factory_ForResourceAndListers: ForResource gives the typed informer for built-in
// kinds (the same instance as Core().V1()) and an Unstructured one for any other served
// resource; listers read the cache; a malformed resource is an error.
func TestCh08_Factory_ForResourceAndListers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newServer(t)
		_, err := s.srv.Create(context.Background(), "deployments.apps", "default", &api.Unstructured{Object: map[string]any{
			"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "web", "namespace": "default"},
			"spec": map[string]any{
				"selector": map[string]any{"matchLabels": map[string]any{"app": "web"}},
				"template": map[string]any{
					"metadata": map[string]any{"labels": map[string]any{"app": "web"}},
					"spec":     map[string]any{"containers": []any{map[string]any{"name": "web", "image": "nginx"}}},
				},
			}}})
		require.NoError(t, err)
		f := NewSharedInformerFactory(s, 0)
		podsGI, err := f.ForResource(api.GroupVersionResource{Version: "v1", Resource: "pods"})
		require.NoError(t, err)
		assert.Same(t, f.Core().V1().Pods().Informer(), podsGI.Informer())
		deploys, err := f.ForResource(api.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"})
		require.NoError(t, err)
		again, err := f.ForResource(api.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"})
		require.NoError(t, err)
		assert.Same(t, deploys.Informer(), again.Informer())
		_, err = f.ForResource(api.GroupVersionResource{Resource: "pods"})
		assert.Error(t, err)

		stop := startFactory(t, f)
		defer stop()
		res := f.WaitForCacheSyncWithContext(context.Background())
		assert.Equal(t, map[reflect.Type]bool{reflect.TypeOf(&api.Pod{}): true, reflect.TypeOf(&api.Unstructured{}): true}, res.Synced)
		assert.NoError(t, res.Err)

		d, err := deploys.Lister().ByNamespace("default").Get("web")
		require.NoError(t, err)
		assert.Equal(t, "Deployment", d.(*api.Unstructured).GetKind())

		podLister := f.Core().V1().Pods().Lister()
		p, err := podLister.ByNamespace("kube-system").Get("c")
		require.NoError(t, err)
		assert.Equal(t, "c", p.Name)
		_, err = podLister.ByNamespace("default").Get("missing")
		assert.Error(t, err)
		inDefault, err := podLister.ByNamespace("default").List(labels.Everything())
		require.NoError(t, err)
		assert.Equal(t, []string{"default/a", "default/b"}, keysOf(inDefault))
		generic, err := podsGI.Lister().List(labels.Everything())
		require.NoError(t, err)
		assert.Len(t, generic, 3)
	})
}

// TestCh08_Factory_RegistrationSurvivesStart is a guard for FA-7's advice: a handler added to a
// factory informer before Start is a pre-start listener; one added after is a late handler with
// synthetic adds. Both end synced.
func TestCh08_Factory_RegistrationSurvivesStart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newServer(t)
		f := NewSharedInformerFactory(s, 0)
		inf := f.Core().V1().ConfigMaps().Informer()
		early, err := inf.AddEventHandler(newRecorder())
		require.NoError(t, err)
		stop := startFactory(t, f)
		defer stop()
		rec := newRecorder()
		late, err := inf.AddEventHandler(rec)
		require.NoError(t, err)
		assert.True(t, WaitFor(context.Background(), "", early.HasSyncedChecker(), late.HasSyncedChecker()))
		assert.Equal(t, []string{"ADD cm@" + rvOf(mustGet(t, inf, "default/cm")) + " init"}, rec.Lines())
		assert.True(t, processor.IsDone(late.HasSyncedChecker()))
	})
}

func mustGet(t *testing.T, inf SharedIndexInformer, key string) any {
	t.Helper()
	obj, ok, err := inf.GetStore().GetByKey(key)
	require.NoError(t, err)
	require.True(t, ok, key)
	return obj
}

// TestCh08_Factory_NilSourceIsAnError: a factory without a source, or a REST source without a
// client, is not a panic: its informers report the problem and never sync.
func TestCh08_Factory_NilSourceIsAnError(t *testing.T) {
	for name, src := range map[string]ListWatchSource{"nil source": nil, "nil client": NewRESTSource(nil)} {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := NewSharedInformerFactory(src, 0)
				inf := f.Core().V1().Pods().Informer()
				var mu sync.Mutex
				var errs []error
				require.NoError(t, inf.SetWatchErrorHandler(func(_ *reflector.Reflector, err error) {
					mu.Lock()
					defer mu.Unlock()
					errs = append(errs, err)
				}))
				ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
				defer cancel()
				f.StartWithContext(ctx)
				res := f.WaitForCacheSyncWithContext(ctx)
				assert.False(t, res.Synced[reflect.TypeOf(&api.Pod{})])
				f.Shutdown()
				mu.Lock()
				defer mu.Unlock()
				require.NotEmpty(t, errs)
				assert.Contains(t, errs[0].Error(), "informer: ")
			})
		})
	}
}
