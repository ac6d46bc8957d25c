package informer

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/reflector/fakesource"
	"github.com/informer-lab/informer-lab/store"
)

var (
	propertySeeds = flag.Int("informer.seeds", 20, "seeds per profile for the end-state property test")
	propertyOps   = flag.Int("informer.ops", 300, "operations per seed for the end-state property test")
	// propertySeedBase shifts the seeds, so a soak can cover new ones and a failure can be
	// replayed alone: -informer.seed=N -informer.seeds=1.
	propertySeedBase = flag.Uint64("informer.seed", 0, "first seed of the end-state property tests")
)

// groupIndex files pods under their "group" label, so INV-2 has an index that moves.
func groupIndex(obj any) ([]string, error) {
	p, ok := obj.(*api.Pod)
	if !ok {
		return nil, fmt.Errorf("not a pod: %T", obj)
	}
	if g := p.Labels["group"]; g != "" {
		return []string{g}, nil
	}
	return nil, nil
}

// TestCh08_Property_EndState drives random creates, updates and deletes through a shared
// informer of every profile while the source drops events, compacts its history, closes
// watches and rejects new ones; two handlers listen from the start (one with a resync period)
// and one joins half-way. After quiescence (a forced relist, everything drained):
//
//	INV-1 the cache equals the source; INV-2 the index equals a recomputation;
//	INV-3 each handler's last notification per key matches the final state;
//	INV-4 everything reports synced and the informer's RV is the source's;
//	INV-5 every listener's buffer is empty;
//
// and, all along, each handler's stream obeys INV-6/INV-7 (per-key state machine and RV chain),
// except the ghost deletes RealFIFO delivers when a create was dropped (INV-6's exception).
func TestCh08_Property_EndState(t *testing.T) {
	for _, p := range profiles {
		for i := range uint64(*propertySeeds) {
			seed := *propertySeedBase + i
			t.Run(fmt.Sprintf("%s/seed=%d", p, seed), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) { endStateRun(t, p, seed) })
			})
		}
	}
}

func endStateRun(t *testing.T, p Profile, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	names := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	src := fakesource.New()
	t.Cleanup(src.Close)
	for _, n := range names[:4] {
		mustAdd(t, src, pod(n, ""))
	}
	inf := NewSharedIndexInformerWithOptions(src, &api.Pod{}, SharedIndexInformerOptions{
		Profile: p, ResyncPeriod: 3 * time.Second, Indexers: store.Indexers{"group": groupIndex}})
	var handlers []*endHandler
	add := func(name string, resync time.Duration) {
		handlers = append(handlers, addEndHandler(t, inf, p, name, resync))
	}
	add("no-resync", 0)
	add("resync-3s", 3*time.Second)
	r := runInBubble(t, inf.RunWithContext)
	defer r.stop()

	for i := range *propertyOps {
		if i == *propertyOps/2 {
			add("late", 0)
		}
		switch op := rng.IntN(100); {
		case op < 70:
			randomWrite(t, src, rng, names)
		case op < 78:
			src.DropNextEvents(1 + rng.IntN(3))
		case op < 82:
			src.ResetWatches()
		case op < 85:
			src.Compact()
			src.ResetWatches()
		case op < 87:
			src.CloseNextWatches(1)
			src.ResetWatches()
		case op < 89:
			src.FailNextWatches(fakesource.NewInternalError("flaky"))
			src.ResetWatches()
		default:
			advance(time.Duration(rng.IntN(1500)) * time.Millisecond)
		}
		if rng.IntN(4) == 0 {
			synctest.Wait()
		}
	}

	// Quiescence: no more writes; a forced relist repairs whatever was dropped.
	forceRelist(src)
	want := src.ResourceVersion()
	waitUntil(t, "the informer to catch up", func() bool {
		return inf.LastSyncResourceVersion() == want && maps(src.State(), cacheState(inf.GetStore()))
	})
	synctest.Wait()

	checkEndState(t, inf, handlers, src.State(), want)
}

// endHandler is one handler of an end-state run: its name, its checker and its registration.
type endHandler struct {
	name  string
	check *endChecker
	reg   processor.ResourceEventHandlerRegistration
}

// addEndHandler registers an endChecker on inf with its own resync period; the RealFIFO
// profiles may deliver ghost deletes (INV-6's exception).
func addEndHandler(t *testing.T, inf SharedIndexInformer, p Profile, name string, resync time.Duration) *endHandler {
	t.Helper()
	c := newEndChecker(p != ProfileClassic)
	reg, err := inf.AddEventHandlerWithResyncPeriod(c, resync)
	require.NoError(t, err)
	return &endHandler{name: name, check: c, reg: reg}
}

// checkEndState asserts the end-state invariants once inf has caught up with state, the
// server's key → RV at revision want: INV-1 and INV-2 on the cache, INV-4 and INV-5 on the
// informer and every handler, INV-6/INV-7 as each handler's checker saw them, and INV-3 on
// each handler's last notification per key.
func checkEndState(t *testing.T, inf SharedIndexInformer, handlers []*endHandler, state map[string]string, want string) {
	t.Helper()
	assert.Equal(t, state, cacheState(inf.GetStore()), "INV-1")
	checkIndex(t, inf.GetIndexer())
	assert.True(t, inf.HasSynced(), "INV-4")
	assert.Equal(t, want, inf.LastSyncResourceVersion(), "INV-4")
	for _, h := range handlers {
		assert.True(t, h.reg.HasSynced(), "INV-4 %s", h.name)
		assert.Zero(t, h.reg.(*processor.ProcessorListener).Pending(), "INV-5 %s", h.name)
		assert.Empty(t, h.check.problems(), "INV-6/INV-7 %s", h.name)
		for key, rv := range state {
			last, ok := h.check.lastOf(key)
			if assert.True(t, ok, "INV-3 %s never heard of %s", h.name, key) {
				assert.Contains(t, []string{"ADD", "UPD"}, last.kind, "INV-3 %s %s", h.name, key)
				assert.Equal(t, rv, rvOf(last.obj), "INV-3 %s %s", h.name, key)
			}
		}
		for key, last := range h.check.lasts() {
			if _, present := state[key]; !present {
				assert.Equal(t, "DEL", last.kind, "INV-3 %s %s is gone", h.name, key)
			}
		}
	}
}

// randomWrite creates, updates (moving the group label) or deletes one random pod.
func randomWrite(t *testing.T, src *fakesource.Source, rng *rand.Rand, names []string) {
	t.Helper()
	name := names[rng.IntN(len(names))]
	obj := labelled(name, "", map[string]string{"group": fmt.Sprint(rng.IntN(3))})
	_, exists := src.State()["ns/"+name]
	switch {
	case !exists:
		mustAdd(t, src, obj)
	case rng.IntN(4) == 0:
		mustDelete(t, src, name)
	default:
		mustModify(t, src, obj)
	}
}

func maps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// checkIndex is INV-2: every value of the group index lists exactly the cached keys whose
// index function yields it, and no value has an empty set.
func checkIndex(t *testing.T, idx store.Indexer) {
	t.Helper()
	want := map[string][]string{}
	for _, obj := range idx.List() {
		vals, err := groupIndex(obj)
		require.NoError(t, err)
		for _, v := range vals {
			want[v] = append(want[v], keyOf(obj))
		}
	}
	got := map[string][]string{}
	for _, v := range idx.ListIndexFuncValues("group") {
		keys, err := idx.IndexKeys("group", v)
		require.NoError(t, err)
		require.NotEmpty(t, keys, "INV-2: value %q has an empty set", v)
		got[v] = keys
	}
	for v := range want {
		slices.Sort(want[v])
	}
	assert.Equal(t, want, got, "INV-2")
}

// endChecker is a streamChecker that remembers each key's last notification and tolerates the
// ghost deletes of the RealFIFO profiles when told to.
type endChecker struct {
	*streamChecker
	*recorder
	ghostsAllowed bool
}

func newEndChecker(ghostsAllowed bool) *endChecker {
	return &endChecker{streamChecker: newStreamChecker(), recorder: newRecorder(), ghostsAllowed: ghostsAllowed}
}

func (c *endChecker) OnAdd(obj any, init bool) {
	c.streamChecker.OnAdd(obj, init)
	c.recorder.OnAdd(obj, init)
}

func (c *endChecker) OnUpdate(oldObj, newObj any) {
	c.streamChecker.OnUpdate(oldObj, newObj)
	c.recorder.OnUpdate(oldObj, newObj)
}

func (c *endChecker) OnDelete(obj any) {
	c.streamChecker.mu.Lock()
	_, present := c.seen[keyOf(obj)]
	c.streamChecker.mu.Unlock()
	if present || !c.ghostsAllowed {
		c.streamChecker.OnDelete(obj)
	}
	c.recorder.OnDelete(obj)
}

func (c *endChecker) problems() []string { return c.streamChecker.problems() }

func (c *endChecker) lastOf(key string) (lastNote, bool) {
	c.recorder.mu.Lock()
	defer c.recorder.mu.Unlock()
	n, ok := c.last[key]
	return n, ok
}

func (c *endChecker) lasts() map[string]lastNote { return c.lastNotes() }
