package reflector

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"testing"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/deltafifo"
	"github.com/informer-lab/informer-lab/listwatch"
	"github.com/informer-lab/informer-lab/reflector/fakesource"
	"github.com/informer-lab/informer-lab/store"
)

// benchEvents is a stream of n events over keys objects: each key is ADDED once, then
// MODIFIED. The objects are built up front so that only the reflector and the store are
// measured.
func benchEvents(n, keys int) []watch.Event {
	events := make([]watch.Event, n)
	for i := range events {
		p := pod(fmt.Sprint("p", i%keys), fmt.Sprint(i+1))
		t := watch.Modified
		if i < keys {
			t = watch.Added
		}
		events[i] = watch.Event{Type: t, Object: p}
	}
	return events
}

// BenchmarkWatchHandler pushes 100k watch events (10k keys) through handleAnyWatch into each
// kind of store, with tracing off and on. One op is the whole stream; events/s and
// allocs/event are reported beside the usual figures.
func BenchmarkWatchHandler(b *testing.B) {
	const n, keys = 100_000, 10_000
	events := benchEvents(n, keys)
	stores := []struct {
		name string
		make func() ReflectorStore
	}{
		{"nop", func() ReflectorStore { return nopStore{} }},
		{"deltafifo", func() ReflectorStore {
			return deltafifo.NewDeltaFIFOWithOptions(deltafifo.DeltaFIFOOptions{EmitDeltaTypeReplaced: true})
		}},
		{"realfifo-atomic", func() ReflectorStore {
			return deltafifo.NewRealFIFOWithOptions(deltafifo.RealFIFOOptions{AtomicEvents: true, EmitDeltaTypeBookmark: true})
		}},
		{"store", func() ReflectorStore { return store.NewStore(store.MetaNamespaceKeyFunc) }},
	}
	loggers := []struct {
		name   string
		logger *slog.Logger
	}{
		{"trace=off", nil},
		{"trace=on", slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelDebug}))},
	}
	for _, lg := range loggers {
		for _, sc := range stores {
			b.Run(sc.name+"/"+lg.name, func(b *testing.B) {
				r := NewReflectorWithOptions(fakesource.New(), &api.Pod{}, nopStore{}, ReflectorOptions{Name: "bench", Logger: lg.logger})
				setRV := func(rv string, _ bool) { r.setLastSyncResourceVersion(rv) }
				ctx := context.Background()
				b.ReportAllocs()
				var ms0, ms1 runtime.MemStats
				runtime.ReadMemStats(&ms0)
				for b.Loop() {
					b.StopTimer()
					w, st := newSliceWatcher(events), sc.make()
					b.StartTimer()
					if _, err := r.handleAnyWatch(ctx, time.Now(), w, st, setRV, false, nil); err != nil {
						b.Fatal(err)
					}
				}
				runtime.ReadMemStats(&ms1)
				total := float64(b.N) * n
				b.ReportMetric(total/b.Elapsed().Seconds(), "events/s")
				// The setup (watcher channel, store) is allocated outside the timer but still
				// counted here; for the nop store it is one channel per op, i.e. 0.00 per event.
				b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/total, "allocs/event")
			})
		}
	}
}

// BenchmarkWatchHandlerPerEvent is one event per op through a nop store: with tracing off the
// reflector's own cost per event, which must be 0 allocs/op.
func BenchmarkWatchHandlerPerEvent(b *testing.B) {
	for _, lg := range []struct {
		name   string
		logger *slog.Logger
	}{
		{"trace=off", nil},
		{"trace=on", slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelDebug}))},
	} {
		b.Run(lg.name, func(b *testing.B) {
			r := NewReflectorWithOptions(fakesource.New(), &api.Pod{}, nopStore{}, ReflectorOptions{Name: "bench", Logger: lg.logger})
			p := pod("a", "7")
			ch := make(chan watch.Event, b.N)
			for range b.N {
				ch <- watch.Event{Type: watch.Modified, Object: p}
			}
			close(ch)
			setRV := func(rv string, _ bool) { r.setLastSyncResourceVersion(rv) }
			b.ReportAllocs()
			b.ResetTimer()
			if _, err := r.handleAnyWatch(context.Background(), time.Now(), &sliceWatcher{ch: ch}, nopStore{}, setRV, false, nil); err != nil {
				b.Fatal(err)
			}
		})
	}
}

// BenchmarkReflect50kPods syncs 50k pods from the in-memory source into a store.Store, by
// LIST (500-item pages, as the first LIST at RV "0" asks; or in one request, from a source
// that ignores the limit as a watch cache does) and by watch-list. The source's deep copies are part of the cost, as a
// server's encoding would be.
func BenchmarkReflect50kPods(b *testing.B) {
	const n = 50_000
	src := fakesource.New()
	for i := range n {
		if _, err := src.Add(pod(fmt.Sprintf("p%05d", i), "")); err != nil {
			b.Fatal(err)
		}
	}
	ctx := context.Background()
	unpaged := &listwatch.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts api.ListOptions) (api.Object, error) {
			opts.Limit = 0
			return src.ListWithContext(ctx, opts)
		},
		WatchFuncWithContext: src.WatchWithContext,
	}
	for _, lc := range []struct {
		name string
		lw   listwatch.ListerWatcher
	}{
		{"list", src},
		{"list-unpaged", unpaged},
	} {
		b.Run(lc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				st := store.NewStore(store.MetaNamespaceKeyFunc)
				r := NewReflectorWithOptions(lc.lw, &api.Pod{}, st, ReflectorOptions{Name: "bench"})
				if err := r.list(ctx); err != nil {
					b.Fatal(err)
				}
				if len(st.ListKeys()) != n {
					b.Fatal("not synced")
				}
			}
		})
	}
	b.Run("watch-list", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			st := store.NewStore(store.MetaNamespaceKeyFunc)
			r := NewReflectorWithOptions(src, &api.Pod{}, st, ReflectorOptions{Name: "bench"})
			w, err := r.watchList(ctx)
			if err != nil {
				b.Fatal(err)
			}
			w.Stop()
			if len(st.ListKeys()) != n {
				b.Fatal("not synced")
			}
		}
	})
}
