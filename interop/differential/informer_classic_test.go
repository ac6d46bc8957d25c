package differential

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/interop/internal/wiretest"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/rest"
	"github.com/informer-lab/informer-lab/store"
)

// The Classic informer differential: our non-shared informer with ProfileClassic (DeltaFIFO
// with KnownObjects and Replaced deltas, LIST then WATCH, the handler called on processLoop's
// goroutine, docs/behaviour/client-go.md C-14) against the informer client-go v0.37.2 still lets one assemble by
// hand: cache.NewDeltaFIFOWithOptions (KnownObjects = a cache.Indexer, EmitDeltaTypeReplaced)
// in a cache.New low-level controller. This is what client-go's own NewInformerWithOptions
// built up to v0.32, before the InOrderInformers gate.
//
// client-go's processDeltas is unexported, so the client-go side's Process func is written
// here from docs/behaviour/client-go.md C-5/C-6 (cache presence decides add versus update; a Deleted delta is
// deleted from the cache and always reaches OnDelete). Everything else on that side, the
// Reflector, the DeltaFIFO and the controller's processLoop, is client-go's.
//
// Watch-list is off on the client-go side through client-go's per-client opt-out, not the
// process-wide WatchListClient gate (which the Current differential needs on): a
// ListerWatcher whose IsWatchListSemanticsUnSupported reports true makes
// NewReflectorWithOptions ignore the gate (util/watchlist.DoesClientNotSupportWatchListSemantics).
// The initial sync asserts that the client-go side really sent a LIST.
//
// The scripts are the Current differential's (genInformer, infSide.step) without its late
// handler, which a non-shared informer does not have. Within one step the notifications are
// compared in delivery order, not as a multiset: with DeltaFIFO on an empty queue a relist
// delivers the listed objects in LIST order (the simulator lists in key order) and then the
// tombstones of the vanished keys (docs/behaviour/client-go.md §14, DF-7), whose order among themselves comes from
// Go map iteration and is the only thing left unordered (takeOrdered).

// classicOp is one script step. Draw seeds the writes a dropRelist drops; it is fixed when
// the script is drawn, so a shrunk script drops the same writes as the original.
type classicOp struct {
	infOp
	Draw uint64
}

func (op classicOp) String() string {
	if op.Kind == "dropRelist" {
		return fmt.Sprintf("%s [draw %d]", op.infOp, op.Draw)
	}
	return op.infOp.String()
}

func genClassic(seed uint64) []classicOp {
	var ops []classicOp
	for i, op := range genInformer(newRand(seed)) {
		if op.Kind == "lateHandler" {
			continue
		}
		ops = append(ops, classicOp{infOp: op, Draw: seed*1000 + uint64(i)})
	}
	return ops
}

// takeOrdered returns and clears what was recorded during one step in delivery order,
// except that each run of consecutive tombstone deletes is sorted (see above).
func (n *notes) takeOrdered() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := n.list
	n.list = nil
	isTomb := func(s string) bool { return strings.HasPrefix(s, "delete ") && strings.HasSuffix(s, " tombstone") }
	for i := 0; i < len(out); {
		j := i
		for j < len(out) && isTomb(out[j]) {
			j++
		}
		if j > i {
			slices.Sort(out[i:j])
			i = j
		} else {
			i++
		}
	}
	return out
}

// classicSide is one Classic informer and its simulator.
type classicSide struct {
	*infSide
	hasSynced func() bool
}

// classicObs is what one step shows on one side.
type classicObs struct {
	Step      infObs
	HasSynced bool
}

func (s *classicSide) step(t *testing.T, op classicOp, i int) classicObs {
	return classicObs{Step: s.infSide.step(t, op.infOp, i, newRand(op.Draw)), HasSynced: s.hasSynced()}
}

func startOurClassicInformer(t *testing.T, env *wiretest.Env) *classicSide {
	rc, err := rest.RESTClientFor(&rest.Config{Host: env.URL})
	require.NoError(t, err)
	lw := informer.NewRESTSource(rc).ListWatchFor(api.GroupVersionResource{Version: "v1", Resource: "pods"}, "", nil)
	n := &notes{}
	st, ctrl := informer.NewInformerWithOptions(informer.InformerOptions{
		ListerWatcher: lw,
		ObjectType:    &api.Pod{},
		Handler:       processor.ResourceEventHandlerDetailedFuncs{AddFunc: n.onAdd, UpdateFunc: n.onUpdate, DeleteFunc: n.onDelete},
		Indexers:      store.Indexers{store.NamespaceIndex: store.MetaNamespaceIndexFunc},
		Profile:       informer.ProfileClassic,
	})
	s := &infSide{env: env, handlers: []*notes{n}, ordered: true}
	s.cache = func() map[string]string { return rvs(st.List()) }
	s.lastRV = ctrl.LastSyncResourceVersion
	s.stop = runCtx(ctrl.RunWithContext)
	return &classicSide{infSide: s, hasSynced: ctrl.HasSynced}
}

// startOurClassicSharedInformer is our SharedIndexInformer with ProfileClassic and one
// handler: the same queue and processDeltas, with the processor between them and the handler.
func startOurClassicSharedInformer(t *testing.T, env *wiretest.Env) *classicSide {
	rc, err := rest.RESTClientFor(&rest.Config{Host: env.URL})
	require.NoError(t, err)
	lw := informer.NewRESTSource(rc).ListWatchFor(api.GroupVersionResource{Version: "v1", Resource: "pods"}, "", nil)
	inf := informer.NewSharedIndexInformerWithOptions(lw, &api.Pod{}, informer.SharedIndexInformerOptions{
		Indexers: store.Indexers{store.NamespaceIndex: store.MetaNamespaceIndexFunc},
		Profile:  informer.ProfileClassic,
	})
	n := &notes{}
	_, err = inf.AddEventHandler(processor.ResourceEventHandlerDetailedFuncs{AddFunc: n.onAdd, UpdateFunc: n.onUpdate, DeleteFunc: n.onDelete})
	require.NoError(t, err)
	s := &infSide{env: env, handlers: []*notes{n}, ordered: true}
	s.cache = func() map[string]string { return rvs(inf.GetStore().List()) }
	s.lastRV = inf.LastSyncResourceVersion
	s.stop = runCtx(inf.RunWithContext)
	return &classicSide{infSide: s, hasSynced: inf.HasSynced}
}

// listThenWatch is client-go's opt-out of watch-list for one ListerWatcher (see above).
type listThenWatch struct{ *cache.ListWatch }

func (listThenWatch) IsWatchListSemanticsUnSupported() bool { return true }

func startClientGoClassicInformer(t *testing.T, env *wiretest.Env) *classicSide {
	pods := env.Clientset(t).CoreV1().Pods(metav1.NamespaceAll)
	lw := listThenWatch{&cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
			return pods.List(ctx, o)
		},
		WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			return pods.Watch(ctx, o)
		},
	}}
	indexer := cache.NewIndexer(cache.DeletionHandlingMetaNamespaceKeyFunc,
		cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	fifo := cache.NewDeltaFIFOWithOptions(cache.DeltaFIFOOptions{
		KeyFunction:           cache.MetaNamespaceKeyFunc,
		KnownObjects:          indexer,
		EmitDeltaTypeReplaced: true,
	})
	n := &notes{}
	var h cache.ResourceEventHandler = cache.ResourceEventHandlerDetailedFuncs{
		AddFunc: n.onAdd, UpdateFunc: n.onUpdate, DeleteFunc: n.onDelete}
	ctrl := cache.New(&cache.Config{
		Queue:         fifo,
		ListerWatcher: lw,
		ObjectType:    &corev1.Pod{},
		Process: func(popped any, isInInitialList bool) error {
			deltas, ok := popped.(cache.Deltas)
			if !ok {
				return fmt.Errorf("popped %T, not cache.Deltas", popped)
			}
			for _, d := range deltas { // oldest first
				switch d.Type {
				case cache.Deleted: // C-6: may be a tombstone; no "was it cached?" check
					if err := indexer.Delete(d.Object); err != nil {
						return err
					}
					h.OnDelete(d.Object)
				case cache.Added, cache.Updated, cache.Replaced, cache.Sync: // C-5: the cache decides
					old, cached, err := indexer.Get(d.Object)
					if err == nil && cached {
						if err := indexer.Update(d.Object); err != nil {
							return err
						}
						h.OnUpdate(old, d.Object)
						continue
					}
					if err := indexer.Add(d.Object); err != nil {
						return err
					}
					h.OnAdd(d.Object, isInInitialList)
				default: // a DeltaFIFO makes no ReplacedAll, SyncAll or Bookmark deltas
					return fmt.Errorf("unexpected %s delta from a DeltaFIFO", d.Type)
				}
			}
			return nil
		},
	})
	s := &infSide{env: env, handlers: []*notes{n}, ordered: true}
	s.cache = func() map[string]string { return rvs(indexer.List()) }
	s.lastRV = ctrl.LastSyncResourceVersion
	s.stop = runCtx(ctrl.RunWithContext)
	return &classicSide{infSide: s, hasSynced: ctrl.HasSynced}
}

// playClassic runs one script through both Classic informers, each against its own
// simulator, and returns the first step after which they differ (nil when they agree).
// step is -1 when the initial syncs already differ.
func playClassic(t *testing.T, ours func(*testing.T, *wiretest.Env) *classicSide, ops []classicOp) *mismatch {
	var sides [2]*classicSide
	for j, start := range []func(*testing.T, *wiretest.Env) *classicSide{ours, startClientGoClassicInformer} {
		env := wiretest.Start(t, apiserver.Options{})
		seedServer(t, env.Server)
		sides[j] = start(t, env)
		defer sides[j].stop() // before the simulator's own cleanup
	}
	var initial [2]classicObs
	for j, s := range sides {
		poll(t, "the initial sync", func() bool { return maps.Equal(s.cache(), serverRVs(t, s.env.Server)) })
		initial[j] = s.step(t, classicOp{infOp: infOp{Kind: "sync"}}, 0)
	}
	require.Equal(t, 1, initial[1].Step.Counts["list"], "client-go must sync with a LIST, not a watch-list")
	if d := cmp.Diff(initial[0], initial[1]); d != "" {
		return &mismatch{step: -1, diff: d}
	}
	for i, op := range ops {
		o, th := sides[0].step(t, op, i+1), sides[1].step(t, op, i+1)
		if d := cmp.Diff(o, th); d != "" {
			return &mismatch{step: i, diff: d}
		}
		require.Equal(t, serverRVs(t, sides[0].env.Server), o.Step.Cache, "step %d: our cache is not the server's state", i+1)
	}
	return nil
}

// TestDifferential_InformerClassicVsClientGoDeltaFIFO: with ProfileClassic, our informer's
// notifications (type, key, RV, isInInitialList, tombstone; in delivery order), its cache,
// HasSynced and the LIST/WATCH counts are the same, after every step, as those of a client-go
// v0.37.2 DeltaFIFO controller, for every seeded script of writes, dropped events,
// compactions (410 and relist) and closed watches (docs/behaviour/client-go.md §5, §7, §14, DF-4, DF-5, DF-7, C-5,
// C-6). "ours" is our non-shared informer (NewInformerWithOptions, the same shape as the
// client-go side) and, separately, our SharedIndexInformer with one handler.
// A mismatch is shrunk by replaying sub-scripts (each replay starts fresh simulators, whose
// resourceVersions are deterministic) and reported with its seed.
func TestDifferential_InformerClassicVsClientGoDeltaFIFO(t *testing.T) {
	for _, v := range []struct {
		name string
		ours func(*testing.T, *wiretest.Env) *classicSide
	}{
		{"NewInformer", startOurClassicInformer},
		{"SharedIndexInformer", startOurClassicSharedInformer},
	} {
		run := func(t *testing.T, ops []classicOp) *mismatch { return playClassic(t, v.ours, ops) }
		sc := scenario[classicOp]{name: "informer classic " + v.name, run: run, format: classicOp.String}
		for _, seed := range seeds() {
			t.Run(fmt.Sprintf("%s/seed=%d", v.name, seed), func(t *testing.T) {
				t.Parallel()
				ops := genClassic(seed)
				mm := run(t, ops)
				if mm == nil {
					return
				}
				if mm.step < 0 {
					t.Fatalf("%s, seed %d: initial sync differs (-ours +client-go):\n%s", v.name, seed, mm.diff)
				}
				ops, mm = shrink(t, sc, ops, mm)
				var b strings.Builder
				for i, op := range ops {
					fmt.Fprintf(&b, "  %2d. %s\n", i+1, op)
				}
				t.Fatalf("%s, seed %d differs from client-go after step %d\nminimal script:\n%sdiff (-ours +client-go):\n%s\nreplay: go test ./differential -run 'TestDifferential_InformerClassicVsClientGoDeltaFIFO/%s' -seed %d -v",
					v.name, seed, mm.step+1, b.String(), mm.diff, v.name, seed)
			})
		}
	}
}
