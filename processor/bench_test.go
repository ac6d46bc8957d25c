package processor

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"
)

// runProcessor starts a processor with n listeners whose handlers do nothing but count, and
// returns it with a function that waits until every listener has handled total notifications
// and then stops it.
func runProcessor(b *testing.B, n int, log *slog.Logger) (*SharedProcessor, func(total int)) {
	return runProcessorGated(b, n, nil, log)
}

// runProcessorGated is runProcessor where listener 0's handler, when gate is non-nil, waits for
// gate to close before its first call returns: a stalled handler.
func runProcessorGated(b *testing.B, n int, gate chan struct{}, log *slog.Logger) (*SharedProcessor, func(total int)) {
	b.Helper()
	p := NewSharedProcessor(ProcessorOptions{Logger: log})
	counts := make([]chan int, n)
	for i := range n {
		counts[i] = make(chan int, 1)
		seen := 0
		var mu sync.Mutex
		stall := gate != nil && i == 0
		h := ResourceEventHandlerFuncs{AddFunc: func(any) {
			if stall {
				<-gate
			}
			mu.Lock()
			seen++
			s := seen
			mu.Unlock()
			select { // keep only the latest count
			case <-counts[i]:
			default:
			}
			counts[i] <- s
		}}
		l, err := NewProcessorListener(h, 0, 0, time.Now(), InitialBufferSize, alreadySynced(), ListenerOptions{Logger: log})
		if err != nil {
			b.Fatal(err)
		}
		p.AddListener(l)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { p.Run(ctx) })
	return p, func(total int) {
		for i := range n {
			for s := 0; s < total; s = <-counts[i] {
			}
		}
		cancel()
		wg.Wait()
	}
}

// BenchmarkDistribute measures one Distribute to 1 and 10 listeners, including the hand-off to
// each listener's pop goroutine; the handlers keep up, so the rings rarely fill.
func BenchmarkDistribute(b *testing.B) {
	for _, n := range []int{1, 2, 10} {
		b.Run(fmt.Sprintf("listeners=%d", n), func(b *testing.B) {
			p, finish := runProcessor(b, n, nil)
			var note any = AddNotification{NewObj: pod("a", "1")}
			b.ReportAllocs()
			total := 0
			for b.Loop() {
				p.Distribute(note, false)
				total++
			}
			finish(total)
		})
	}
}

// BenchmarkDistributeBoxed is the same with a fresh notification per call, as the informer
// does: the one allocation is the notification boxed into an interface, as in client-go.
func BenchmarkDistributeBoxed(b *testing.B) {
	p, finish := runProcessor(b, 1, nil)
	obj := pod("a", "1")
	b.ReportAllocs()
	total := 0
	for b.Loop() {
		p.Distribute(AddNotification{NewObj: obj}, false)
		total++
	}
	finish(total)
}

// BenchmarkDistributeTraceDisabled shows that a logger with Debug off costs no allocation.
func BenchmarkDistributeTraceDisabled(b *testing.B) {
	p, finish := runProcessor(b, 1, slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelInfo})))
	var note any = AddNotification{NewObj: pod("a", "1")}
	b.ReportAllocs()
	total := 0
	for b.Loop() {
		p.Distribute(note, false)
		total++
	}
	finish(total)
}

// BenchmarkDistributeTraceEnabled is the price of the four hops when tracing is on.
func BenchmarkDistributeTraceEnabled(b *testing.B) {
	p, finish := runProcessor(b, 1, slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelDebug})))
	var note any = AddNotification{NewObj: pod("a", "1")}
	b.ReportAllocs()
	total := 0
	for b.Loop() {
		p.Distribute(note, false)
		total++
	}
	finish(total)
}

// BenchmarkDistributeWithStalledListener is listeners=2 with one handler stalled for the whole
// run (T12): Distribute, and so the healthy handler, should cost what it costs with two healthy
// listeners, while the stalled listener's ring absorbs everything.
func BenchmarkDistributeWithStalledListener(b *testing.B) {
	gate := make(chan struct{})
	p, finish := runProcessorGated(b, 2, gate, nil)
	var note any = AddNotification{NewObj: pod("a", "1")}
	b.ReportAllocs()
	total := 0
	for b.Loop() {
		p.Distribute(note, false)
		total++
	}
	close(gate)
	finish(total)
}
