package controllerruntime_test

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	toolscache "k8s.io/client-go/tools/cache"
	clientgoworkqueue "k8s.io/client-go/util/workqueue"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/apiserver"
	cr "github.com/informer-lab/informer-lab/interop/controllerruntime"
	ourworkqueue "github.com/informer-lab/informer-lab/workqueue"
)

// TestCh15_CacheIsSharedIndexInformers: the manager's cache is a map of client-go
// SharedIndexInformers, one per kind, like the SharedInformerFactory of chapter 08 (whose
// map article 5's SharedInformer section reads). The informer For(&Foo{}) started is a
// SharedIndexInformer: its Store (chapter 03) holds the typed Foo under the key
// "default/example-foo", its Indexer carries the namespace index, and asking again returns
// the same informer. Each informer is one Reflector: one WATCH per kind (a watch-list, so no
// LIST), whatever the number of handlers and readers.
func TestCh15_CacheIsSharedIndexInformers(t *testing.T) {
	cl := startCluster(t)
	run := cl.startController(t, "ch15-cache", controller.Options{}, nil)
	ctx := context.Background()
	require.NoError(t, cl.direct.Create(ctx, newFoo("example-foo", "example-foo", 1)))
	run.waitApplied(t, "example-foo", 1)

	informer, err := run.mgr.GetCache().GetInformer(ctx, &cr.Foo{})
	require.NoError(t, err)
	sii, ok := informer.(toolscache.SharedIndexInformer)
	require.True(t, ok, "the cache's informer is a %T", informer)
	assert.True(t, sii.HasSynced())
	assert.Contains(t, sii.GetStore().ListKeys(), "default/example-foo", "the key function is MetaNamespaceKeyFunc")
	obj, exists, err := sii.GetStore().GetByKey("default/example-foo")
	require.NoError(t, err)
	require.True(t, exists)
	assert.IsType(t, &cr.Foo{}, obj, "decoded through the scheme into the registered type")
	assert.Contains(t, sii.GetIndexer().GetIndexers(), toolscache.NamespaceIndex)
	inNamespace, err := sii.GetIndexer().ByIndex(toolscache.NamespaceIndex, "default")
	require.NoError(t, err)
	assert.Len(t, inNamespace, 1)

	again, err := run.mgr.GetCache().GetInformer(ctx, &cr.Foo{})
	require.NoError(t, err)
	assert.Same(t, sii, again, "one informer per kind, as the factory's InformerFor")
	deployments, err := run.mgr.GetCache().GetInformer(ctx, &appsv1.Deployment{})
	require.NoError(t, err)
	assert.NotSame(t, sii, deployments)

	for _, resource := range []string{"foos.samplecontroller.k8s.io", "deployments.apps"} {
		assert.Equal(t, 0, cl.requests(resource, "list"), "%s: watch-list, no LIST", resource)
		assert.Equal(t, 1, cl.requests(resource, "watch"), "%s: one Reflector", resource)
	}
}

// TestCh15_ClientReadsComeFromTheCache: the manager's client reads from the informers'
// Indexers, as a Lister does (chapter 03), with no request to the server; its
// APIReader goes to the server. Unlike a Lister it hands out a deep copy, so mutating what Get
// returned leaves the cache alone (chapter 12's never-mutate-cache, done for you). And a
// cached read of a kind nobody watched quietly starts an informer for it: a WATCH of
// ConfigMaps appears, and stays for the manager's lifetime.
func TestCh15_ClientReadsComeFromTheCache(t *testing.T) {
	cl := startCluster(t)
	run := cl.startController(t, "ch15-client-reads", controller.Options{}, nil)
	ctx := context.Background()
	require.NoError(t, cl.direct.Create(ctx, newFoo("read-me", "read-me", 1)))
	run.waitApplied(t, "read-me", 1)
	key := types.NamespacedName{Namespace: "default", Name: "read-me"}

	gets := cl.requests("foos.samplecontroller.k8s.io", "get")
	foo := &cr.Foo{}
	require.NoError(t, run.mgr.GetClient().Get(ctx, key, foo))
	list := &cr.FooList{}
	require.NoError(t, run.mgr.GetClient().List(ctx, list, client.InNamespace("default")))
	assert.Len(t, list.Items, 1)
	assert.Equal(t, gets, cl.requests("foos.samplecontroller.k8s.io", "get"), "Get served from the cache")
	assert.Zero(t, cl.requests("foos.samplecontroller.k8s.io", "list"), "List served from the namespace index")
	require.NoError(t, run.mgr.GetAPIReader().Get(ctx, key, &cr.Foo{}))
	assert.Equal(t, gets+1, cl.requests("foos.samplecontroller.k8s.io", "get"), "the APIReader asks the server")

	foo.Labels = map[string]string{"mutated": "yes"}
	again := &cr.Foo{}
	require.NoError(t, run.mgr.GetClient().Get(ctx, key, again))
	assert.Empty(t, again.Labels, "Get returned a deep copy")
	informer, err := run.mgr.GetCache().GetInformer(ctx, &cr.Foo{})
	require.NoError(t, err)
	cached, _, err := informer.(toolscache.SharedIndexInformer).GetStore().GetByKey("default/read-me")
	require.NoError(t, err)
	assert.Empty(t, cached.(*cr.Foo).Labels, "the cached object is untouched")

	assert.Zero(t, cl.requests("configmaps", "watch"), "nobody watches ConfigMaps yet")
	require.NoError(t, run.mgr.GetClient().List(ctx, &corev1.ConfigMapList{}, client.InNamespace("default")))
	assert.Equal(t, 1, cl.requests("configmaps", "watch"), "the read started an informer")
	assert.Zero(t, cl.requests("configmaps", "list"))
}

// limiter is what both workqueue packages' rate limiters have in common for this test.
type limiter interface {
	When(reconcile.Request) time.Duration
}

// whenInTurn asks each limiter in turn for the delay of each request: out[l][i] is
// limiters[l]'s answer for reqs[i].
func whenInTurn(limiters []limiter, reqs []reconcile.Request) [][]time.Duration {
	out := make([][]time.Duration, len(limiters))
	for i := range out {
		out[i] = make([]time.Duration, len(reqs))
	}
	for j, r := range reqs {
		for i, l := range limiters {
			out[i][j] = l.When(r)
		}
	}
	return out
}

func requests(prefix string, n int, distinct bool) []reconcile.Request {
	out := make([]reconcile.Request, n)
	for i := range out {
		name := prefix
		if distinct {
			name = fmt.Sprintf("%s-%03d", prefix, i)
		}
		out[i] = reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "default", Name: name}}
	}
	return out
}

// TestCh15_QueueAndRateLimiter: the controller's queue is a typed rate-limiting workqueue of
// reconcile.Request (chapter 09), and its rate limiter decides every retry's delay. Which
// queue and which limiter depends on one option:
//
//   - by default (v0.25) it is controller-runtime's own priority queue, and the limiter is the
//     per-item exponential backoff alone (5 ms doubling to 1000 s), with no overall token
//     bucket: 120 keys failing at once all wait 5 ms;
//   - with UsePriorityQueue false it is client-go's NewTypedRateLimitingQueueWithConfig with
//     DefaultTypedControllerRateLimiter, our workqueue's default too: the same exponential
//     backoff, and a bucket of 100 tokens refilled at 10 per second, so once 100 retries
//     have been asked for, each further key waits about 100 ms more. Its delays match ours
//     (and client-go's), asked in turn: equal while the bucket has tokens, then within the
//     few milliseconds that pass between two calls.
func TestCh15_QueueAndRateLimiter(t *testing.T) {
	cl := startCluster(t)
	exponential := []time.Duration{5, 10, 20, 40, 80, 160}
	for i := range exponential {
		exponential[i] *= time.Millisecond
	}
	cases := []struct {
		name             string
		usePriorityQueue *bool
		foo              string
		wantQueue        string // the queue's type, or for a wrapped queue the wrapped one's
		wantBucket       bool
	}{
		{name: "default", foo: "queue-a", wantQueue: "priorityqueue.priorityqueue"},
		{name: "UsePriorityQueue=false", usePriorityQueue: ptr.To(false), foo: "queue-b", wantQueue: "workqueue.rateLimitingType", wantBucket: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			run := cl.startController(t, "ch15-queue-"+tc.name, controller.Options{UsePriorityQueue: tc.usePriorityQueue}, nil)
			require.NoError(t, cl.direct.Create(context.Background(), newFoo(tc.foo, tc.foo, 1)))
			run.waitApplied(t, tc.foo, 1)

			assert.Contains(t, queueTypeName(run.queue(t)), tc.wantQueue)
			field := reflect.ValueOf(run.ctrl).Elem().FieldByName("RateLimiter")
			crLimiter, ok := field.Interface().(clientgoworkqueue.TypedRateLimiter[reconcile.Request])
			require.True(t, ok, "RateLimiter is a %s", field.Type())

			// One key failing again and again: the same backoff everywhere. Each limiter then
			// answers for 120 keys failing once each, where only the token bucket tells them
			// apart (the bucket has lost 6 tokens to the first key by then, in all three).
			// The three are asked in turn for each key, so that they see the same clock.
			limiters := []limiter{crLimiter,
				ourworkqueue.DefaultTypedControllerRateLimiter[reconcile.Request](),
				clientgoworkqueue.DefaultTypedControllerRateLimiter[reconcile.Request]()}
			one := whenInTurn(limiters, requests("one", len(exponential), false))
			for i, name := range []string{"controller-runtime's", "ours", "client-go's"} {
				assert.Equal(t, exponential, one[i], name)
			}

			many := whenInTurn(limiters, requests("many", 120, true))
			got, ours, clientgo := many[0], many[1], many[2]
			if !tc.wantBucket {
				assert.Equal(t, slices.Repeat([]time.Duration{5 * time.Millisecond}, len(got)), got, "no overall bucket")
				return
			}
			for i := range got {
				assert.InDelta(t, ours[i], got[i], float64(50*time.Millisecond), "key %d: ours %v, controller-runtime's %v", i, ours[i], got[i])
				assert.InDelta(t, clientgo[i], got[i], float64(50*time.Millisecond), "key %d: client-go's %v, controller-runtime's %v", i, clientgo[i], got[i])
			}
			assert.Equal(t, 5*time.Millisecond, got[93], "the 94th key takes the bucket's last token")
			assert.Greater(t, got[119], 2*time.Second, "the 120th waits for the bucket")
		})
	}
}

// queueTypeName is q's type, or the wrapped queue's when controller-runtime wrapped a plain
// rate-limiting queue to give it the priority queue's methods.
func queueTypeName(q any) string {
	v := reflect.ValueOf(q).Elem()
	if v.Kind() == reflect.Struct && v.Type().Name() != "" && v.NumField() > 0 && v.Type().Field(0).Anonymous {
		if inner := v.Field(0); inner.Kind() == reflect.Interface && !inner.IsNil() {
			return reflect.TypeOf(inner.Interface()).String()
		}
	}
	return reflect.TypeOf(q).String()
}

// hopRecorder is a slog.Handler that keeps "op key result" of our components' Debug hops.
type hopRecorder struct {
	mu   sync.Mutex
	hops []string
}

func (h *hopRecorder) Enabled(context.Context, slog.Level) bool { return true }
func (h *hopRecorder) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *hopRecorder) WithGroup(string) slog.Handler            { return h }
func (h *hopRecorder) Handle(_ context.Context, r slog.Record) error {
	var op, key, result string
	r.Attrs(func(a slog.Attr) bool {
		switch a.Key {
		case "op":
			op = a.Value.String()
		case "key":
			key = a.Value.String()
		case "result":
			result = a.Value.String()
		}
		return true
	})
	h.mu.Lock()
	h.hops = append(h.hops, strings.TrimSpace(op+" "+key+" "+result))
	h.mu.Unlock()
	return nil
}

func (h *hopRecorder) list() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.hops)
}

// TestCh15_OurWorkqueueRunsTheController: controller-runtime's queue option takes any
// client-go TypedRateLimitingInterface, and our workqueue (chapter 09) has the same method
// set, so it can stand in for client-go's. The Foo controller then runs on our queue with
// controller-runtime's rate limiter, and our queue's trace shows the key's way through the
// dirty and processing sets (chapter 09): queued, taken by a worker, added again by the
// events of the reconcile's own writes (deferred while processing), forgotten after the
// success, and queued again by Done.
func TestCh15_OurWorkqueueRunsTheController(t *testing.T) {
	cl := startCluster(t)
	hops := &hopRecorder{}
	opts := controller.Options{
		UsePriorityQueue: ptr.To(false),
		// Called once, when the controller starts, with the rate limiter it defaulted.
		NewQueue: func(name string, rl clientgoworkqueue.TypedRateLimiter[reconcile.Request]) clientgoworkqueue.TypedRateLimitingInterface[reconcile.Request] {
			return ourworkqueue.NewTypedRateLimitingQueueWithConfig[reconcile.Request](rl,
				ourworkqueue.TypedRateLimitingQueueConfig[reconcile.Request]{Name: name, Logger: slog.New(hops)})
		},
	}
	run := cl.startController(t, "ch15-our-workqueue", opts, nil)
	require.NoError(t, cl.direct.Create(context.Background(), newFoo("ours", "ours", 1)))
	run.waitApplied(t, "ours", 1)

	// Observe runs inside Reconcile; controller-runtime's Forget and Done come after it.
	waitFor(t, "the first Done", func() bool {
		return slices.ContainsFunc(hops.list(), func(h string) bool { return strings.HasPrefix(h, "done default/ours") })
	})
	wrapped := reflect.ValueOf(run.queue(t)).Elem().Field(0).Interface()
	assert.Equal(t, "github.com/informer-lab/informer-lab/workqueue", reflect.TypeOf(wrapped).Elem().PkgPath())
	var mine []string
	for _, h := range hops.list() {
		if f := strings.Fields(h); len(f) >= 2 && f[1] == "default/ours" {
			mine = append(mine, h)
		}
	}
	done := slices.IndexFunc(mine, func(h string) bool { return strings.HasPrefix(h, "done ") })
	require.GreaterOrEqual(t, done, 3, "%v", mine)
	assert.Equal(t, []string{"add default/ours queued", "get default/ours"}, mine[:2], "the informer's add, a worker's get")
	// A successful reconcile forgets the key's failures, then Done. The reconcile's own writes
	// come back as events while the key is processing, before or after the Forget: the first
	// add is deferred to Done (the key joins dirty, not the queue), the next find it dirty.
	var adds []string
	forgets := 0
	for _, h := range mine[2:done] {
		if h == "forget default/ours" {
			forgets++
			continue
		}
		adds = append(adds, h)
	}
	assert.Equal(t, 1, forgets, "one Forget before Done: %v", mine)
	for i, h := range adds {
		want := "add default/ours dirty"
		if i == 0 {
			want = "add default/ours deferred"
		}
		assert.Equal(t, want, h, "%v", mine)
	}
	if len(adds) > 0 {
		assert.Equal(t, "done default/ours requeued", mine[done], "%v", mine)
	} else {
		assert.Equal(t, "done default/ours finished", mine[done], "%v", mine)
	}
}

// deletes records the Foo delete events a predicate saw: name → DeleteStateUnknown.
type deletes struct {
	mu   sync.Mutex
	seen map[string][]bool
}

func (d *deletes) predicate() predicate.Predicate {
	return predicate.Funcs{DeleteFunc: func(e event.DeleteEvent) bool {
		d.mu.Lock()
		defer d.mu.Unlock()
		if d.seen == nil {
			d.seen = map[string][]bool{}
		}
		d.seen[e.Object.GetName()] = append(d.seen[e.Object.GetName()], e.DeleteStateUnknown)
		return true
	}}
}

func (d *deletes) of(name string) []bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.seen[name])
}

// TestCh15_ReconcilerGetsOnlyAKey: a Reconciler is handed a reconcile.Request, a namespace
// and a name, as chapter 10's sync handler is handed a key; never the object or the event.
// A deleted Foo reaches it as its key and a NotFound from the cache, whether the informer saw
// the DELETED event or, the event lost, found the Foo missing after a relist and delivered a
// tombstone (DeletedFinalStateUnknown, chapter 04). controller-runtime unwraps the tombstone
// before any handler or predicate runs: only event.DeleteEvent's DeleteStateUnknown tells the
// two apart.
func TestCh15_ReconcilerGetsOnlyAKey(t *testing.T) {
	cases := []struct {
		name      string
		loseEvent bool
	}{
		{name: "DELETED seen"},
		{name: "DELETED lost, relist", loseEvent: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cl := startCluster(t)
			seen := &deletes{}
			run := cl.startController(t, "ch15-key-"+fmt.Sprint(tc.loseEvent), controller.Options{}, nil, seen.predicate())
			ctx := context.Background()
			require.NoError(t, cl.direct.Create(ctx, newFoo("gone", "gone-web", 1)))
			run.waitApplied(t, "gone", 1)
			foo := &cr.Foo{}
			require.NoError(t, cl.get(t, "gone", foo))

			if tc.loseEvent {
				cl.env.Server.DropNextEvents(apiserver.DropRule{Count: 1, Key: "default/gone", Type: watch.Deleted})
			}
			require.NoError(t, cl.direct.Delete(ctx, foo))
			if tc.loseEvent {
				// The informer missed the delete; a compaction and a closed watch make it relist
				// (410 Expired on the resumed watch, then a watch-list), and the Foo is missing.
				cl.env.Server.CompactAll()
				cl.env.Server.CloseAllWatches()
			}
			waitFor(t, "the key's reconcile after the delete", func() bool { return run.calls.count("gone", cr.ResultFooGone) > 0 })
			assert.Equal(t, []bool{tc.loseEvent}, seen.of("gone"), "DeleteStateUnknown")
			for _, c := range run.calls.all() {
				assert.Equal(t, reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "default", Name: "gone"}}, c.Req)
			}
			d := &appsv1.Deployment{}
			require.NoError(t, cl.get(t, "gone-web", d), "no garbage collector runs: the Deployment stays")
			assert.Equal(t, foo.UID, metav1.GetControllerOf(d).UID)
		})
	}
}

// notifications records what a predicate saw of the Foos: creates with IsInInitialList,
// and updates that change nothing (the old and new resourceVersion equal: a resync).
type notifications struct {
	mu      sync.Mutex
	creates map[string][]bool
	resyncs map[string]int
}

func (n *notifications) predicate() predicate.Predicate {
	return predicate.Funcs{
		CreateFunc: func(e event.CreateEvent) bool {
			n.mu.Lock()
			defer n.mu.Unlock()
			n.creates[e.Object.GetName()] = append(n.creates[e.Object.GetName()], e.IsInInitialList)
			return true
		},
		UpdateFunc: func(e event.UpdateEvent) bool {
			n.mu.Lock()
			defer n.mu.Unlock()
			if e.ObjectOld.GetResourceVersion() == e.ObjectNew.GetResourceVersion() {
				n.resyncs[e.ObjectNew.GetName()]++
			}
			return true
		},
	}
}

func (n *notifications) get() (map[string][]bool, map[string]int) {
	n.mu.Lock()
	defer n.mu.Unlock()
	return maps.Clone(n.creates), maps.Clone(n.resyncs)
}

// TestCh15_HiddenInitialListAndResync: two things chapter 08 shows and controller-runtime
// does without a word. The handler source.Kind registers late, after the informer has
// listed, gets the initial list as Add notifications (chapter 08's late handler): a Foo
// created before the manager started arrives as a create with IsInInitialList, one created
// after as a plain create. And every informer of the cache resyncs (SyncPeriod, 10 hours
// by default, here 1 s): an update whose old and new objects have the same resourceVersion
// goes through the predicates to the queue, and Reconcile runs again with nothing changed.
func TestCh15_HiddenInitialListAndResync(t *testing.T) {
	cl := startCluster(t)
	ctx := context.Background()
	require.NoError(t, cl.direct.Create(ctx, newFoo("early", "early", 1)))

	seen := &notifications{creates: map[string][]bool{}, resyncs: map[string]int{}}
	opts := managerOptions()
	opts.Cache.SyncPeriod = ptr.To(time.Second) // client-go's minimum resync period
	run := cl.startController(t, "ch15-hidden", controller.Options{}, &opts, seen.predicate())
	// Workers start once the handler has been registered and has seen the initial list, so
	// after a reconcile every new Foo is a live event. (Created between the informer's sync
	// and the registration, a Foo would still come as part of the handler's initial list.)
	run.waitApplied(t, "early", 1)
	require.NoError(t, cl.direct.Create(ctx, newFoo("late", "late", 1)))
	run.waitApplied(t, "late", 1)
	creates, _ := seen.get()
	assert.Equal(t, map[string][]bool{"early": {true}, "late": {false}}, creates)

	early := &cr.Foo{}
	require.NoError(t, cl.get(t, "early", early))
	applied := run.calls.count("early", cr.ResultApplied)
	waitFor(t, "a resync of early", func() bool {
		_, resyncs := seen.get()
		return resyncs["early"] > 0 && run.calls.count("early", cr.ResultApplied) > applied
	})
	again := &cr.Foo{}
	require.NoError(t, cl.get(t, "early", again))
	assert.Equal(t, early.ResourceVersion, again.ResourceVersion, "a resync writes nothing, and its reconcile neither")
}
