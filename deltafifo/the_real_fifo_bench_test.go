package deltafifo

import (
	"fmt"
	"testing"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/store"
)

func rfBenchPods(n int, prefix string) []*api.Pod {
	pods := make([]*api.Pod, n)
	for i := range pods {
		pods[i] = rfPod(fmt.Sprintf("%s%d", prefix, i), "1")
	}
	return pods
}

func rfNop(any, bool) error { return nil }

func BenchmarkRealFIFOAddPop(b *testing.B) {
	pods := rfBenchPods(100_000, "p")
	b.ReportAllocs()
	for b.Loop() {
		f := NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true})
		for _, p := range pods {
			_ = f.Add(p)
		}
		for range pods {
			_, _ = f.Pop(rfNop)
		}
	}
}

func BenchmarkRealFIFOUpdates10PerKey(b *testing.B) {
	pods := rfBenchPods(10_000, "p")
	b.ReportAllocs()
	for b.Loop() {
		f := NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true})
		for range 10 {
			for _, p := range pods {
				_ = f.Update(p)
			}
		}
		for range 10 * len(pods) {
			_, _ = f.Pop(rfNop)
		}
	}
}

func BenchmarkRealFIFOReplace50kTombstones1pct(b *testing.B) {
	const n = 50_000
	list := make([]any, n)
	for i, p := range rfBenchPods(n, "p") {
		list[i] = p
	}
	b.Run("nonatomic", func(b *testing.B) {
		known := store.NewStore(store.DeletionHandlingMetaNamespaceKeyFunc)
		for _, o := range list {
			_ = known.Add(o)
		}
		for _, p := range rfBenchPods(n/100, "gone") {
			_ = known.Add(p)
		}
		b.ReportAllocs()
		for b.Loop() {
			f := NewRealFIFOWithOptions(RealFIFOOptions{KnownObjects: known})
			_ = f.Replace(list, "2")
		}
	})
	b.Run("atomic", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			f := NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true})
			_ = f.Replace(list, "2")
		}
	})
}

func BenchmarkRealFIFOPopBatch(b *testing.B) {
	pods := rfBenchPods(100_000, "p")
	batch := func([]Delta, bool) error { return nil }
	b.ReportAllocs()
	for b.Loop() {
		f := NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true, UnlockWhileProcessing: true})
		for _, p := range pods {
			_ = f.Add(p)
		}
		for range len(pods) / 1000 {
			_ = f.PopBatch(batch, rfNop)
		}
	}
}
