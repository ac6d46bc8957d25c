package informer

import (
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/deltafifo"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/reflector/fakesource"
	"github.com/informer-lab/informer-lab/store"
)

// section14 runs the verification scenario of docs/behaviour/client-go.md §14 through a shared informer of profile p
// and returns what one handler saw, phase by phase:
//
//	p1@1, p2@2 exist; the informer starts (initial);
//	Add a@3, Add b@4, Modify a@5 (watch);
//	Modify p1@6, Delete p2@7, Add c@8 with the watch events dropped, then a watch reset whose
//	re-watch gets 410, so the reflector relists (relist).
//
// The consumer is paused from the start until the watch events are queued, as a busy informer
// would be: that is what lets DeltaFIFO hand a's two deltas over in one pop. Call it inside a
// synctest bubble.
func section14(t *testing.T, p Profile) (initial, watched, relisted []string) {
	t.Helper()
	src := newSource(t, "p1", "p2")
	pauser := &Pauser{}
	pauser.Pause()
	inf := NewSharedIndexInformerWithOptions(src, &api.Pod{}, SharedIndexInformerOptions{Profile: p, Pauser: pauser})
	rec := newRecorder()
	_, err := inf.AddEventHandler(rec)
	require.NoError(t, err)
	r := runInBubble(t, inf.RunWithContext)
	defer r.stop()

	// Listed (or streamed) and watching; the initial list waits in the paused queue.
	mustAdd(t, src, pod("a", ""))
	mustAdd(t, src, pod("b", ""))
	mustModify(t, src, pod("a", ""))
	synctest.Wait()
	pauser.Resume()
	synctest.Wait()
	all := rec.take()
	require.Len(t, all, 5, "initial + watch: %v", all)
	initial, watched = all[:2], all[2:]

	src.DropNextEvents(3)
	mustModify(t, src, pod("p1", ""))
	mustDelete(t, src, "p2")
	mustAdd(t, src, pod("c", ""))
	forceRelist(src)
	waitUntil(t, "the relist's five notifications", func() bool { return rec.count() >= 5 })
	relisted = rec.take()
	assert.Equal(t, src.State(), cacheState(inf.GetStore()), "INV-1 after the relist")
	return initial, watched, relisted
}

// TestCh08_Profiles_Section14Table checks the handler sequences of the spec's §14 table, for
// the three profiles. Within the relist row the adds and updates follow the LIST order, which
// the spec leaves to map order: they are compared as a set, the tombstone's place is exact.
func TestCh08_Profiles_Section14Table(t *testing.T) {
	relistRest := []string{"ADD c@8", "UPD a@5→a@5", "UPD b@4→b@4", "UPD p1@1→p1@6"}
	tests := []struct {
		profile        Profile
		watch          []string
		tombstoneFirst bool
	}{
		// Classic: DeltaFIFO pops a's [Added, Updated] together; the relist's tombstone
		// comes after the Replaced deltas (DF-7).
		{ProfileClassic, []string{"ADD a@3", "UPD a@3→a@5", "ADD b@4"}, false},
		// InOrder: one delta per pop, in arrival order (T22); tombstones first (RF-4).
		{ProfileInOrder, []string{"ADD a@3", "ADD b@4", "UPD a@3→a@5"}, true},
		// Current: the same order; the relist is one ReplacedAll, deletions first (C-7, T23).
		{ProfileCurrent, []string{"ADD a@3", "ADD b@4", "UPD a@3→a@5"}, true},
	}
	for _, tc := range tests {
		t.Run(tc.profile.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				initial, watched, relisted := section14(t, tc.profile)
				assert.Equal(t, []string{"ADD p1@1 init", "ADD p2@2 init"}, initial, "initial row")
				assert.Equal(t, tc.watch, watched, "watch row")
				require.Len(t, relisted, 5)
				tomb, rest := relisted[len(relisted)-1], relisted[:len(relisted)-1]
				if tc.tombstoneFirst {
					tomb, rest = relisted[0], relisted[1:]
				}
				assert.Equal(t, "DEL DFSU(p2@2)", tomb, "relist row: %v", relisted)
				assert.ElementsMatch(t, relistRest, rest, "relist row: %v", relisted)
			})
		})
	}
}

// deltaLog renders one process call: "Added a@2, Updated a@4" for a Deltas, "batch: …" for a
// batch, the type alone for the aggregate deltas.
func deltaLog(prefix string, ds []deltafifo.Delta) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		switch d.Type {
		case deltafifo.ReplacedAll, deltafifo.SyncAll, deltafifo.Bookmark:
			parts[i] = string(d.Type)
		default:
			parts[i] = string(d.Type) + " " + show(d.Object)
		}
	}
	return prefix + strings.Join(parts, ", ")
}

// lowLevel builds the pipeline of a NewInformer of profile p by hand, with Config, so a test
// can see each process call (and swap the queue): calls records one line per call.
type lowLevel struct {
	cache store.Indexer
	queue deltafifo.Queue
	rec   *recorder
	mu    sync.Mutex
	calls []string
}

func newLowLevel(p Profile) *lowLevel {
	ll := &lowLevel{cache: store.NewIndexer(keyFunc, store.Indexers{}, p.storeOptions(nil)...), rec: newRecorder()}
	ll.queue = p.newQueue(ll.cache, nil, nil)
	return ll
}

func (ll *lowLevel) config(p Profile, lw *fakesource.Source, pauser *Pauser) *Config {
	cfg := &Config{
		Queue: ll.queue, ListerWatcher: lw, ObjectType: &api.Pod{}, UseWatchList: watchListSetting(p, nil), Pauser: pauser,
		Process: func(obj any, init bool) error {
			ds := obj.(deltafifo.Deltas)
			ll.log(deltaLog("", ds))
			return processDeltas(ll.rec, ll.cache, ds, init, keyFunc)
		},
	}
	if p.batches() {
		cfg.ProcessBatch = func(ds []deltafifo.Delta, init bool) error {
			ll.log(deltaLog("batch: ", ds))
			return processDeltasInBatch(ll.rec, ll.cache, ds, init, keyFunc)
		}
	}
	return cfg
}

func (ll *lowLevel) log(s string) {
	ll.mu.Lock()
	defer ll.mu.Unlock()
	ll.calls = append(ll.calls, s)
}

func (ll *lowLevel) takeCalls() []string {
	ll.mu.Lock()
	defer ll.mu.Unlock()
	out := ll.calls
	ll.calls = nil
	return out
}

// TestCh08_Profiles_D1_Grouping: DeltaFIFO hands a key's whole pending history to one process
// call; RealFIFO one delta per call, or, batched, a run of distinct keys (D-1, D-9).
func TestCh08_Profiles_D1_Grouping(t *testing.T) {
	want := map[Profile][]string{
		ProfileClassic: {"Replaced p1@1", "Added a@2, Updated a@4", "Added b@3"},
		ProfileInOrder: {"Replaced p1@1", "Added a@2", "Added b@3", "Updated a@4"},
		ProfileCurrent: {"ReplacedAll", "batch: Added a@2, Added b@3", "Updated a@4"},
	}
	for _, p := range profiles {
		t.Run(p.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				src := newSource(t, "p1")
				ll := newLowLevel(p)
				pauser := &Pauser{}
				pauser.Pause()
				r := runInBubble(t, New(ll.config(p, src, pauser)).RunWithContext)
				defer r.stop()
				mustAdd(t, src, pod("a", ""))
				mustAdd(t, src, pod("b", ""))
				mustModify(t, src, pod("a", ""))
				synctest.Wait()
				pauser.Resume()
				synctest.Wait()
				assert.Equal(t, want[p], ll.takeCalls())
				// Whatever the grouping, the handler sees the same history per key.
				assert.Equal(t, []string{"ADD a@2", "UPD a@2→a@4"}, linesAbout(ll.rec.Lines(), "a"))
			})
		})
	}
}

// TestCh08_Profiles_D2_GhostDelete: a DELETED event for a key the cache never had is dropped by
// DeltaFIFO (DF-4) and delivered by RealFIFO (RF-3, C-6).
func TestCh08_Profiles_D2_GhostDelete(t *testing.T) {
	for _, p := range profiles {
		t.Run(p.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				src := newSource(t, "p1")
				inf := NewSharedIndexInformerWithOptions(src, &api.Pod{}, SharedIndexInformerOptions{Profile: p})
				rec := newRecorder()
				_, err := inf.AddEventHandler(rec)
				require.NoError(t, err)
				r := runInBubble(t, inf.RunWithContext)
				defer r.stop()
				src.DropNextEvents(1)
				mustAdd(t, src, pod("ghost", "")) // the informer never hears of it
				mustDelete(t, src, "ghost")
				synctest.Wait()
				want := []string{"ADD p1@1 init"}
				if p != ProfileClassic {
					want = append(want, "DEL ghost@3")
				}
				assert.Equal(t, want, rec.Lines())
				assert.Equal(t, src.State(), cacheState(inf.GetStore()))
			})
		})
	}
}

// parkConsumer pauses the informer's consumer while it is idle: the next event (a sentinel
// the caller writes) is still processed, and then processLoop waits before its next pop.
func parkConsumer(t *testing.T, src *fakesource.Source, pauser *Pauser, sentinel string) {
	t.Helper()
	pauser.Pause()
	mustAdd(t, src, pod(sentinel, ""))
	synctest.Wait()
}

// TestCh08_Profiles_D3_Resync: a resync while p1 has a pending change. DeltaFIFO and
// non-atomic RealFIFO skip p1 and queue the cached state of the others; atomic SyncAll
// resyncs every object as cached when it is processed, p1 included (D-3, DF-8, RF-6, C-8).
func TestCh08_Profiles_D3_Resync(t *testing.T) {
	want := map[Profile][]string{
		ProfileClassic: {"UPD p1@1→p1@4", "UPD p2@2→p2@2", "UPD z@3→z@3"},
		ProfileInOrder: {"UPD p1@1→p1@4", "UPD p2@2→p2@2", "UPD z@3→z@3"},
		ProfileCurrent: {"UPD p1@1→p1@4", "UPD p1@4→p1@4", "UPD p2@2→p2@2", "UPD z@3→z@3"},
	}
	for _, p := range profiles {
		t.Run(p.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				src := newSource(t, "p1", "p2")
				pauser := &Pauser{}
				inf := NewSharedIndexInformerWithOptions(src, &api.Pod{}, SharedIndexInformerOptions{Profile: p, ResyncPeriod: 2 * time.Second, Pauser: pauser})
				rec := newRecorder()
				_, err := inf.AddEventHandler(rec)
				require.NoError(t, err)
				r := runInBubble(t, inf.RunWithContext)
				defer r.stop()
				parkConsumer(t, src, pauser, "z")
				mustModify(t, src, pod("p1", ""))
				advance(2 * time.Second) // one resync, queued behind p1@4
				rec.take()
				pauser.Resume()
				synctest.Wait()
				got := rec.take()
				require.NotEmpty(t, got)
				assert.Equal(t, want[p][0], got[0], "the pending change comes first")
				assert.ElementsMatch(t, want[p][1:], got[1:], "the resync (in cache order)")
			})
		})
	}
}

// TestCh08_Profiles_D4_TombstoneSource: DeltaFIFO and non-atomic RealFIFO compute a relist's
// tombstones when Replace runs and queue them as Deleted deltas; atomic mode queues one
// ReplacedAll and computes them against the cache when it is processed. Either way p2's
// tombstone carries its last known state, here a change still pending at the relist (D-4,
// INV-19).
func TestCh08_Profiles_D4_TombstoneSource(t *testing.T) {
	want := map[Profile][]string{
		ProfileClassic: {"Updated p2@4, Deleted DFSU(p2@4)", "Replaced p1@1", "Replaced z@3"},
		ProfileInOrder: {"Updated p2@4", "Deleted DFSU(p2@4)", "Replaced p1@1", "Replaced z@3"},
		ProfileCurrent: {"Updated p2@4", "ReplacedAll"},
	}
	for _, p := range profiles {
		t.Run(p.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				src := newSource(t, "p1", "p2")
				ll := newLowLevel(p)
				pauser := &Pauser{}
				ctl := New(ll.config(p, src, pauser))
				r := runInBubble(t, ctl.RunWithContext)
				defer r.stop()
				parkConsumer(t, src, pauser, "z")
				ll.takeCalls()
				mustModify(t, src, pod("p2", "")) // queued, not yet in the cache
				src.DropNextEvents(1)
				mustDelete(t, src, "p2")
				forceRelist(src)
				waitUntil(t, "the relist", func() bool { return ctl.LastSyncResourceVersion() == "5" })
				synctest.Wait()
				ll.rec.take()
				pauser.Resume()
				synctest.Wait()
				calls := ll.takeCalls()
				if p == ProfileClassic {
					// DeltaFIFO queues the tombstone with p2's pending deltas, ahead of the list.
					assert.Equal(t, want[p][0], calls[0])
					assert.ElementsMatch(t, want[p][1:], calls[1:])
				} else {
					assert.Equal(t, want[p], calls)
				}
				assert.Contains(t, ll.rec.Lines(), "DEL DFSU(p2@4)")
			})
		})
	}
}

// TestCh08_Profiles_D5_CacheDuringRelist: what a handler of the non-shared informer can read
// from the cache while a relist is being delivered. Classic and InOrder write one object at a
// time; Current replaces the whole cache (indices included) before the first callback (D-5,
// C-7).
func TestCh08_Profiles_D5_CacheDuringRelist(t *testing.T) {
	final := map[string]string{"ns/p1": "3", "ns/c": "5"}
	for _, p := range profiles {
		t.Run(p.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				src := newSource(t, "p1", "p2")
				rec := newRecorder()
				st, ctl := NewInformerWithOptions(InformerOptions{ListerWatcher: src, ObjectType: &api.Pod{}, Handler: rec, Profile: p})
				seen := map[string]map[string]string{}
				rec.onCall = func(line string) { seen[line] = cacheState(st) }
				r := runInBubble(t, ctl.RunWithContext)
				defer r.stop()
				src.DropNextEvents(3)
				mustModify(t, src, pod("p1", ""))
				mustDelete(t, src, "p2")
				mustAdd(t, src, pod("c", ""))
				forceRelist(src)
				waitUntil(t, "the relist", func() bool { return rec.count() == 5 })

				upd, addC, del := seen["UPD p1@1→p1@3"], seen["ADD c@5"], seen["DEL DFSU(p2@2)"]
				require.NotNil(t, upd)
				require.NotNil(t, addC)
				require.NotNil(t, del)
				if p == ProfileCurrent {
					for _, snap := range []map[string]string{del, addC, upd} {
						assert.Equal(t, final, snap, "every relist callback sees the whole new list")
					}
					return
				}
				// The list comes in key order (ns/c before ns/p1): one object at a time.
				assert.Equal(t, "1", addC["ns/p1"], "p1 is not updated yet while c's add is delivered")
				assert.Equal(t, "3", upd["ns/p1"], "cache first, then notify")
				assert.Equal(t, src.State(), cacheState(st))
			})
		})
	}
}

// addSpy wraps a queue's Add to tell when the reflector starts and finishes adding the object
// called target.
type addSpy struct {
	target   string
	entered  chan struct{}
	returned chan struct{}
	seq      *sequence
}

func (s *addSpy) around(obj any, add func(any) error) error {
	hit := show(obj) == s.target
	if hit {
		close(s.entered)
	}
	err := add(obj)
	if hit {
		s.seq.add("reflector's Add(" + s.target + ") returned")
		close(s.returned)
	}
	return err
}

type spyDeltaFIFO struct {
	*deltafifo.DeltaFIFO
	spy *addSpy
}

func (q spyDeltaFIFO) Add(obj any) error { return q.spy.around(obj, q.DeltaFIFO.Add) }

type spyRealFIFO struct {
	*deltafifo.RealFIFO
	spy *addSpy
}

func (q spyRealFIFO) Add(obj any) error { return q.spy.around(obj, q.RealFIFO.Add) }

// sequence is a goroutine-safe log of what happened, in order.
type sequence struct {
	mu    sync.Mutex
	steps []string
}

func (s *sequence) add(step string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.steps = append(s.steps, step)
}

func (s *sequence) get() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.steps...)
}

// TestCh08_Profiles_D6_QueueLockDuringProcessing: DeltaFIFO and non-atomic RealFIFO run the
// process function under the queue lock, so a slow handler of the non-shared informer also
// blocks the reflector's next Add; atomic RealFIFO releases the lock, and the reflector goes on
// queueing (D-6, RF-10, C-14).
func TestCh08_Profiles_D6_QueueLockDuringProcessing(t *testing.T) {
	for _, p := range profiles {
		t.Run(p.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				src := newSource(t, "p1")
				ll := newLowLevel(p)
				seq := &sequence{}
				spy := &addSpy{target: "b@3", entered: make(chan struct{}), returned: make(chan struct{}), seq: seq}
				switch q := ll.queue.(type) {
				case *deltafifo.DeltaFIFO:
					ll.queue = spyDeltaFIFO{q, spy}
				case *deltafifo.RealFIFO:
					ll.queue = spyRealFIFO{q, spy}
				}
				gate := make(chan struct{})
				ll.rec.onCall = func(line string) {
					if line == "ADD a@2" {
						<-gate
						seq.add("handler for a returned")
					}
				}
				r := runInBubble(t, New(ll.config(p, src, nil)).RunWithContext)
				defer r.stop()
				mustAdd(t, src, pod("a", ""))
				synctest.Wait() // processLoop is inside the handler for a
				mustAdd(t, src, pod("b", ""))
				<-spy.entered
				if p == ProfileCurrent {
					<-spy.returned // while the handler is still stuck
					close(gate)
					synctest.Wait()
					assert.Equal(t, []string{"reflector's Add(b@3) returned", "handler for a returned"}, seq.get())
					return
				}
				select {
				case <-spy.returned:
					t.Fatal("the reflector's Add returned while the queue lock was held")
				default:
				}
				close(gate)
				<-spy.returned
				synctest.Wait()
				assert.Equal(t, []string{"handler for a returned", "reflector's Add(b@3) returned"}, seq.get())
			})
		})
	}
}

// TestCh08_Profiles_D7_SyncLatch: DeltaFIFO reports synced when the last initial item is popped,
// before its handler ran; RealFIFO only once it was processed (D-7, RF-9).
func TestCh08_Profiles_D7_SyncLatch(t *testing.T) {
	for _, p := range profiles {
		t.Run(p.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				src := newSource(t, "p1", "p2")
				gate := make(chan struct{})
				rec := newRecorder()
				rec.onCall = func(line string) {
					if line == "ADD p2@2 init" {
						<-gate
					}
				}
				_, ctl := NewInformerWithOptions(InformerOptions{ListerWatcher: src, ObjectType: &api.Pod{}, Handler: rec, Profile: p})
				r := runInBubble(t, ctl.RunWithContext)
				defer r.stop()
				require.Equal(t, []string{"ADD p1@1 init", "ADD p2@2 init"}, rec.Lines(), "stuck in the last initial add")
				assert.Equal(t, p == ProfileClassic, processor.IsDone(ctl.HasSyncedChecker()))
				close(gate)
				synctest.Wait()
				assert.True(t, ctl.HasSynced())
			})
		})
	}
}

// TestCh08_Profiles_D8_Bookmarks: only Current queues bookmarks, so only its cache's
// LastStoreSyncResourceVersion moves; the others report "" as client-go does with AtomicFIFO
// off. The reflector's RV follows bookmarks in every profile (D-8, TS-14, C-9).
func TestCh08_Profiles_D8_Bookmarks(t *testing.T) {
	for _, p := range profiles {
		t.Run(p.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				src := newSource(t, "p1")
				inf := NewSharedIndexInformerWithOptions(src, &api.Pod{}, SharedIndexInformerOptions{Profile: p})
				r := runInBubble(t, inf.RunWithContext)
				defer r.stop()
				src.AdvanceResourceVersion(6) // writes to other resources
				src.Bookmark()
				synctest.Wait()
				assert.Equal(t, "7", inf.LastSyncResourceVersion())
				want := ""
				if p == ProfileCurrent {
					want = "7"
				}
				assert.Equal(t, want, inf.GetStore().LastStoreSyncResourceVersion())
			})
		})
	}
}

// TestCh08_Profiles_D9_Batches: Current applies a batch of distinct keys in one transaction and
// then calls the handlers in order, so the first callback already sees the whole batch; the
// order of callbacks is the same as one by one (D-9, C-11). Classic (one key's Deltas per pop)
// and InOrder (one delta per pop) write the cache one object at a time, so a's callback sees
// only what was processed before it.
func TestCh08_Profiles_D9_Batches(t *testing.T) {
	for _, p := range profiles {
		t.Run(p.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				src := newSource(t, "p1")
				rec := newRecorder()
				pauser := &Pauser{}
				pauser.Pause()
				st, ctl := NewInformerWithOptions(InformerOptions{ListerWatcher: src, ObjectType: &api.Pod{}, Handler: rec, Profile: p, Pauser: pauser})
				var atA map[string]string
				rec.onCall = func(line string) {
					if line == "ADD a@2" {
						atA = cacheState(st)
					}
				}
				r := runInBubble(t, ctl.RunWithContext)
				defer r.stop()
				for _, n := range []string{"a", "b", "c"} {
					mustAdd(t, src, pod(n, ""))
				}
				synctest.Wait()
				pauser.Resume()
				synctest.Wait()
				assert.Equal(t, []string{"ADD p1@1 init", "ADD a@2", "ADD b@3", "ADD c@4"}, rec.Lines())
				want := map[string]string{"ns/p1": "1", "ns/a": "2"}
				if p == ProfileCurrent {
					want = map[string]string{"ns/p1": "1", "ns/a": "2", "ns/b": "3", "ns/c": "4"}
				}
				assert.Equal(t, want, atA)
			})
		})
	}
}
