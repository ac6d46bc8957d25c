package ch06_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/deltafifo"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/reflector/fakesource"
	"github.com/informer-lab/informer-lab/store"
)

var profiles = []informer.Profile{informer.ProfileClassic, informer.ProfileInOrder, informer.ProfileCurrent}

func pod(name string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name}}
}

// show is "name@rv", or "DFSU(name@rv)" for a tombstone.
func show(obj any) string {
	if tomb, ok := obj.(store.DeletedFinalStateUnknown); ok {
		return "DFSU(" + show(tomb.Obj) + ")"
	}
	m, err := api.Accessor(obj)
	if err != nil {
		return fmt.Sprintf("%T", obj)
	}
	return m.GetName() + "@" + m.GetResourceVersion()
}

// recorder keeps one line per handler call; onCall, if set, runs inside the call.
type recorder struct {
	mu     sync.Mutex
	lines  []string
	onCall func(line string, obj any)
}

func (r *recorder) record(line string, obj any) {
	r.mu.Lock()
	r.lines = append(r.lines, line)
	r.mu.Unlock()
	if r.onCall != nil {
		r.onCall(line, obj)
	}
}

func (r *recorder) OnAdd(obj any, init bool) {
	line := "ADD " + show(obj)
	if init {
		line += " init"
	}
	r.record(line, obj)
}
func (r *recorder) OnUpdate(o, n any) { r.record("UPD "+show(o)+"→"+show(n), n) }
func (r *recorder) OnDelete(obj any)  { r.record("DEL "+show(obj), obj) }

func (r *recorder) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.lines
	r.lines = nil
	return out
}

// source is a fake apiserver for pods holding the given names (RVs 1, 2, …).
func source(t *testing.T, names ...string) *fakesource.Source {
	t.Helper()
	src := fakesource.New()
	for _, n := range names {
		_, err := src.Add(pod(n))
		require.NoError(t, err)
	}
	t.Cleanup(src.Close)
	return src
}

func write(t *testing.T, op func(api.Object) (string, error), name string) {
	t.Helper()
	_, err := op(pod(name))
	require.NoError(t, err)
}

// run runs the controller in the bubble until the test ends.
func run(t *testing.T, c informer.Controller) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); c.RunWithContext(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	synctest.Wait()
}

// relist makes the next re-watch fail with 410, so the reflector lists again after its
// backoff (T9), and waits, in virtual time, until the controller has caught up.
func relist(t *testing.T, src *fakesource.Source, ctl informer.Controller) {
	t.Helper()
	src.Compact()
	src.ResetWatches()
	for range 100 {
		synctest.Wait()
		if ctl.LastSyncResourceVersion() == src.ResourceVersion() {
			synctest.Wait()
			return
		}
		time.Sleep(100 * time.Millisecond) // virtual time: lets the backoff run out
	}
	t.Fatal("no relist")
}

// TestCh06_CacheFirstThenNotify: when the handler of a NewInformer runs, the store already
// holds the object it is told about (the same pointer), or no longer holds a deleted one
// (C-5, C-6, SI-8).
func TestCh06_CacheFirstThenNotify(t *testing.T) {
	for _, p := range profiles {
		t.Run(p.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				src := source(t, "a", "b")
				rec := &recorder{}
				st, ctl := informer.NewInformerWithOptions(informer.InformerOptions{ListerWatcher: src, ObjectType: &api.Pod{}, Handler: rec, Profile: p})
				var problems []string
				rec.onCall = func(line string, obj any) {
					key, _ := store.DeletionHandlingMetaNamespaceKeyFunc(obj)
					cached, exists, _ := st.GetByKey(key)
					switch {
					case strings.HasPrefix(line, "DEL") && exists:
						problems = append(problems, line+": still cached")
					case !strings.HasPrefix(line, "DEL") && (!exists || cached != obj):
						problems = append(problems, line+": not the cached object")
					}
				}
				run(t, ctl)
				write(t, src.Add, "c")
				write(t, src.Modify, "a")
				write(t, src.Delete, "b")
				synctest.Wait()
				assert.Equal(t, []string{"ADD a@1 init", "ADD b@2 init", "ADD c@3", "UPD a@1→a@4", "DEL b@5"}, rec.take())
				assert.Empty(t, problems)
			})
		})
	}
}

// TestCh06_C5_AddOrUpdateDecidedByTheCache: processDeltas asks the cache, not the delta type.
// A MODIFIED event for a key the cache never had (its ADDED was dropped) becomes OnAdd; an
// ADDED event for a key still cached (its DELETED was dropped, then it was re-created)
// becomes OnUpdate (C-5).
func TestCh06_C5_AddOrUpdateDecidedByTheCache(t *testing.T) {
	for _, p := range profiles {
		t.Run(p.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				src := source(t, "a")
				rec := &recorder{}
				_, ctl := informer.NewInformerWithOptions(informer.InformerOptions{ListerWatcher: src, ObjectType: &api.Pod{}, Handler: rec, Profile: p})
				run(t, ctl)
				src.DropNextEvents(1)
				write(t, src.Add, "x")    // lost
				write(t, src.Modify, "x") // MODIFIED, x not cached
				src.DropNextEvents(1)
				write(t, src.Delete, "a") // lost
				write(t, src.Add, "a")    // ADDED, a still cached
				synctest.Wait()
				assert.Equal(t, []string{"ADD a@1 init", "ADD x@3", "UPD a@1→a@5"}, rec.take())
			})
		})
	}
}

// TestCh06_C14_SlowHandlerStallsThePipeline: the handler of a NewInformer runs on processLoop's
// goroutine. While it is stuck, the reflector keeps reading (ProfileCurrent releases the
// queue lock), but nothing else reaches the handler; when it returns, the backlog follows in
// order. A shared informer's handlers each get their own goroutine instead (chapter 07).
func TestCh06_C14_SlowHandlerStallsThePipeline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := source(t, "p1")
		gate := make(chan struct{})
		rec := &recorder{onCall: func(line string, _ any) {
			if line == "ADD a@2" {
				<-gate
			}
		}}
		st, ctl := informer.NewInformerWithOptions(informer.InformerOptions{ListerWatcher: src, ObjectType: &api.Pod{}, Handler: rec, Profile: informer.ProfileCurrent})
		run(t, ctl)
		write(t, src.Add, "a")
		synctest.Wait() // stuck in OnAdd(a)
		for _, n := range []string{"b", "c", "d"} {
			write(t, src.Add, n)
		}
		synctest.Wait()
		assert.Equal(t, "5", ctl.LastSyncResourceVersion(), "the reflector has queued b, c and d")
		assert.Equal(t, []string{"ADD p1@1 init", "ADD a@2"}, rec.take(), "…but the handler has seen none of them")
		assert.Len(t, st.List(), 2, "and neither has the cache")
		close(gate)
		synctest.Wait()
		assert.Equal(t, []string{"ADD b@3", "ADD c@4", "ADD d@5"}, rec.take())
	})
}

// blockingProbe wraps the DeltaFIFO's Add to tell when the reflector starts and ends adding b.
type blockingProbe struct {
	*deltafifo.DeltaFIFO
	entered, returned chan struct{}
}

func (q blockingProbe) Add(obj any) error {
	isB := show(obj) == "b@3"
	if isB {
		close(q.entered)
	}
	err := q.DeltaFIFO.Add(obj)
	if isB {
		close(q.returned)
	}
	return err
}

// TestCh06_C14_DeltaFIFOAlsoBlocksTheReflector: with the articles' DeltaFIFO the process
// function runs under the queue's lock, so a stuck handler stops the reflector too: its Add of
// the next event cannot return until the handler does (C-14, D-6). Built on the low-level
// controller, with the HandleDeltas logic written out as in Example_handleDeltas.
func TestCh06_C14_DeltaFIFOAlsoBlocksTheReflector(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := source(t, "p1")
		clientState := store.NewStore(store.DeletionHandlingMetaNamespaceKeyFunc)
		fifo := blockingProbe{
			DeltaFIFO: deltafifo.NewDeltaFIFOWithOptions(deltafifo.DeltaFIFOOptions{KnownObjects: clientState, EmitDeltaTypeReplaced: true}),
			entered:   make(chan struct{}), returned: make(chan struct{}),
		}
		gate := make(chan struct{})
		var mu sync.Mutex
		var order []string
		note := func(s string) { mu.Lock(); order = append(order, s); mu.Unlock() }
		ctl := informer.New(&informer.Config{
			Queue: fifo, ListerWatcher: src, ObjectType: &api.Pod{}, UseWatchList: new(bool),
			Process: func(obj any, _ bool) error {
				for _, d := range obj.(deltafifo.Deltas) {
					if err := clientState.Add(d.Object); err != nil {
						return err
					}
					if show(d.Object) == "a@2" { // the handler for a is slow
						<-gate
						note("handler for a returned")
					}
				}
				return nil
			},
		})
		run(t, ctl)
		write(t, src.Add, "a")
		synctest.Wait()
		write(t, src.Add, "b")
		<-fifo.entered
		select {
		case <-fifo.returned:
			t.Fatal("the reflector's Add returned while the handler held the queue")
		default:
		}
		close(gate)
		<-fifo.returned
		note("reflector's Add(b) returned")
		synctest.Wait()
		assert.Equal(t, []string{"handler for a returned", "reflector's Add(b) returned"}, order)
	})
}

// TestCh06_ProfileSwitch runs article point T22 (in-order delivery) and T23 (atomic relist)
// through NewInformer under the three profiles; -v prints what each handler saw.
func TestCh06_ProfileSwitch(t *testing.T) {
	for _, p := range profiles {
		t.Run(p.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				src := source(t, "p1", "p2")
				rec := &recorder{}
				pauser := &informer.Pauser{}
				pauser.Pause() // let the queue fill before anything is popped
				_, ctl := informer.NewInformerWithOptions(informer.InformerOptions{ListerWatcher: src, ObjectType: &api.Pod{}, Handler: rec, Profile: p, Pauser: pauser})
				run(t, ctl)
				write(t, src.Add, "a")
				write(t, src.Add, "b")
				write(t, src.Modify, "a")
				synctest.Wait()
				pauser.Resume()
				synctest.Wait()
				events := rec.take()[2:]
				t.Logf("%-8s T22 add a, add b, update a: %v", p, events)
				if p == informer.ProfileClassic {
					assert.Equal(t, []string{"ADD a@3", "UPD a@3→a@5", "ADD b@4"}, events, "a's deltas popped together")
				} else {
					assert.Equal(t, []string{"ADD a@3", "ADD b@4", "UPD a@3→a@5"}, events, "arrival order")
				}

				src.DropNextEvents(1)
				write(t, src.Delete, "p2")
				relist(t, src, ctl)
				events = rec.take()
				t.Logf("%-8s T23 relist without p2: %v", p, events)
				require.NotEmpty(t, events)
				tomb := events[len(events)-1]
				if p != informer.ProfileClassic {
					tomb = events[0]
				}
				assert.Equal(t, "DEL DFSU(p2@2)", tomb)
			})
		})
	}
}

// TestCh06_T4_MissedDeleteIsATombstone: a delete the watch missed comes back from the relist
// as OnDelete(DeletedFinalStateUnknown) carrying the last state the cache had; a handler must
// unwrap it (T4, K-5).
func TestCh06_T4_MissedDeleteIsATombstone(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := source(t, "p1", "p2")
		var got []any
		_, ctl := informer.NewInformerWithOptions(informer.InformerOptions{ListerWatcher: src, ObjectType: &api.Pod{},
			Handler: &recorder{onCall: func(line string, obj any) {
				if strings.HasPrefix(line, "DEL") {
					got = append(got, obj)
				}
			}}})
		run(t, ctl)
		src.DropNextEvents(1)
		write(t, src.Delete, "p2")
		relist(t, src, ctl)
		require.Len(t, got, 1)
		tomb, ok := got[0].(store.DeletedFinalStateUnknown)
		require.True(t, ok, "a tombstone, not a *Pod: %T", got[0])
		assert.Equal(t, "default/p2", tomb.Key)
		assert.Equal(t, "p2@2", show(tomb.Obj), "the last state the client knew")
	})
}
