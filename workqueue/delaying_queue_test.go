package workqueue

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/internal/clock"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// Everything here runs inside synctest bubbles: time is virtual, advances only when every
// goroutine of the bubble is blocked, and a goroutine still blocked when the bubble's main
// function returns fails the test (the leak check). advance moves virtual time on and lets
// the waiting loop run; it is not a synchronising sleep.
func advance(d time.Duration) {
	time.Sleep(d)
	synctest.Wait()
}

// newDelaying returns the concrete delaying queue and its inner basic queue.
func newDelaying(t *testing.T, config TypedDelayingQueueConfig[string]) (*delayingType[string], *Typed[string]) {
	t.Helper()
	dq := NewTypedDelayingQueueWithConfig(config).(*delayingType[string])
	inner, _ := dq.TypedInterface.(*Typed[string])
	return dq, inner
}

// getAt gets one item and reports how much virtual time passed since start.
func getAt(t *testing.T, q TypedInterface[string], start time.Time) (string, time.Duration) {
	t.Helper()
	item, shutdown := q.Get()
	require.False(t, shutdown)
	return item, time.Since(start)
}

// WQ-20: AddAfter is dropped while shutting down, adds at once for a delay ≤ 0, and waits
// otherwise.
func TestCh09_WQ20_AddAfter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dq, _ := newDelaying(t, TypedDelayingQueueConfig[string]{})
		defer dq.ShutDown()
		dq.AddAfter("zero", 0)
		dq.AddAfter("negative", -time.Second)
		assert.Equal(t, 2, dq.Len(), "a delay ≤ 0 adds at once")
		dq.AddAfter("later", time.Second)
		synctest.Wait()
		assert.Equal(t, 2, dq.Len(), "a positive delay waits")
		advance(time.Second)
		assert.Equal(t, 3, dq.Len())
	})
	synctest.Test(t, func(t *testing.T) {
		dq, _ := newDelaying(t, TypedDelayingQueueConfig[string]{})
		dq.ShutDown()
		dq.AddAfter("a", 0)
		dq.AddAfter("b", time.Second)
		advance(time.Second)
		assert.Zero(t, dq.Len(), "AddAfter after ShutDown is dropped")
	})
}

// blockingQueue is a basic queue whose Add blocks while gate is held, so the waiting loop
// can be stalled inside Add.
type blockingQueue struct {
	*Typed[string]
	gate chan struct{}
}

func (b *blockingQueue) Add(item string) {
	<-b.gate
	b.Typed.Add(item)
}

// WQ-20: the request channel holds 1000 requests; the next AddAfter blocks until the loop
// takes one, or until ShutDown.
func TestCh09_WQ20_AddAfterBlocksWhen1000Pending(t *testing.T) {
	for _, release := range []string{"loop drains", "shutdown"} {
		t.Run(release, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				bq := &blockingQueue{Typed: NewTyped[string](), gate: make(chan struct{})}
				dq, _ := newDelaying(t, TypedDelayingQueueConfig[string]{Queue: bq})
				dq.AddAfter("stall", time.Millisecond)
				advance(time.Millisecond) // the loop is now stuck in bq.Add
				for i := range waitingForAddBuffer {
					dq.AddAfter("x"+strconv.Itoa(i), time.Hour)
				}
				var returned atomic.Bool
				go func() {
					dq.AddAfter("one-too-many", time.Hour)
					returned.Store(true)
				}()
				synctest.Wait()
				require.False(t, returned.Load(), "the 1001st pending AddAfter must block")

				if release == "loop drains" {
					close(bq.gate)
					synctest.Wait()
					assert.True(t, returned.Load())
					dq.ShutDown()
					return
				}
				shutDown := make(chan struct{})
				go func() {
					dq.ShutDown()
					close(shutDown)
				}()
				synctest.Wait()
				assert.True(t, returned.Load(), "ShutDown releases a blocked AddAfter")
				close(bq.gate) // let the loop leave Add, so ShutDown can finish
				<-shutDown
			})
		})
	}
}

// WQ-21: the earliest ready time wins; entries come out in ready-time order; an entry
// already due when it reaches the loop is added at once.
func TestCh09_WQ21_WaitingLoop(t *testing.T) {
	tests := []struct {
		name  string
		after []struct {
			item string
			d    time.Duration
		}
		want []string // item@elapsed, in Get order
	}{
		{
			name: "later AddAfter ignored (T20)",
			after: []struct {
				item string
				d    time.Duration
			}{{"x", 50 * time.Millisecond}, {"x", 70 * time.Millisecond}},
			want: []string{"x@50ms"},
		},
		{
			name: "earlier AddAfter moves the entry up (T20)",
			after: []struct {
				item string
				d    time.Duration
			}{{"x", 50 * time.Millisecond}, {"x", 30 * time.Millisecond}},
			want: []string{"x@30ms"},
		},
		{
			name: "ready-time order, not call order",
			after: []struct {
				item string
				d    time.Duration
			}{{"c", 3 * time.Second}, {"a", time.Second}, {"b", 2 * time.Second}, {"a", 4 * time.Second}},
			want: []string{"a@1s", "b@2s", "c@3s"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				dq, _ := newDelaying(t, TypedDelayingQueueConfig[string]{})
				defer dq.ShutDown()
				start := time.Now()
				for _, a := range tt.after {
					dq.AddAfter(a.item, a.d)
				}
				var got []string
				for range tt.want {
					item, at := getAt(t, dq, start)
					got = append(got, item+"@"+at.String())
					dq.Done(item)
				}
				advance(time.Minute)
				assert.Zero(t, dq.Len(), "each item appears once")
				assert.Equal(t, tt.want, got)
			})
		})
	}
}

// deadTimerClock is the real (bubble) clock, except that its timers never fire: only the
// heartbeat can wake the waiting loop.
type deadTimerClock struct{ clock.RealClock }

type deadTimer struct{ c chan time.Time }

func (d deadTimer) C() <-chan time.Time    { return d.c }
func (deadTimer) Stop() bool               { return true }
func (deadTimer) Reset(time.Duration) bool { return true }

func (deadTimerClock) NewTimer(time.Duration) clock.Timer {
	return deadTimer{c: make(chan time.Time)}
}

// WQ-21: the 10 s heartbeat bounds the wait even if the timer never fires.
func TestCh09_WQ21_Heartbeat(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dq, _ := newDelaying(t, TypedDelayingQueueConfig[string]{Clock: deadTimerClock{}})
		defer dq.ShutDown()
		start := time.Now()
		dq.AddAfter("x", time.Second)
		item, at := getAt(t, dq, start)
		assert.Equal(t, "x", item)
		assert.Equal(t, maxWait, at, "added at the first heartbeat after it was due")
	})
}

// WQ-22: Add while the item waits makes it available now; the waiting entry still fires.
func TestCh09_WQ22_AddWhileWaiting(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dq, _ := newDelaying(t, TypedDelayingQueueConfig[string]{})
		defer dq.ShutDown()
		start := time.Now()
		dq.AddAfter("x", time.Second)
		dq.Add("x")
		item, at := getAt(t, dq, start)
		assert.Equal(t, "x@0s", item+"@"+at.String())
		dq.Done(item)
		item, at = getAt(t, dq, start)
		assert.Equal(t, "x@1s", item+"@"+at.String(), "the heap entry fires later")
		dq.Done(item)
	})
	synctest.Test(t, func(t *testing.T) {
		// If x is still queued (dirty) when its entry fires, the queue dedups it.
		dq, _ := newDelaying(t, TypedDelayingQueueConfig[string]{})
		defer dq.ShutDown()
		dq.AddAfter("x", time.Second)
		dq.Add("x")
		advance(time.Second)
		assert.Equal(t, 1, dq.Len())
	})
}

// WQ-23: ShutDown is idempotent, discards waiting items and stops the loop before it
// returns; ShutDownWithDrain reaches the inner queue and the loop stops too.
func TestCh09_WQ23_ShutDown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dq, inner := newDelaying(t, TypedDelayingQueueConfig[string]{})
		dq.AddAfter("waiting", time.Second)
		dq.Add("queued")
		synctest.Wait()
		dq.ShutDown()
		select {
		case <-dq.loopDone:
		default:
			t.Fatal("the waiting loop is still running after ShutDown")
		}
		dq.ShutDown()
		advance(time.Minute)
		assert.True(t, inner.ShuttingDown())
		assert.Equal(t, 1, dq.Len(), "the waiting item was discarded")
		assert.Equal(t, "queued", mustGet(t, inner))
	})
	synctest.Test(t, func(t *testing.T) {
		dq, inner := newDelaying(t, TypedDelayingQueueConfig[string]{})
		dq.Add("a")
		a := mustGet(t, inner)
		dq.AddAfter("waiting", time.Second)
		returned := make(chan struct{})
		go func() {
			dq.ShutDownWithDrain()
			close(returned)
		}()
		synctest.Wait()
		select {
		case <-returned:
			t.Fatal("ShutDownWithDrain returned while a was processing")
		default:
		}
		dq.Done(a)
		<-returned
		select {
		case <-dq.loopDone:
		default:
			t.Fatal("the waiting loop outlived ShutDownWithDrain")
		}
		dq.ShutDown() // still fine afterwards
		assert.Zero(t, dq.Len())
	})
}

// WQ-23 outside a bubble, with the real clock: workers blocked in Get, items waiting in the
// heap, then ShutDown; the workers end and no waiting loop survives.
func TestCh09_WQ23_ShutDownLeavesNoGoroutines(t *testing.T) {
	q := NewTypedRateLimitingQueue(DefaultTypedControllerRateLimiter[string]())
	var workers sync.WaitGroup
	for range 4 {
		workers.Go(func() {
			for {
				item, shutdown := q.Get()
				if shutdown {
					return
				}
				q.Done(item)
			}
		})
	}
	for i := range 100 {
		q.AddAfter("k"+strconv.Itoa(i), time.Hour)
	}
	q.ShutDown()
	workers.Wait()
	requireNoWaitingLoops(t)
}

// countingClock counts the calls the waiting loop makes, to prove it uses the injected clock.
type countingClock struct {
	clock.RealClock
	now, timers, tickers atomic.Int32
}

func (c *countingClock) Now() time.Time { c.now.Add(1); return c.RealClock.Now() }
func (c *countingClock) NewTimer(d time.Duration) clock.Timer {
	c.timers.Add(1)
	return c.RealClock.NewTimer(d)
}
func (c *countingClock) NewTicker(d time.Duration) clock.Ticker {
	c.tickers.Add(1)
	return c.RealClock.NewTicker(d)
}

// WQ-24: time comes from the injected clock. The verified sequence: AddAfter(x, 200ms), then
// AddAfter(x, 50ms) → x is present after 100ms.
func TestCh09_WQ24_InjectedClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := &countingClock{}
		dq, _ := newDelaying(t, TypedDelayingQueueConfig[string]{Clock: c})
		defer dq.ShutDown()
		dq.AddAfter("x", 200*time.Millisecond)
		dq.AddAfter("x", 50*time.Millisecond)
		advance(100 * time.Millisecond)
		assert.Equal(t, 1, dq.Len())
		assert.Positive(t, c.now.Load())
		assert.Positive(t, c.timers.Load())
		assert.Equal(t, int32(1), c.tickers.Load(), "the heartbeat")
	})
}

// INV-24 property test: random AddAfters of a few items, all at one instant; each item
// must become available exactly at the earliest time requested for it, and only once while
// it waits.
func TestCh09_INV24_Property(t *testing.T) {
	for seed := range uint64(20) {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := rand.New(rand.NewPCG(seed, 24))
				dq, _ := newDelaying(t, TypedDelayingQueueConfig[string]{})
				defer dq.ShutDown()
				start := time.Now()

				due := map[string]time.Duration{} // earliest requested time per item
				var got sync.Map                  // item → []time.Duration of its Gets
				done := make(chan struct{})
				go func() {
					defer close(done)
					for {
						item, shutdown := dq.Get()
						if shutdown {
							return
						}
						v, _ := got.LoadOrStore(item, &[]time.Duration{})
						*v.(*[]time.Duration) = append(*v.(*[]time.Duration), time.Since(start))
						dq.Done(item)
					}
				}()
				for range 40 {
					item := "i" + strconv.Itoa(r.IntN(6))
					d := time.Duration(1+r.IntN(500)) * time.Millisecond
					dq.AddAfter(item, d)
					if cur, ok := due[item]; !ok || d < cur {
						due[item] = d
					}
				}
				advance(time.Second)
				dq.ShutDown()
				<-done

				gotFirst := map[string][]time.Duration{}
				got.Range(func(k, v any) bool {
					gotFirst[k.(string)] = *v.(*[]time.Duration)
					return true
				})
				want := map[string][]time.Duration{}
				for item, d := range due {
					want[item] = []time.Duration{d}
				}
				require.Empty(t, cmp.Diff(want, gotFirst))
			})
		})
	}
}

// Tracing: AddAfter logs a requeue hop with the delay; the loop's add follows when due.
func TestCh09_DelayingTracing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var buf bytes.Buffer
		dq, _ := newDelaying(t, TypedDelayingQueueConfig[string]{Logger: trace.NewPlainLogger(&buf)})
		dq.AddAfter("a", 0)
		dq.AddAfter("b", 250*time.Millisecond)
		advance(250 * time.Millisecond)
		dq.ShutDown()
		dq.AddAfter("c", time.Second)
		want := `msg="workqueue requeue" component=workqueue op=requeue key=a rv="" delay=0s
msg="workqueue add" component=workqueue op=add key=a rv="" result=queued
msg="workqueue requeue" component=workqueue op=requeue key=b rv="" delay=250ms
msg="workqueue add" component=workqueue op=add key=b rv="" result=queued
msg="workqueue shutdown" component=workqueue op=shutdown key="" rv="" drain=false
`
		require.Empty(t, cmp.Diff(want, buf.String()))
	})
}

// The deprecated delaying constructors build working queues.
func TestCh09_DeprecatedDelayingAliases(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		queues := []DelayingInterface{
			NewDelayingQueue(),
			NewDelayingQueueWithConfig(DelayingQueueConfig{}),
			NewNamedDelayingQueue("n"),
			NewDelayingQueueWithCustomQueue(New(), "n"),
			NewDelayingQueueWithCustomClock(clock.RealClock{}, "n"),
		}
		for _, q := range queues {
			q.AddAfter("a", time.Second)
			advance(time.Second)
			assert.Equal(t, 1, q.Len())
			q.ShutDown()
		}
		typed := TypedNewDelayingQueue[int]()
		typed.AddAfter(1, 0)
		assert.Equal(t, 1, typed.Len())
		typed.ShutDown()
	})
}

// The leak detector itself: it sees a running waiting loop, and sees it gone after ShutDown.
func TestCh09_WQ23_LeakDetectorSeesARunningLoop(t *testing.T) {
	dq := NewTypedDelayingQueue[string]()
	require.NotEmpty(t, waitingLoops())
	dq.ShutDown()
	requireNoWaitingLoops(t)
}
