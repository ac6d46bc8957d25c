package informer

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/reflector"
	"github.com/informer-lab/informer-lab/reflector/fakesource"
	"github.com/informer-lab/informer-lab/store"
)

// newShared builds a shared informer of profile p over src, with one recorder registered
// before start.
func newShared(t *testing.T, src *fakesource.Source, opts SharedIndexInformerOptions) (*sharedIndexInformer, *recorder, processor.ResourceEventHandlerRegistration) {
	t.Helper()
	inf := NewSharedIndexInformerWithOptions(src, &api.Pod{}, opts).(*sharedIndexInformer)
	rec := newRecorder()
	reg, err := inf.AddEventHandler(rec)
	require.NoError(t, err)
	return inf, rec, reg
}

// TestCh08_SharedInformer_SI1_Construction: the cache keys tombstones by their key and has the
// given indexes; both resync periods start as the constructor's (SI-1).
func TestCh08_SharedInformer_SI1_Construction(t *testing.T) {
	byNode := func(obj any) ([]string, error) { return []string{obj.(*api.Pod).Spec.NodeName}, nil }
	inf := NewSharedIndexInformer(newSource(t), &api.Pod{}, 30*time.Second, store.Indexers{"node": byNode}).(*sharedIndexInformer)
	assert.Equal(t, 30*time.Second, inf.resyncCheckPeriod)
	assert.Equal(t, 30*time.Second, inf.defaultEventHandlerResyncPeriod)
	assert.Contains(t, inf.GetIndexer().GetIndexers(), "node")
	assert.Same(t, inf.GetIndexer(), inf.GetStore())

	require.NoError(t, inf.GetIndexer().Add(pod("a", "1")))
	require.NoError(t, inf.GetIndexer().Delete(store.DeletedFinalStateUnknown{Key: "ns/a"}))
	assert.Empty(t, inf.GetIndexer().ListKeys(), "K-3: a tombstone is keyed by its Key")

	plain := NewSharedInformer(newSource(t), &api.Pod{}, 0)
	assert.Empty(t, plain.(*sharedIndexInformer).GetIndexer().GetIndexers())
}

// TestCh08_SharedInformer_SI2_RunOnce: a second Run returns at once, while the first runs and
// after it stopped (SI-2).
func TestCh08_SharedInformer_SI2_RunOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := newSource(t, "p1")
		inf, rec, _ := newShared(t, src, SharedIndexInformerOptions{})
		r := runInBubble(t, inf.RunWithContext)
		inf.RunWithContext(context.Background()) // returns at once
		inf.Run(make(chan struct{}))
		assert.Equal(t, []string{"ADD p1@1 init"}, rec.Lines())
		r.stop()
		inf.RunWithContext(context.Background())
		assert.Equal(t, 1, src.Count("WATCH"), "no second reflector")
	})
}

// TestCh08_SharedInformer_SI3_RunWiring: Run gives the reflector the (normalised) check period
// and the processor's ShouldResync; after Run returns the processor and every listener have
// stopped, no handler runs, and nothing can be added (SI-3, INV-26).
func TestCh08_SharedInformer_SI3_RunWiring(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := newSource(t, "p1")
		inf := NewSharedIndexInformerWithOptions(src, &api.Pod{}, SharedIndexInformerOptions{ResyncPeriod: 12 * time.Hour})
		fast, never := newRecorder(), newRecorder()
		_, err := inf.AddEventHandlerWithResyncPeriod(fast, 5*time.Second)
		require.NoError(t, err)
		_, err = inf.AddEventHandlerWithResyncPeriod(never, 0)
		require.NoError(t, err)
		r := runInBubble(t, inf.RunWithContext)
		advance(5 * time.Second)
		assert.Equal(t, []string{"ADD p1@1 init", "UPD p1@1→p1@1"}, fast.Lines(), "the reflector checks every 5 s, not 12 h")
		assert.Equal(t, []string{"ADD p1@1 init"}, never.Lines(), "ShouldResync flags only the due listener")

		r.stop()
		assert.True(t, inf.IsStopped())
		mustModify(t, src, pod("p1", ""))
		synctest.Wait()
		assert.Len(t, fast.Lines(), 2, "no callback after Run returned")
		_, err = inf.AddEventHandler(newRecorder())
		assert.Error(t, err)
		assert.Error(t, inf.AddIndexers(store.Indexers{"x": store.MetaNamespaceIndexFunc}))
	})
}

// TestCh08_SharedInformer_SI4_HasSynced: false before Run, a latch once the initial list was
// handed out, and false for good if Run stopped first (SI-4).
func TestCh08_SharedInformer_SI4_HasSynced(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		inf, _, _ := newShared(t, newSource(t, "p1"), SharedIndexInformerOptions{})
		assert.False(t, inf.HasSynced())
		r := runInBubble(t, inf.RunWithContext)
		assert.True(t, inf.HasSynced())
		assert.True(t, processor.IsDone(inf.HasSyncedChecker()))
		r.stop()
		assert.True(t, inf.HasSynced(), "stays true after stop")
	})
	synctest.Test(t, func(t *testing.T) {
		src := newSource(t, "p1")
		for range 100 {
			src.FailNextLists(errors.New("apiserver down"))
		}
		inf, _, reg := newShared(t, src, SharedIndexInformerOptions{UseWatchList: ptrTo(false)})
		r := runInBubble(t, inf.RunWithContext)
		advance(10 * time.Second)
		r.stop()
		assert.False(t, inf.HasSynced(), "stopped before syncing")
		assert.False(t, reg.HasSynced())
	})
}

// TestCh08_SharedInformer_SI5_SettersAfterStart: SetTransform and SetWatchErrorHandler refuse a
// started informer; AddIndexers works until it stopped, indexing what is cached, and refuses a
// name clash (SI-5, TS-12).
func TestCh08_SharedInformer_SI5_SettersAfterStart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := newSource(t)
		mustAdd(t, src, labelled("a", "", map[string]string{"app": "web"}))
		inf, _, _ := newShared(t, src, SharedIndexInformerOptions{})
		require.NoError(t, inf.SetTransform(func(o any) (any, error) { return o, nil }))
		require.NoError(t, inf.SetWatchErrorHandler(func(*reflector.Reflector, error) {}))
		require.NoError(t, inf.SetWatchErrorHandlerWithContext(func(context.Context, *reflector.Reflector, error) {}))
		assert.Error(t, inf.SetWatchErrorHandler(nil), "nil is refused, not a panic at the first error")
		assert.Error(t, inf.SetWatchErrorHandlerWithContext(nil))

		r := runInBubble(t, inf.RunWithContext)
		assert.Error(t, inf.SetTransform(nil))
		assert.Error(t, inf.SetWatchErrorHandler(func(*reflector.Reflector, error) {}))
		assert.Error(t, inf.SetWatchErrorHandlerWithContext(func(context.Context, *reflector.Reflector, error) {}))

		byApp := func(obj any) ([]string, error) { return []string{obj.(*api.Pod).Labels["app"]}, nil }
		require.NoError(t, inf.AddIndexers(store.Indexers{"app": byApp}), "allowed while running (v0.30+)")
		keys, err := inf.GetIndexer().IndexKeys("app", "web")
		require.NoError(t, err)
		assert.Equal(t, []string{"ns/a"}, keys, "existing items are indexed")
		assert.Error(t, inf.AddIndexers(store.Indexers{"app": byApp}), "name clash")
		r.stop()
		assert.Error(t, inf.AddIndexers(store.Indexers{"other": byApp}), "refused once stopped")
	})
}

// TestCh08_SharedInformer_SI5_TransformAndWatchErrorHandler: the transform and the watch error
// handler set before Run are the ones the queue and the reflector use.
func TestCh08_SharedInformer_SI5_TransformAndWatchErrorHandler(t *testing.T) {
	for _, p := range profiles {
		t.Run(p.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				src := newSource(t, "p1")
				src.FailNextLists(errors.New("first list fails"))
				src.FailNextWatches(errors.New("first watch fails"))
				inf, _, _ := newShared(t, src, SharedIndexInformerOptions{Profile: p})
				var mu sync.Mutex
				var errs []error
				require.NoError(t, inf.SetWatchErrorHandler(func(_ *reflector.Reflector, err error) {
					mu.Lock()
					defer mu.Unlock()
					errs = append(errs, err)
				}))
				require.NoError(t, inf.SetTransform(func(obj any) (any, error) {
					p := obj.(*api.Pod).DeepCopyObject().(*api.Pod)
					p.Annotations = map[string]string{"seen-by": "transform"}
					return p, nil
				}))
				r := runInBubble(t, inf.RunWithContext)
				defer r.stop()
				waitUntil(t, "sync", inf.HasSynced)
				for _, obj := range inf.GetStore().List() {
					assert.Equal(t, "transform", obj.(*api.Pod).Annotations["seen-by"])
				}
				mu.Lock()
				defer mu.Unlock()
				assert.NotEmpty(t, errs, "the handler heard of the failure")
			})
		})
	}
}

// TestCh08_SharedInformer_SI6_LastSyncResourceVersion: "" until Run, then the reflector's
// (SI-6); the dummy controller reports the same (SI-7).
func TestCh08_SharedInformer_SI6_SI7_RVAndDummyController(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := newSource(t, "p1", "p2")
		inf, _, _ := newShared(t, src, SharedIndexInformerOptions{})
		assert.Empty(t, inf.LastSyncResourceVersion())
		ctl := inf.GetController()
		ctl.Run(make(chan struct{})) // the dummy does nothing and returns
		ctl.RunWithContext(context.Background())
		assert.False(t, ctl.HasSynced())
		assert.Zero(t, src.Count("LIST")+src.Count("WATCH"))

		r := runInBubble(t, inf.RunWithContext)
		defer r.stop()
		assert.Equal(t, "2", inf.LastSyncResourceVersion())
		assert.Equal(t, "2", ctl.LastSyncResourceVersion())
		assert.True(t, ctl.HasSynced())
		assert.True(t, processor.IsDone(ctl.HasSyncedChecker()))
		mustAdd(t, src, pod("a", ""))
		synctest.Wait()
		assert.Equal(t, "3", inf.LastSyncResourceVersion())
	})
}

// checkingHandler asserts, at every call, that the cache already holds the notified state or a
// newer one (INV-9: cache first, then notify).
type checkingHandler struct {
	t       *testing.T
	indexer store.Indexer
	mu      sync.Mutex
	bad     []string
}

func (h *checkingHandler) check(kind string, obj any, wantPresent bool) {
	key := keyOf(obj)
	cached, exists, _ := h.indexer.GetByKey(key)
	rv := atoi(rvOf(obj))
	ok := true
	switch {
	case wantPresent:
		ok = !exists || atoi(rvOf(cached)) >= rv
		if !exists {
			ok = true // a later delete was applied already
		}
		if exists && atoi(rvOf(cached)) < rv {
			ok = false
		}
	default:
		ok = !exists || atoi(rvOf(cached)) > rv
	}
	if !ok {
		h.mu.Lock()
		h.bad = append(h.bad, fmt.Sprintf("%s %s while the cache has %s", kind, show(obj), show(cached)))
		h.mu.Unlock()
	}
}

func (h *checkingHandler) OnAdd(obj any, _ bool)  { h.check("ADD", obj, true) }
func (h *checkingHandler) OnUpdate(_, newObj any) { h.check("UPD", newObj, true) }
func (h *checkingHandler) OnDelete(obj any)       { h.check("DEL", obj, false) }
func (h *checkingHandler) problems() []string     { h.mu.Lock(); defer h.mu.Unlock(); return h.bad }
func atoi(s string) int                           { n := 0; fmt.Sscan(s, &n); return n }

// TestCh08_SharedInformer_SI8_CacheFirstThenNotify: whatever the profile, a handler never sees a
// notification newer than the cache (SI-8, INV-9).
func TestCh08_SharedInformer_SI8_CacheFirstThenNotify(t *testing.T) {
	for _, p := range profiles {
		t.Run(p.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				src := newSource(t, "p1", "p2")
				inf := NewSharedIndexInformerWithOptions(src, &api.Pod{}, SharedIndexInformerOptions{Profile: p})
				h := &checkingHandler{t: t, indexer: inf.GetIndexer()}
				_, err := inf.AddEventHandler(h)
				require.NoError(t, err)
				r := runInBubble(t, inf.RunWithContext)
				defer r.stop()
				rng := rand.New(rand.NewPCG(1, uint64(p)))
				randomWrites(t, src, rng, 200, []string{"a", "b", "c", "p1", "p2"})
				synctest.Wait()
				assert.Empty(t, h.problems())
				assert.Equal(t, src.State(), cacheState(inf.GetStore()))
			})
		})
	}
}

// randomWrites makes n random creates, updates and deletes over the given names.
func randomWrites(t *testing.T, src *fakesource.Source, rng *rand.Rand, n int, names []string) {
	t.Helper()
	for range n {
		name := names[rng.IntN(len(names))]
		_, exists := src.State()["ns/"+name]
		switch {
		case !exists:
			mustAdd(t, src, pod(name, ""))
		case rng.IntN(3) == 0:
			mustDelete(t, src, name)
		default:
			mustModify(t, src, pod(name, ""))
		}
	}
}

// TestCh08_SharedInformer_SI9_SI11_SI19_Flags: adds carry isInInitialList (true for the first
// list only), updates and deletes reach every listener, tombstones included. The plain Funcs
// adapter cannot see the flag, the Detailed one can (SI-9, SI-11, SI-19).
func TestCh08_SharedInformer_SI9_SI11_SI19_Flags(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := newSource(t, "p1", "p2")
		inf := NewSharedIndexInformerWithOptions(src, &api.Pod{}, SharedIndexInformerOptions{})
		var mu sync.Mutex
		var plain, detailed []string
		note := func(list *[]string, s string) { mu.Lock(); *list = append(*list, s); mu.Unlock() }
		_, err := inf.AddEventHandler(processor.ResourceEventHandlerFuncs{
			AddFunc:    func(obj any) { note(&plain, "add "+show(obj)) },
			DeleteFunc: func(obj any) { note(&plain, "delete "+show(obj)) },
		})
		require.NoError(t, err)
		_, err = inf.AddEventHandler(processor.ResourceEventHandlerDetailedFuncs{
			AddFunc:    func(obj any, init bool) { note(&detailed, fmt.Sprintf("add %s init=%v", show(obj), init)) },
			UpdateFunc: func(o, n any) { note(&detailed, "update "+show(o)+"→"+show(n)) },
			DeleteFunc: func(obj any) { note(&detailed, "delete "+show(obj)) },
		})
		require.NoError(t, err)
		r := runInBubble(t, inf.RunWithContext)
		defer r.stop()
		mustAdd(t, src, pod("a", ""))
		mustModify(t, src, pod("a", ""))
		src.DropNextEvents(1)
		mustDelete(t, src, "p2")
		forceRelist(src)
		waitUntil(t, "the tombstone", func() bool { mu.Lock(); defer mu.Unlock(); return len(plain) == 4 })
		mu.Lock()
		defer mu.Unlock()
		assert.Equal(t, []string{"add p1@1", "add p2@2", "add a@3", "delete DFSU(p2@2)"}, plain)
		assert.Equal(t, []string{"add p1@1 init=true", "add p2@2 init=true", "add a@3 init=false",
			"update a@3→a@4", "delete DFSU(p2@2)", "update a@4→a@4", "update p1@1→p1@1"}, detailed)
	})
}

// TestCh08_SharedInformer_SI10_SameRVIsSync: an update that keeps the RV is a sync
// notification: after the first resync check, a handler with resync 0 no longer gets the
// unchanged objects of a relist, a handler due for resync does (SI-10, T16, INV-10). An update
// whose objects lack metadata is never a sync.
func TestCh08_SharedInformer_SI10_SameRVIsSync(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := newSource(t, "p1")
		inf := NewSharedIndexInformerWithOptions(src, &api.Pod{}, SharedIndexInformerOptions{ResyncPeriod: 2 * time.Second}).(*sharedIndexInformer)
		zero, every2s := newRecorder(), newRecorder()
		_, err := inf.AddEventHandlerWithResyncPeriod(zero, 0)
		require.NoError(t, err)
		_, err = inf.AddEventHandlerWithResyncPeriod(every2s, 2*time.Second)
		require.NoError(t, err)
		r := runInBubble(t, inf.RunWithContext)
		defer r.stop()
		advance(2 * time.Second) // the first check, at 2 s: zero's flag is cleared, every2s is due
		assert.Equal(t, []string{"ADD p1@1 init"}, zero.take())
		assert.Equal(t, []string{"ADD p1@1 init", "UPD p1@1→p1@1"}, every2s.take())

		start, calls := time.Now(), len(src.Calls())
		expire(src) // relists after a backoff below 2 s, before the next check
		waitUntil(t, "the relist", func() bool { return every2s.count() > 0 })
		require.Less(t, time.Since(start), 2*time.Second, "a relist, not the next resync")
		require.Greater(t, len(src.Calls()), calls)
		assert.Empty(t, zero.take(), "T16: the unchanged p1 is a sync update")
		assert.Equal(t, []string{"UPD p1@1→p1@1"}, every2s.take())

		// Objects without metadata: RVs cannot be compared, so it is not a sync.
		inf.blockDeltas.Lock()
		inf.OnUpdate(struct{ n int }{1}, struct{ n int }{2})
		inf.OnUpdate(pod("x", "5"), pod("x", "5"))
		inf.blockDeltas.Unlock()
		synctest.Wait()
		assert.Equal(t, []string{"UPD struct { n int }→struct { n int }"}, zero.take())
	})
}

// TestCh08_SharedInformer_SI12_AddAfterStopAndDefaults: a handler added to a stopped informer
// is refused; AddEventHandler inherits the informer's default period, not 0 (SI-12).
func TestCh08_SharedInformer_SI12_AddAfterStopAndDefaults(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		inf := NewSharedIndexInformerWithOptions(newSource(t), &api.Pod{}, SharedIndexInformerOptions{ResyncPeriod: time.Minute}).(*sharedIndexInformer)
		reg, err := inf.AddEventHandler(newRecorder())
		require.NoError(t, err)
		assert.Equal(t, time.Minute, reg.(*processor.ProcessorListener).RequestedResyncPeriod())
		d := 3 * time.Minute
		reg, err = inf.AddEventHandlerWithOptions(newRecorder(), HandlerOptions{ResyncPeriod: &d, Name: "slow"})
		require.NoError(t, err)
		assert.Equal(t, d, reg.(*processor.ProcessorListener).ResyncPeriod())
		assert.Equal(t, "slow", reg.(*processor.ProcessorListener).Name())
		reg, err = inf.AddEventHandler(nil)
		assert.Error(t, err, "a nil handler is an error, not a later panic")
		assert.Nil(t, reg)

		r := runInBubble(t, inf.RunWithContext)
		r.stop()
		reg, err = inf.AddEventHandler(newRecorder())
		assert.Error(t, err)
		assert.Nil(t, reg)
		assert.Zero(t, inf.processor.ListenerCount())
	})
}

// TestCh08_SharedInformer_SI13_ResyncNormalisation: requested periods are raised to 1 s, lower
// the check period before start, are raised to it after start, and are 0 when the informer
// never checks (SI-13), including client-go's own example.
func TestCh08_SharedInformer_SI13_ResyncNormalisation(t *testing.T) {
	type handler struct {
		requested  time.Duration
		afterStart bool
	}
	tests := []struct {
		name      string
		informer  time.Duration
		handlers  []handler
		wantCheck time.Duration
		want      []time.Duration
	}{
		{"upstream example: 12h, then 0, 1m, 55s, 5s before start", 12 * time.Hour,
			[]handler{{0, false}, {time.Minute, false}, {55 * time.Second, false}, {5 * time.Second, false}},
			5 * time.Second, []time.Duration{0, time.Minute, 55 * time.Second, 5 * time.Second}},
		{"below the minimum", time.Minute, []handler{{500 * time.Millisecond, false}},
			time.Second, []time.Duration{time.Second}},
		{"below the check period after start", time.Minute, []handler{{10 * time.Second, true}},
			time.Minute, []time.Duration{time.Minute}},
		{"after start, above", time.Minute, []handler{{2 * time.Minute, true}},
			time.Minute, []time.Duration{2 * time.Minute}},
		{"an informer with resync 0 never resyncs", 0, []handler{{time.Minute, false}, {5 * time.Second, true}},
			0, []time.Duration{0, 0}},
		{"a smaller handler lowers the check for the earlier ones", 12 * time.Hour,
			[]handler{{30 * time.Minute, false}, {0, false}, {10 * time.Minute, false}},
			10 * time.Minute, []time.Duration{30 * time.Minute, 0, 10 * time.Minute}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				inf := NewSharedIndexInformerWithOptions(newSource(t), &api.Pod{}, SharedIndexInformerOptions{ResyncPeriod: tc.informer}).(*sharedIndexInformer)
				var r *running
				var regs []*processor.ProcessorListener
				for _, h := range tc.handlers {
					if h.afterStart && r == nil {
						r = runInBubble(t, inf.RunWithContext)
					}
					reg, err := inf.AddEventHandlerWithResyncPeriod(newRecorder(), h.requested)
					require.NoError(t, err)
					regs = append(regs, reg.(*processor.ProcessorListener))
				}
				assert.Equal(t, tc.wantCheck, inf.resyncCheckPeriod)
				for i, l := range regs {
					assert.Equal(t, tc.want[i], l.ResyncPeriod(), "handler %d", i)
				}
				if r != nil {
					r.stop()
				}
			})
		})
	}
}

// TestCh08_SharedInformer_SI14_LateHandler: a handler added to a running informer first gets one
// initial-list add per cached object (the cache's own pointers), then later events only (SI-14,
// T13).
func TestCh08_SharedInformer_SI14_LateHandler(t *testing.T) {
	for _, p := range profiles {
		t.Run(p.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				src := newSource(t, "p1", "p2", "p3")
				inf, _, _ := newShared(t, src, SharedIndexInformerOptions{Profile: p})
				r := runInBubble(t, inf.RunWithContext)
				defer r.stop()
				var mu sync.Mutex
				var objs []any
				late := newRecorder()
				late.onCall = func(string) {}
				_, err := inf.AddEventHandler(processor.ResourceEventHandlerDetailedFuncs{
					AddFunc: func(obj any, init bool) {
						mu.Lock()
						objs = append(objs, obj)
						mu.Unlock()
						late.OnAdd(obj, init)
					},
					UpdateFunc: late.OnUpdate,
					DeleteFunc: late.OnDelete,
				})
				require.NoError(t, err)
				mustModify(t, src, pod("p1", ""))
				synctest.Wait()
				lines := late.Lines()
				require.Len(t, lines, 4)
				assert.ElementsMatch(t, []string{"ADD p1@1 init", "ADD p2@2 init", "ADD p3@3 init"}, lines[:3], "map order")
				assert.Equal(t, "UPD p1@1→p1@4", lines[3])
				for _, obj := range objs {
					cached, _, _ := inf.GetIndexer().GetByKey(keyOf(obj))
					if rvOf(cached) == rvOf(obj) {
						assert.Same(t, cached, obj, "shared pointers, not copies")
					}
				}
			})
		})
	}
}

// TestCh08_SharedInformer_SI14_JoinIsAtomic: handlers join while events stream in; each sees a
// gap-free history: its snapshot, then every later change exactly once (SI-14, N-2, INV-6,
// INV-7).
func TestCh08_SharedInformer_SI14_JoinIsAtomic(t *testing.T) {
	for _, p := range profiles {
		t.Run(p.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				src := newSource(t, "a", "b", "c")
				inf, _, _ := newShared(t, src, SharedIndexInformerOptions{Profile: p})
				r := runInBubble(t, inf.RunWithContext)
				defer r.stop()
				rng := rand.New(rand.NewPCG(7, uint64(p)))
				var lates []*streamChecker
				writerDone := make(chan struct{})
				go func() {
					defer close(writerDone)
					randomWrites(t, src, rng, 300, []string{"a", "b", "c", "d", "e"})
				}()
				for range 5 {
					c := newStreamChecker()
					_, err := inf.AddEventHandler(c)
					require.NoError(t, err)
					lates = append(lates, c)
				}
				<-writerDone
				synctest.Wait()
				for i, c := range lates {
					assert.Empty(t, c.problems(), "late handler %d", i)
					assert.Equal(t, src.State(), c.state(), "late handler %d ends at the source's state", i)
				}
			})
		})
	}
}

// streamChecker follows one listener's notifications per key and records every transition the
// state machine of INV-6 forbids, and every RV that breaks the chain of INV-7.
type streamChecker struct {
	mu   sync.Mutex
	seen map[string]string // key → last RV, present keys only
	bad  []string
}

func newStreamChecker() *streamChecker { return &streamChecker{seen: map[string]string{}} }

func (c *streamChecker) OnAdd(obj any, _ bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := keyOf(obj)
	if rv, ok := c.seen[k]; ok {
		c.bad = append(c.bad, fmt.Sprintf("ADD %s while present at %s", show(obj), rv))
	}
	c.seen[k] = rvOf(obj)
}

func (c *streamChecker) OnUpdate(oldObj, newObj any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := keyOf(newObj)
	rv, ok := c.seen[k]
	switch {
	case !ok:
		c.bad = append(c.bad, fmt.Sprintf("UPD %s of an absent key", show(newObj)))
	case rv != rvOf(oldObj):
		c.bad = append(c.bad, fmt.Sprintf("UPD %s→%s after %s", show(oldObj), show(newObj), rv))
	case atoi(rvOf(newObj)) < atoi(rv):
		c.bad = append(c.bad, fmt.Sprintf("UPD %s goes back from %s", show(newObj), rv))
	}
	c.seen[k] = rvOf(newObj)
}

func (c *streamChecker) OnDelete(obj any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := keyOf(obj)
	if _, ok := c.seen[k]; !ok {
		c.bad = append(c.bad, fmt.Sprintf("DEL %s of an absent key", show(obj)))
	}
	delete(c.seen, k)
}

func (c *streamChecker) problems() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.bad...)
}

func (c *streamChecker) state() map[string]string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]string, len(c.seen))
	for k, v := range c.seen {
		out[k] = v
	}
	return out
}

// TestCh08_SharedInformer_SI15_HandleHasSynced: a registration is synced when the informer is
// and its own initial adds have returned: a slow handler lags behind the informer, and a late
// handler starts unsynced however long the informer has been synced (SI-15, T13, T14, FA-7).
func TestCh08_SharedInformer_SI15_HandleHasSynced(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := newSource(t, "p1", "p2")
		inf := NewSharedIndexInformerWithOptions(src, &api.Pod{}, SharedIndexInformerOptions{})
		gate := make(chan struct{})
		slow := newRecorder()
		slow.gate = gate
		early, err := inf.AddEventHandler(slow)
		require.NoError(t, err)
		r := runInBubble(t, inf.RunWithContext)
		defer r.stop()
		assert.True(t, inf.HasSynced())
		assert.False(t, early.HasSynced(), "its first initial add is still running")
		close(gate)
		synctest.Wait()
		assert.True(t, early.HasSynced())

		lateGate := make(chan struct{})
		lateRec := newRecorder()
		lateRec.gate = lateGate
		late, err := inf.AddEventHandler(lateRec)
		require.NoError(t, err)
		assert.False(t, late.HasSynced(), "right after registration")
		synctest.Wait()
		assert.False(t, late.HasSynced())
		assert.False(t, processor.IsDone(late.HasSyncedChecker()))
		close(lateGate)
		synctest.Wait()
		assert.True(t, late.HasSynced())
		assert.Len(t, lateRec.Lines(), 2)
	})
}

// TestCh08_SharedInformer_SI16_RemoveEventHandler: removal is idempotent, rejects foreign
// values, drops what the listener had buffered, lets the call in progress finish and does not
// wait for it; the other handlers go on (SI-16, INV-27).
func TestCh08_SharedInformer_SI16_RemoveEventHandler(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := newSource(t, "p1")
		inf, other, _ := newShared(t, src, SharedIndexInformerOptions{})
		gate := make(chan struct{})
		victim := newRecorder()
		victim.onCall = func(line string) {
			if strings.HasPrefix(line, "ADD a@") {
				<-gate
			}
		}
		reg, err := inf.AddEventHandler(victim)
		require.NoError(t, err)
		r := runInBubble(t, inf.RunWithContext)
		defer r.stop()
		mustAdd(t, src, pod("a", ""))
		mustAdd(t, src, pod("b", ""))
		mustAdd(t, src, pod("c", ""))
		synctest.Wait() // victim is stuck in ADD a; b and c wait in its buffer

		require.NoError(t, inf.RemoveEventHandler(reg), "returns while the call is in progress")
		require.NoError(t, inf.RemoveEventHandler(reg), "idempotent")
		assert.Error(t, inf.RemoveEventHandler(nil))
		assert.Error(t, inf.RemoveEventHandler(fakeRegistration{}))
		close(gate)
		mustAdd(t, src, pod("d", ""))
		synctest.Wait()
		assert.Equal(t, []string{"ADD p1@1 init", "ADD a@2"}, victim.Lines(), "b and c were dropped, d never came")
		assert.Equal(t, []string{"ADD p1@1 init", "ADD a@2", "ADD b@3", "ADD c@4", "ADD d@5"}, other.Lines())
	})
}

type fakeRegistration struct{}

func (fakeRegistration) HasSynced() bool                         { return true }
func (fakeRegistration) HasSyncedChecker() processor.DoneChecker { return nil }

// TestCh08_SharedInformer_SI17_ShutDownEventHandler: ShutDownEventHandler returns once the
// handler's last call has returned; afterwards it is never called again. For a listener that
// never started it returns at once (SI-17, INV-27).
func TestCh08_SharedInformer_SI17_ShutDownEventHandler(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := newSource(t, "p1")
		inf, _, _ := newShared(t, src, SharedIndexInformerOptions{})
		never, err := inf.AddEventHandler(newRecorder())
		require.NoError(t, err)
		require.NoError(t, ShutDownEventHandler(inf, never), "never started: returns at once")

		gate := make(chan struct{})
		rec := newRecorder()
		rec.onCall = func(line string) {
			if strings.HasPrefix(line, "ADD a@") {
				<-gate
			}
		}
		reg, err := inf.AddEventHandler(rec)
		require.NoError(t, err)
		r := runInBubble(t, inf.RunWithContext)
		defer r.stop()
		mustAdd(t, src, pod("a", ""))
		synctest.Wait()

		returned := make(chan error)
		go func() { returned <- ShutDownEventHandler(inf, reg) }()
		synctest.Wait()
		select {
		case <-returned:
			t.Fatal("ShutDownEventHandler returned while the handler was still running")
		default:
		}
		close(gate)
		require.NoError(t, <-returned)
		mustAdd(t, src, pod("b", ""))
		synctest.Wait()
		assert.Equal(t, []string{"ADD p1@1 init", "ADD a@2"}, rec.Lines())
		require.NoError(t, ShutDownEventHandler(inf, reg), "again: nothing to wait for")
		assert.Error(t, ShutDownEventHandler(inf, fakeRegistration{}))
	})
}

// TestCh08_SharedInformer_SI18_SameHandlerTwice: one handler value registered twice is two
// listeners with their own registrations (SI-18).
func TestCh08_SharedInformer_SI18_SameHandlerTwice(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := newSource(t, "p1")
		inf := NewSharedIndexInformerWithOptions(src, &api.Pod{}, SharedIndexInformerOptions{}).(*sharedIndexInformer)
		rec := newRecorder()
		r1, err := inf.AddEventHandler(rec)
		require.NoError(t, err)
		r2, err := inf.AddEventHandler(rec)
		require.NoError(t, err)
		assert.NotSame(t, r1, r2)
		r := runInBubble(t, inf.RunWithContext)
		defer r.stop()
		assert.Equal(t, []string{"ADD p1@1 init", "ADD p1@1 init"}, rec.Lines())
		require.NoError(t, inf.RemoveEventHandler(r1))
		mustAdd(t, src, pod("a", ""))
		synctest.Wait()
		assert.Equal(t, []string{"ADD p1@1 init", "ADD p1@1 init", "ADD a@2"}, rec.Lines())
	})
}

// TestCh08_SharedInformer_C12_Filtering: a filtering handler on a shared informer sees an
// object entering its view as an add that is not part of the initial list, and one leaving it
// as a delete of the old state (C-12, SI-19).
func TestCh08_SharedInformer_C12_Filtering(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := newSource(t)
		mustAdd(t, src, labelled("w", "", map[string]string{"app": "web"}))
		mustAdd(t, src, labelled("d", "", map[string]string{"app": "db"}))
		inf := NewSharedIndexInformerWithOptions(src, &api.Pod{}, SharedIndexInformerOptions{})
		rec := newRecorder()
		_, err := inf.AddEventHandler(processor.FilteringResourceEventHandler{
			FilterFunc: func(obj any) bool { return obj.(*api.Pod).Labels["app"] == "web" },
			Handler:    rec,
		})
		require.NoError(t, err)
		r := runInBubble(t, inf.RunWithContext)
		defer r.stop()
		mustModify(t, src, labelled("d", "", map[string]string{"app": "web"})) // enters
		mustModify(t, src, labelled("w", "", map[string]string{"app": "db"}))  // leaves
		mustModify(t, src, labelled("w", "", map[string]string{"app": "x"}))   // stays out
		synctest.Wait()
		assert.Equal(t, []string{"ADD w@1 init", "ADD d@3", "DEL w@1"}, rec.Lines())
	})
}
