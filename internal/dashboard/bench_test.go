package dashboard

import (
	"log/slog"
	"testing"
	"time"

	"github.com/informer-lab/informer-lab/internal/trace"
)

// BenchmarkDashboard_HopNoSubscriber is what every pipeline hop pays while no browser watches:
// trace.Enabled asks the Hub, which says no (contract 3). It must report 0 allocs.
func BenchmarkDashboard_HopNoSubscriber(b *testing.B) {
	l := slog.New(NewHub())
	b.ReportAllocs()
	for b.Loop() {
		trace.Hop(l, "indexer", "add", "default/pod-1", "42", slog.String(trace.KeyType, "Added"))
	}
}

// BenchmarkDashboard_HopOneSubscriber is the cost of one hop encoded and queued for one
// browser; a goroutine drains the queue as the /events handler would.
func BenchmarkDashboard_HopOneSubscriber(b *testing.B) {
	benchSubscribers(b, 1)
}

// BenchmarkDashboard_HopFourSubscribers shows that fan-out encodes once: more tabs add a
// channel send each, not an encoding.
func BenchmarkDashboard_HopFourSubscribers(b *testing.B) {
	benchSubscribers(b, 4)
}

func benchSubscribers(b *testing.B, n int) {
	hub := NewHub()
	stop := make(chan struct{})
	done := make(chan struct{})
	for range n {
		s, unsub := hub.subscribe(DefaultSubscriberBuffer)
		go func() {
			defer func() { unsub(); done <- struct{}{} }()
			for {
				select {
				case <-s.ch:
				case <-stop:
					return
				}
			}
		}()
	}
	l := slog.New(hub)
	b.ReportAllocs()
	for b.Loop() {
		trace.Hop(l, "indexer", "add", "default/pod-1", "42", slog.String(trace.KeyType, "Added"))
	}
	b.StopTimer()
	close(stop)
	for range n {
		<-done
	}
	b.ReportMetric(float64(hub.Dropped()), "dropped")
}

// BenchmarkDashboard_Encode is the encoding alone, for a typical trace hop.
func BenchmarkDashboard_Encode(b *testing.B) {
	hub := NewHub()
	r := slog.NewRecord(time.Now(), slog.LevelDebug, "indexer add", 0)
	r.AddAttrs(slog.String(trace.KeyComponent, "indexer"), slog.String(trace.KeyOp, "add"),
		slog.String(trace.KeyKey, "default/pod-1"), slog.String(trace.KeyRV, "42"),
		slog.String(trace.KeyType, "Added"))
	b.ReportAllocs()
	for b.Loop() {
		_ = hub.encode(1, r)
	}
}
