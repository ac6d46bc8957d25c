package workqueue

import (
	"bytes"
	"io"
	"log/slog"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/informer-lab/informer-lab/internal/clock"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// BenchmarkAddGetDone: one op is one item going Add → Get → Done, with P producers adding
// distinct keys and P workers, so nothing is deduplicated and every op crosses the lock
// three times.
func BenchmarkAddGetDone(b *testing.B) {
	for _, p := range []int{1, 4, 16} {
		b.Run(strconv.Itoa(p)+"x"+strconv.Itoa(p), func(b *testing.B) {
			q := NewTyped[int]()
			var workers sync.WaitGroup
			for range p {
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
			var next atomic.Int64
			var producers sync.WaitGroup
			b.ReportAllocs()
			b.ResetTimer()
			for range p {
				producers.Go(func() {
					for {
						i := next.Add(1)
						if i > int64(b.N) {
							return
						}
						q.Add(int(i))
					}
				})
			}
			producers.Wait()
			q.ShutDown()
			workers.Wait()
		})
	}
}

// BenchmarkAddGetDoneTrace: one goroutine, one op = Add, Add (dirty), Get, Done, with no
// logger, a logger whose Debug is disabled, and an enabled logger writing to io.Discard.
// The first two must both report 0 allocs/op: a disabled trace costs nothing.
func BenchmarkAddGetDoneTrace(b *testing.B) {
	loggers := []struct {
		name string
		l    *slog.Logger
	}{
		{"nil", nil},
		{"disabled", slog.New(slog.NewTextHandler(&bytes.Buffer{}, &slog.HandlerOptions{Level: slog.LevelInfo}))},
		{"enabled", trace.NewPlainLogger(io.Discard)},
	}
	for _, lg := range loggers {
		b.Run(lg.name, func(b *testing.B) {
			q := NewTypedWithConfig(TypedQueueConfig[string]{Logger: lg.l})
			b.ReportAllocs()
			for b.Loop() {
				q.Add("ns/a")
				q.Add("ns/a")
				item, _ := q.Get()
				q.Done(item)
			}
		})
	}
}

// benchClock is a hand-stepped clock: Now moves only when advance is called, timers never
// fire, and the heartbeat ticks only when tick is called. The benchmark thus releases 100k
// waiting items in one step, without waiting in real time.
type benchClock struct {
	offset atomic.Int64
	ticks  chan time.Time
}

var benchEpoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

func (c *benchClock) Now() time.Time                       { return benchEpoch.Add(time.Duration(c.offset.Load())) }
func (c *benchClock) Since(t time.Time) time.Duration      { return c.Now().Sub(t) }
func (c *benchClock) After(time.Duration) <-chan time.Time { return nil }
func (c *benchClock) NewTimer(time.Duration) clock.Timer   { return deadTimer{} }
func (c *benchClock) NewTicker(time.Duration) clock.Ticker { return benchTicker{c.ticks} }
func (c *benchClock) advance(d time.Duration)              { c.offset.Add(int64(d)) }
func (c *benchClock) tick()                                { c.ticks <- c.Now() }
func newBenchClock() *benchClock                           { return &benchClock{ticks: make(chan time.Time)} }

type benchTicker struct{ c chan time.Time }

func (t benchTicker) C() <-chan time.Time { return t.c }
func (benchTicker) Stop()                 {}

// BenchmarkAddAfter100k: one op is 100k AddAfter calls with random delays up to 100 s, then
// one clock step past them all and 100k Get/Done: every item goes through the request
// channel, the heap and the queue.
func BenchmarkAddAfter100k(b *testing.B) {
	const n = 100_000
	r := rand.New(rand.NewPCG(1, 2))
	delays := make([]time.Duration, n)
	for i := range delays {
		delays[i] = time.Duration(1+r.IntN(100_000)) * time.Millisecond
	}
	b.ReportAllocs()
	for b.Loop() {
		c := newBenchClock()
		q := NewTypedDelayingQueueWithConfig(TypedDelayingQueueConfig[int]{Clock: c})
		for i, d := range delays {
			q.AddAfter(i, d)
		}
		c.advance(101 * time.Second)
		c.tick()
		for range n {
			item, _ := q.Get()
			q.Done(item)
		}
		q.ShutDown()
	}
}

// BenchmarkDefaultControllerRateLimiterWhen: one op is one When on the default controller
// limiter, cycling over 1000 keys and forgetting each after 10 failures, so both the
// per-item map and the shared bucket are exercised.
func BenchmarkDefaultControllerRateLimiterWhen(b *testing.B) {
	l := DefaultTypedControllerRateLimiter[string]()
	keys := make([]string, 1000)
	for i := range keys {
		keys[i] = "ns/pod-" + strconv.Itoa(i)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		k := keys[i%len(keys)]
		l.When(k)
		if (i/len(keys))%10 == 9 { // every tenth round over the keys ends in Forget
			l.Forget(k)
		}
		i++
	}
}
