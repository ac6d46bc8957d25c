package workqueue

import (
	"bytes"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/internal/fuzztape"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// check asserts INV-23 after an operation.
func check[T comparable](t *testing.T, q *Typed[T]) {
	t.Helper()
	require.NoError(t, q.checkInvariants())
}

// mustGet gets an item that must be there, so the test never blocks.
func mustGet[T comparable](t *testing.T, q *Typed[T]) T {
	t.Helper()
	require.Positive(t, q.Len(), "Get would block")
	item, shutdown := q.Get()
	require.False(t, shutdown)
	check(t, q)
	return item
}

// touchQueue is a DefaultQueue that records Touch calls, to observe WQ-1's hook.
type touchQueue struct {
	Queue[string]
	touched []string
}

func (q *touchQueue) Touch(item string) { q.touched = append(q.touched, item) }

// WQ-1: Add is ignored while shutting down, does nothing for a dirty item (calling Touch
// only if it is not processing), and only marks an item dirty while it is processing.
func TestCh09_WQ1_Add(t *testing.T) {
	tq := &touchQueue{Queue: DefaultQueue[string]()}
	q := NewTypedWithConfig(TypedQueueConfig[string]{Queue: tq})

	q.Add("a")
	q.Add("a") // dirty and queued: Touch, nothing else
	assert.Equal(t, 1, q.Len())
	assert.Equal(t, []string{"a"}, tq.touched)

	item, _ := q.Get()
	require.Equal(t, "a", item)
	q.Add("a") // processing: dirty, not queued
	assert.Equal(t, 0, q.Len())
	q.Add("a") // dirty and processing: no Touch
	assert.Equal(t, []string{"a"}, tq.touched)
	assert.Equal(t, map[string]bool{"a": true}, q.snapshot().Dirty)

	q.ShutDown()
	q.Add("b") // ignored
	assert.Equal(t, 0, q.Len())
	assert.NotContains(t, q.snapshot().Dirty, "b")
}

// TestCh09_WQ1_AddAlone: Add alone, before Get and Done exist. A new item is dirty and queued;
// adding it again while it waits only touches it; after ShutDown an Add is ignored (WQ-1).
func TestCh09_WQ1_AddAlone(t *testing.T) {
	tq := &touchQueue{Queue: DefaultQueue[string]()}
	q := NewTypedWithConfig(TypedQueueConfig[string]{Queue: tq})
	q.Add("a")
	q.Add("b")
	q.Add("a") // dirty and queued: Touch, nothing else
	assert.Equal(t, 2, q.Len())
	assert.Equal(t, []string{"a"}, tq.touched)
	assert.Equal(t, map[string]bool{"a": true, "b": true}, q.snapshot().Dirty)
	q.ShutDown()
	q.Add("c") // ignored
	assert.Equal(t, 2, q.Len())
	assert.NotContains(t, q.snapshot().Dirty, "c")
}

// WQ-2: Get waits while the queue is empty, moves the head to processing and out of dirty,
// and returns (zero, true) once shut down and empty.
func TestCh09_WQ2_Get(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := NewTyped[string]()
		got := make(chan string)
		go func() {
			item, shutdown := q.Get()
			assert.False(t, shutdown)
			got <- item
		}()
		synctest.Wait()
		select {
		case <-got:
			t.Fatal("Get returned on an empty queue")
		default:
		}
		q.Add("a")
		assert.Equal(t, "a", <-got)
		s := q.snapshot()
		assert.Equal(t, map[string]bool{"a": true}, s.Processing)
		assert.Empty(t, s.Dirty)
		check(t, q)

		go func() {
			item, shutdown := q.Get()
			assert.True(t, shutdown)
			got <- item
		}()
		synctest.Wait()
		q.ShutDown()
		assert.Equal(t, "", <-got, "a blocked Get wakes up with the zero item on shutdown")
	})
}

// WQ-3: Done removes the item from processing and queues it at the tail if it was added
// meanwhile; otherwise it is gone.
func TestCh09_WQ3_Done(t *testing.T) {
	q := NewTyped[string]()
	q.Add("a")
	q.Add("b")
	a := mustGet(t, q)
	q.Add("a")
	q.Add("c")
	q.Done(a)
	check(t, q)
	assert.Equal(t, []string{"b", "c", "a"}, q.snapshot().Queued, "a requeued at the tail")

	b := mustGet(t, q)
	q.Done(b)
	check(t, q)
	s := q.snapshot()
	assert.Equal(t, []string{"c", "a"}, s.Queued)
	assert.Empty(t, s.Processing)
}

// Done of an item that is not processing is ignored. client-go would push a queued one a
// second time; INV-23 must survive that misuse.
func TestCh09_WQ3_DoneOfUnknownItemIgnored(t *testing.T) {
	q := NewTyped[string]()
	q.Add("a")
	q.Done("a")
	q.Done("never")
	check(t, q)
	assert.Equal(t, []string{"a"}, q.snapshot().Queued)
}

// WQ-4: the verified sequence Add a,b,a → Len 2; Get a; Add a → Len 1; Done a → Len 2.
func TestCh09_WQ4_VerifiedSequence(t *testing.T) {
	q := NewTyped[string]()
	q.Add("a")
	q.Add("b")
	q.Add("a")
	assert.Equal(t, 2, q.Len())
	assert.Equal(t, "a", mustGet(t, q))
	q.Add("a")
	assert.Equal(t, 1, q.Len())
	q.Done("a")
	assert.Equal(t, 2, q.Len())
	assert.Equal(t, []string{"b", "a"}, q.snapshot().Queued)
	check(t, q)
}

// WQ-4 under concurrency, white-box: producers re-add keys while workers process them; an
// in-flight set shows no key is ever held by two workers, and a checker goroutine runs the
// INV-23 inspector throughout.
func TestCh09_WQ4_ConcurrentNoDoubleProcessing(t *testing.T) {
	const producers, workers, keys, adds = 8, 4, 5, 300
	q := NewTyped[int]()
	var (
		inFlight   sync.Map // key → *atomic.Int32
		violations atomic.Int32
		prodWG     sync.WaitGroup
		workWG     sync.WaitGroup
	)
	for k := range keys {
		inFlight.Store(k, new(atomic.Int32))
	}
	stopCheck := make(chan struct{})
	checkDone := make(chan error, 1)
	go func() {
		for {
			if err := q.checkInvariants(); err != nil {
				checkDone <- err
				return
			}
			select {
			case <-stopCheck:
				checkDone <- nil
				return
			default:
			}
		}
	}()
	for w := range workers {
		workWG.Go(func() {
			for {
				k, shutdown := q.Get()
				if shutdown {
					return
				}
				c, _ := inFlight.Load(k)
				if c.(*atomic.Int32).Add(1) != 1 {
					violations.Add(1)
				}
				if w%2 == 0 {
					q.Add(k) // re-add during processing: deferred until Done
				}
				c.(*atomic.Int32).Add(-1)
				q.Done(k)
			}
		})
	}
	for p := range producers {
		prodWG.Go(func() {
			for i := range adds {
				q.Add((p + i) % keys)
			}
		})
	}
	prodWG.Wait()
	q.ShutDown()
	workWG.Wait()
	close(stopCheck)
	require.NoError(t, <-checkDone)
	assert.Zero(t, violations.Load(), "a key was processed by two workers at once")
	assert.Zero(t, q.Len())
	check(t, q)
}

// WQ-5: Len counts queued items only, not the processing ones.
func TestCh09_WQ5_LenCountsQueuedOnly(t *testing.T) {
	q := NewTyped[string]()
	q.Add("a")
	q.Add("b")
	assert.Equal(t, 2, q.Len())
	mustGet(t, q)
	assert.Equal(t, 1, q.Len())
	mustGet(t, q)
	assert.Equal(t, 0, q.Len())
}

// WQ-6: ShutDown ignores new items, Get drains the queued ones, then reports shutdown forever.
func TestCh09_WQ6_ShutDown(t *testing.T) {
	q := NewTyped[string]()
	q.Add("a")
	q.Add("b")
	q.ShutDown()
	assert.True(t, q.ShuttingDown())
	q.Add("c")
	assert.Equal(t, "a", mustGet(t, q))
	assert.Equal(t, "b", mustGet(t, q))
	for range 3 {
		item, shutdown := q.Get()
		assert.True(t, shutdown)
		assert.Empty(t, item)
	}
	q.ShutDown() // a second ShutDown is harmless
	check(t, q)
}

// WQ-7: an item made dirty while processing, before the shutdown, is requeued by its Done
// after the shutdown and handed out again.
func TestCh09_WQ7_DirtyItemRequeuedAfterShutDown(t *testing.T) {
	q := NewTyped[string]()
	q.Add("a")
	a := mustGet(t, q)
	q.Add("a")
	q.ShutDown()
	q.Done(a)
	assert.Equal(t, "a", mustGet(t, q))
	q.Done("a")
	_, shutdown := q.Get()
	assert.True(t, shutdown)
}

// WQ-8: ShutDownWithDrain waits while something is processing, not for queued items; a
// later ShutDown releases it.
func TestCh09_WQ8_ShutDownWithDrain(t *testing.T) {
	t.Run("waits for processing items", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			q := NewTyped[string]()
			q.Add("a")
			q.Add("b")
			a := mustGet(t, q)
			returned := make(chan struct{})
			go func() {
				q.ShutDownWithDrain()
				close(returned)
			}()
			synctest.Wait()
			select {
			case <-returned:
				t.Fatal("ShutDownWithDrain returned while a was processing")
			default:
			}
			assert.True(t, q.ShuttingDown())
			q.Done(a)
			<-returned
			assert.Equal(t, "b", mustGet(t, q), "workers still receive queued items")
		})
	})
	t.Run("returns at once when nothing is processing", func(t *testing.T) {
		q := NewTyped[string]()
		q.Add("a")
		q.ShutDownWithDrain()
		assert.Equal(t, 1, q.Len())
		assert.Equal(t, "a", mustGet(t, q))
	})
	t.Run("a later ShutDown releases it", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			q := NewTyped[string]()
			q.Add("a")
			mustGet(t, q) // never Done
			returned := make(chan struct{})
			go func() {
				q.ShutDownWithDrain()
				close(returned)
			}()
			synctest.Wait()
			select {
			case <-returned:
				t.Fatal("ShutDownWithDrain returned while a was processing")
			default:
			}
			q.ShutDown()
			<-returned
		})
	})
	t.Run("every drainer wakes", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			q := NewTyped[string]()
			q.Add("a")
			a := mustGet(t, q)
			var wg sync.WaitGroup
			for range 3 {
				wg.Go(q.ShutDownWithDrain)
			}
			synctest.Wait()
			q.Done(a)
			wg.Wait()
		})
	})
}

// WQ-9: ShuttingDown reports the flag; items are comparable values, so a struct key works.
func TestCh09_WQ9_ShuttingDownAndComparableItems(t *testing.T) {
	type key struct{ Namespace, Name string }
	q := NewTyped[key]()
	assert.False(t, q.ShuttingDown())
	q.Add(key{"ns", "a"})
	q.Add(key{"ns", "a"})
	assert.Equal(t, 1, q.Len(), "equal struct values are one item")
	q.ShutDown()
	assert.True(t, q.ShuttingDown())
}

// INV-23 property test: random Adds, Gets, Dones and shutdowns against a simple model of the
// three sets, with the inspector after every operation. Then it drains, and checks that the
// last effective Add of every item was followed by a Get (no lost update) and Len() == 0.
func TestCh09_INV23_Property(t *testing.T) {
	const seeds, ops = 30, 400
	for seed := range uint64(seeds) {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			wqRunOps(t, rand.New(rand.NewPCG(seed, 9)), ops)
		})
	}
}

// FuzzQueueOps drives the INV-23 property run with the fuzzer's bytes as its choices:
// go test -run='^$' -fuzz=FuzzQueueOps ./workqueue/
func FuzzQueueOps(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{1, 0, 1, 1, 2, 9, 3, 15, 0, 4, 19, 0, 7, 1, 12, 2, 18, 9})
	f.Add([]byte("add get done shutdown drain"))
	f.Fuzz(func(t *testing.T, data []byte) {
		wqRunOps(t, fuzztape.New(data), len(data)/2)
	})
}

// wqRunOps is the body of the INV-23 property run; pick makes every choice, so a seeded
// *rand.Rand and a fuzzer's tape drive the same code.
func wqRunOps(t *testing.T, pick fuzztape.Chooser, ops int) {
	const nkeys = 5
	q := NewTyped[string]()
	want := queueState[string]{Dirty: map[string]bool{}, Processing: map[string]bool{}}
	lastAdd := map[string]int{} // op index of the last Add that took effect
	lastGet := map[string]int{} // op index of the last Get
	step := 0

	get := func() {
		item, shutdown := q.Get()
		if len(want.Queued) == 0 {
			require.True(t, shutdown)
			return
		}
		require.False(t, shutdown)
		require.Equal(t, want.Queued[0], item, "FIFO by (re)queue time")
		want.Queued = want.Queued[1:]
		delete(want.Dirty, item)
		want.Processing[item] = true
		lastGet[item] = step
	}
	done := func(item string) {
		q.Done(item)
		if !want.Processing[item] {
			return
		}
		delete(want.Processing, item)
		if want.Dirty[item] {
			want.Queued = append(want.Queued, item)
		}
	}

	for ; step < ops; step++ {
		key := "k" + strconv.Itoa(pick.IntN(nkeys))
		switch op := pick.IntN(20); {
		case op < 8:
			q.Add(key)
			if !want.Shutdown && !want.Dirty[key] {
				want.Dirty[key] = true
				if !want.Processing[key] {
					want.Queued = append(want.Queued, key)
				}
				lastAdd[key] = step
			}
		case op < 13:
			if q.Len() > 0 || want.Shutdown {
				get()
			}
		case op < 19:
			if pick.IntN(10) == 0 {
				done(key) // maybe not processing: ignored
			} else {
				for k := range want.Processing {
					done(k)
					break
				}
			}
		default:
			if pick.IntN(8) == 0 {
				if len(want.Processing) == 0 && pick.IntN(2) == 0 {
					q.ShutDownWithDrain() // returns at once: nothing is processing
				} else {
					q.ShutDown()
				}
				want.Shutdown = true
			}
		}
		check(t, q)
		require.Empty(t, cmp.Diff(want, q.snapshot()), "after op %d", step)
	}

	// Quiescence: finish what is processing, then let one worker drain the rest.
	for k := range want.Processing {
		done(k)
	}
	for q.Len() > 0 {
		step++
		get()
		for k := range want.Processing {
			done(k)
		}
		check(t, q)
	}
	assert.Zero(t, q.Len())
	for key, added := range lastAdd {
		assert.Greater(t, lastGet[key], added, "the last Add of %s was never followed by a Get", key)
	}
}

// Tracing: one line per hop, with what each add and done did.
func TestCh09_Tracing(t *testing.T) {
	var buf bytes.Buffer
	q := NewTypedWithConfig(TypedQueueConfig[string]{Name: "pods", Logger: trace.NewPlainLogger(&buf)})
	q.Add("ns/a")
	q.Add("ns/a")
	a := mustGet(t, q)
	q.Add("ns/a")
	q.Done(a)
	q.Done("ns/b")
	a = mustGet(t, q)
	q.Done(a)
	q.ShutDown()
	q.Add("ns/c")
	want := `msg="workqueue add" component=workqueue op=add key=ns/a rv="" result=queued queue=pods
msg="workqueue add" component=workqueue op=add key=ns/a rv="" result=dirty queue=pods
msg="workqueue get" component=workqueue op=get key=ns/a rv="" queue=pods
msg="workqueue add" component=workqueue op=add key=ns/a rv="" result=deferred queue=pods
msg="workqueue done" component=workqueue op=done key=ns/a rv="" result=requeued queue=pods
msg="workqueue done" component=workqueue op=done key=ns/b rv="" result=unknown queue=pods
msg="workqueue get" component=workqueue op=get key=ns/a rv="" queue=pods
msg="workqueue done" component=workqueue op=done key=ns/a rv="" result=finished queue=pods
msg="workqueue shutdown" component=workqueue op=shutdown key="" rv="" drain=false queue=pods
msg="workqueue add" component=workqueue op=add key=ns/c rv="" result=ignored queue=pods
`
	require.Empty(t, cmp.Diff(want, buf.String()))
}

// Tracing costs no allocation when the logger is nil or Debug is disabled.
func TestCh09_TracingDisabledAllocs(t *testing.T) {
	allocs := func(l *slog.Logger) float64 {
		q := NewTypedWithConfig(TypedQueueConfig[string]{Logger: l})
		return testing.AllocsPerRun(1000, func() {
			q.Add("a")
			q.Add("a")
			item, _ := q.Get()
			q.Add(item)
			q.Done(item)
			item, _ = q.Get()
			q.Done(item)
		})
	}
	quiet := slog.New(slog.NewTextHandler(&bytes.Buffer{}, &slog.HandlerOptions{Level: slog.LevelInfo}))
	assert.Zero(t, allocs(nil))
	assert.Zero(t, allocs(quiet))
}

// The deprecated untyped names still work, as in client-go.
func TestCh09_DeprecatedAliases(t *testing.T) {
	var q Interface = New()
	q.Add("a")
	q.Add(1)
	item, _ := q.Get()
	assert.Equal(t, "a", item)
	q.Done(item)
	assert.Equal(t, 1, q.Len())
	q.ShutDown()

	named := NewNamed("n")
	assert.Equal(t, "n", named.name)
	named.ShutDown()
	var _ *Type = NewWithConfig(QueueConfig{})
}

// DefaultQueue is FIFO through its rewinds and compactions, and clears popped slots so
// that the backing array does not pin items.
func TestCh09_DefaultQueueFIFO(t *testing.T) {
	q := DefaultQueue[int]().(*queue[int])
	next, want := 0, 0
	push := func(n int) {
		for range n {
			q.Push(next)
			next++
		}
	}
	pop := func(n int) {
		for range n {
			require.Equal(t, want, q.Pop())
			want++
		}
	}
	push(3000)
	pop(2000) // compacts once more than half of the array was popped
	assert.Less(t, q.head, compactAfter)
	assert.Equal(t, 1000, q.Len())
	push(500)
	pop(1500) // empties: rewinds to the start
	assert.Zero(t, q.head)
	assert.Zero(t, q.Len())
	for _, v := range q.items[:cap(q.items)] {
		require.Zero(t, v, "a popped slot still holds an item")
	}
	push(3)
	pop(3)
}
