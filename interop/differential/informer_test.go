package differential

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/interop/internal/wiretest"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/rest"
	"github.com/informer-lab/informer-lab/store"
)

// The informer differential: our ProfileCurrent SharedIndexInformer and a stock client-go
// v0.37.2 pod informer each run against their own simulator, and both simulators get the
// same script of writes and faults, so every resourceVersion is the same on both sides.
//
// After every step the runner waits until the step's effects are complete on both sides
// (bounded polls, no sleeps): a fault step waits for the informer to open a new watch, then
// every step writes a marker pod (namespace "zz") and waits until every handler has been
// notified of it. A handler's notifications arrive in order, so once it has seen the marker
// it has seen everything the step caused. Notifications are therefore compared step by step,
// exactly across steps and as a sorted multiset within one step. A step with more than one
// notification is a snapshot, and client-go promises no order inside one: its watch-list
// reflector collects the initial events in a map-backed temporary store and hands the
// informer that store's List (Go map order), processReplacedAllInfo finds vanished keys by
// walking the cache's map, and a late handler's initial adds come from the cache's List
// (docs/behaviour/client-go.md C-7, SI-14). A single write always makes exactly one notification per handler.

// informerWait bounds each wait. A relist waits out the reflector's backoff (client-go:
// 800 ms doubling to 30 s, plus jitter), so it must exceed 30 s.
const informerWait = 60 * time.Second

type infOp struct {
	Kind string // create update delete closeWatches dropRelist lateHandler
	Name string
	N    int // dropRelist: how many writes are dropped
}

func (op infOp) String() string {
	switch op.Kind {
	case "closeWatches", "lateHandler":
		return op.Kind
	case "dropRelist":
		return fmt.Sprintf("dropRelist(%d dropped writes, then CompactAll+CloseAllWatches)", op.N)
	}
	return op.Kind + "(" + op.Name + ")"
}

func genInformer(r *rand.Rand) []infOp {
	var ops []infOp
	late, faults := false, 0
	for range 8 + r.IntN(8) {
		name := fmt.Sprintf("p%d", r.IntN(6))
		p := r.IntN(100)
		if p >= 65 && p < 92 {
			if faults >= 3 { // keep the backoff short: at most 3 closed watches per script
				p = r.IntN(65)
			}
			faults++
		}
		switch {
		case p < 25:
			ops = append(ops, infOp{Kind: "create", Name: name})
		case p < 50:
			ops = append(ops, infOp{Kind: "update", Name: name})
		case p < 65:
			ops = append(ops, infOp{Kind: "delete", Name: name})
		case p < 75:
			ops = append(ops, infOp{Kind: "closeWatches"})
		case p < 92:
			ops = append(ops, infOp{Kind: "dropRelist", N: 1 + r.IntN(3)})
		default:
			if !late {
				late = true
				ops = append(ops, infOp{Kind: "lateHandler"})
			}
		}
	}
	return ops
}

// notes records one handler's notifications as "add ns/name rv initial", "update ns/name
// old→new", "delete ns/name rv", and the last RV of the marker pod.
type notes struct {
	mu       sync.Mutex
	list     []string
	markerRV string
}

func metaOf(o any) (key, rv string) {
	type accessor interface {
		GetNamespace() string
		GetName() string
		GetResourceVersion() string
	}
	if p, ok := o.(*api.Pod); ok {
		return p.Namespace + "/" + p.Name, p.ResourceVersion
	}
	if a, ok := o.(accessor); ok {
		return a.GetNamespace() + "/" + a.GetName(), a.GetResourceVersion()
	}
	return fmt.Sprintf("?%T", o), ""
}

func (n *notes) record(kind string, o any, extra func(key, rv string) string) {
	key, rv := metaOf(o)
	n.mu.Lock()
	defer n.mu.Unlock()
	if strings.HasPrefix(key, "zz/") {
		if kind != "delete" {
			n.markerRV = rv
		}
		return
	}
	n.list = append(n.list, kind+" "+extra(key, rv))
}

func (n *notes) onAdd(o any, initial bool) {
	n.record("add", o, func(k, rv string) string { return fmt.Sprintf("%s %s initial=%v", k, rv, initial) })
}

func (n *notes) onUpdate(old, o any) {
	_, oldRV := metaOf(old)
	n.record("update", o, func(k, rv string) string { return fmt.Sprintf("%s %s→%s", k, oldRV, rv) })
}

func (n *notes) onDelete(o any) {
	tomb := ""
	switch t := o.(type) {
	case store.DeletedFinalStateUnknown:
		o, tomb = t.Obj, " tombstone"
	case cache.DeletedFinalStateUnknown:
		o, tomb = t.Obj, " tombstone"
	}
	n.record("delete", o, func(k, rv string) string { return k + " " + rv + tomb })
}

// take returns and clears what was recorded during one step, sorted (see above).
func (n *notes) take() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := n.list
	n.list = nil
	slices.Sort(out)
	return out
}

func (n *notes) marker() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.markerRV
}

// infSide is one informer and its simulator.
type infSide struct {
	env      *wiretest.Env
	handlers []*notes
	addLate  func(*notes)
	cache    func() map[string]string
	lastRV   func() string
	stop     func()
	// ordered keeps each step's notifications in delivery order, sorting only runs of
	// tombstones (see takeOrdered); false sorts the whole step (see take).
	ordered bool
}

func startOurInformer(t *testing.T, env *wiretest.Env) *infSide {
	rc, err := rest.RESTClientFor(&rest.Config{Host: env.URL})
	require.NoError(t, err)
	lw := informer.NewRESTSource(rc).ListWatchFor(api.GroupVersionResource{Version: "v1", Resource: "pods"}, "", nil)
	inf := informer.NewSharedIndexInformerWithOptions(lw, &api.Pod{}, informer.SharedIndexInformerOptions{
		Indexers: store.Indexers{store.NamespaceIndex: store.MetaNamespaceIndexFunc},
		Profile:  informer.ProfileCurrent,
	})
	s := &infSide{env: env}
	s.addLate = func(n *notes) {
		_, err := inf.AddEventHandler(processor.ResourceEventHandlerDetailedFuncs{
			AddFunc: n.onAdd, UpdateFunc: n.onUpdate, DeleteFunc: n.onDelete})
		require.NoError(t, err)
		s.handlers = append(s.handlers, n)
	}
	s.addLate(&notes{})
	s.cache = func() map[string]string { return rvs(inf.GetStore().List()) }
	s.lastRV = inf.LastSyncResourceVersion
	s.stop = runCtx(inf.RunWithContext)
	return s
}

func startClientGoInformer(t *testing.T, env *wiretest.Env) *infSide {
	f := informers.NewSharedInformerFactory(env.Clientset(t), 0)
	inf := f.Core().V1().Pods().Informer()
	s := &infSide{env: env}
	s.addLate = func(n *notes) {
		_, err := inf.AddEventHandler(cache.ResourceEventHandlerDetailedFuncs{
			AddFunc: n.onAdd, UpdateFunc: n.onUpdate, DeleteFunc: n.onDelete})
		require.NoError(t, err)
		s.handlers = append(s.handlers, n)
	}
	s.addLate(&notes{})
	s.cache = func() map[string]string { return rvs(inf.GetStore().List()) }
	s.lastRV = inf.LastSyncResourceVersion
	ctx, cancel := context.WithCancel(context.Background())
	f.Start(ctx.Done())
	s.stop = func() { cancel(); f.Shutdown() }
	return s
}

func runCtx(fn func(context.Context)) func() {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); fn(ctx) }()
	return func() { cancel(); <-done }
}

func rvs(objs []any) map[string]string {
	out := make(map[string]string, len(objs))
	for _, o := range objs {
		k, rv := metaOf(o)
		out[k] = rv
	}
	return out
}

func serverRVs(t *testing.T, srv *apiserver.Server) map[string]string {
	obj, err := srv.List(context.Background(), "pods", "", api.ListOptions{})
	require.NoError(t, err)
	out := map[string]string{}
	for _, p := range obj.(*api.PodList).Items {
		out[p.Namespace+"/"+p.Name] = p.ResourceVersion
	}
	return out
}

func pod(ns, name string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns, Labels: map[string]string{"app": "diff"}},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx:1.27"}}}}
}

func poll(t *testing.T, what string, cond func() bool) {
	t.Helper()
	err := wait.PollUntilContextTimeout(context.Background(), 2*time.Millisecond, informerWait, true,
		func(context.Context) (bool, error) { return cond(), nil })
	require.NoError(t, err, "waiting for %s", what)
}

// write applies one write to a simulator; an error (create of an existing pod, update or
// delete of a missing one) is part of the script and happens on both sides alike.
func write(srv *apiserver.Server, kind, name string, step int) string {
	ctx := context.Background()
	var err error
	switch kind {
	case "create":
		_, err = srv.Create(ctx, "pods", "default", pod("default", name))
	case "update":
		_, err = srv.Patch(ctx, "pods", "default", name, api.MergePatchType,
			fmt.Appendf(nil, `{"metadata":{"labels":{"step":"%d"}}}`, step))
	case "delete":
		_, err = srv.Delete(ctx, "pods", "default", name, nil)
	}
	return errString(err)
}

func maxWatcherID(srv *apiserver.Server) uint64 {
	var m uint64
	for _, w := range srv.Watchers() {
		m = max(m, w.ID)
	}
	return m
}

// infObs is what one step shows on one side.
type infObs struct {
	WriteErrs []string
	Notes     [][]string // per handler
	Cache     map[string]string
	Counts    map[string]int // LIST and WATCH requests for pods so far
}

func (s *infSide) step(t *testing.T, op infOp, i int, r *rand.Rand) infObs {
	srv := s.env.Server
	var obs infObs
	before := maxWatcherID(srv)
	switch op.Kind {
	case "create", "update", "delete":
		obs.WriteErrs = append(obs.WriteErrs, write(srv, op.Kind, op.Name, i))
	case "closeWatches":
		srv.CloseAllWatches()
	case "dropRelist":
		srv.DropNextEvents(apiserver.DropRule{Count: op.N})
		kinds := []string{"create", "update", "delete"}
		for j := range op.N {
			// Writes that fail write no event and would leave the rule armed: use updates of
			// the marker's neighbour, which always exists, when the drawn write fails.
			k := kinds[r.IntN(3)]
			name := fmt.Sprintf("p%d", r.IntN(6))
			e := write(srv, k, name, i*10+j)
			if e != "" {
				e = write(srv, "update", "anchor", i*10+j)
			}
			obs.WriteErrs = append(obs.WriteErrs, k+" "+name+" "+e)
		}
		srv.CompactAll()
		srv.CloseAllWatches()
	case "lateHandler":
		s.addLate(&notes{})
	}
	if op.Kind == "closeWatches" || op.Kind == "dropRelist" {
		poll(t, "a new watch", func() bool { return maxWatcherID(srv) > before })
	}
	_, err := srv.Patch(context.Background(), "pods", "zz", "marker", api.MergePatchType,
		fmt.Appendf(nil, `{"metadata":{"labels":{"step":"%d"}}}`, i))
	require.NoError(t, err)
	want := strconv.FormatUint(srv.ResourceVersion(), 10)
	for _, h := range s.handlers {
		poll(t, "handler to see the marker at "+want, func() bool { return h.marker() == want })
	}
	for _, h := range s.handlers {
		if s.ordered {
			obs.Notes = append(obs.Notes, h.takeOrdered())
		} else {
			obs.Notes = append(obs.Notes, h.take())
		}
	}
	obs.Cache = s.cache()
	obs.Counts = map[string]int{}
	for _, r := range s.env.Recorder.ResourceRequests("pods") { // HTTP only: not our in-process reads
		if v := r.Verb(); v == "list" || v == "watch" {
			obs.Counts[v]++
		}
	}
	return obs
}

func seedServer(t *testing.T, srv *apiserver.Server) {
	ctx := context.Background()
	_, err := srv.Create(ctx, "namespaces", "", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "zz"}})
	require.NoError(t, err)
	for _, p := range []*api.Pod{pod("zz", "marker"), pod("default", "anchor"), pod("default", "p0"), pod("default", "p1")} {
		_, err := srv.Create(ctx, "pods", p.Namespace, p)
		require.NoError(t, err)
	}
}

// TestDifferential_InformerCurrentVsClientGo: per-handler notification sequences (type, key,
// RV, isInInitialList, tombstone), the final cache and the LIST/WATCH counts are the same as
// a stock client-go v0.37.2 informer's for every seeded script of writes, dropped events,
// compactions, closed watches and a late handler (docs/behaviour/client-go.md §8, §14, C-5 … C-9, SI-14, W12, T10).
func TestDifferential_InformerCurrentVsClientGo(t *testing.T) {
	for _, seed := range seeds() {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			t.Parallel()
			ops := genInformer(newRand(seed))
			sides := [2]*infSide{}
			for j, start := range []func(*testing.T, *wiretest.Env) *infSide{startOurInformer, startClientGoInformer} {
				env := wiretest.Start(t, apiserver.Options{})
				seedServer(t, env.Server)
				sides[j] = start(t, env)
				t.Cleanup(sides[j].stop)
			}
			var initial [2]infObs
			for j, s := range sides {
				poll(t, "the initial sync", func() bool {
					return maps.Equal(s.cache(), serverRVs(t, s.env.Server))
				})
				initial[j] = s.step(t, infOp{Kind: "sync"}, 0, nil)
			}
			var script strings.Builder
			if d := cmp.Diff(initial[0], initial[1]); d != "" {
				t.Fatalf("seed %d: initial sync differs (-ours +client-go):\n%s", seed, d)
			}
			for i, op := range ops {
				fmt.Fprintf(&script, "  %2d. %s\n", i+1, op)
				// Both sides draw the dropped writes from the same generator state.
				r0, r1 := newRand(seed*1000+uint64(i)), newRand(seed*1000+uint64(i))
				o, th := sides[0].step(t, op, i+1, r0), sides[1].step(t, op, i+1, r1)
				if d := cmp.Diff(o, th); d != "" {
					t.Fatalf("seed %d differs from client-go after step %d\nscript:\n%sdiff (-ours +client-go):\n%s\nreplay: go test ./differential -run 'TestDifferential_InformerCurrentVsClientGo' -seed %d -v",
						seed, i+1, script.String(), d, seed)
				}
				require.Equal(t, serverRVs(t, sides[0].env.Server), o.Cache, "step %d: our cache is not the server's state", i+1)
			}
		})
	}
}
