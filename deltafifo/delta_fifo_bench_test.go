package deltafifo

import (
	"strconv"
	"testing"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/store"
)

// dfBenchPods pre-builds n pods with distinct keys so the timed loops measure the queue only.
func dfBenchPods(n int, rv string) []*api.Pod {
	pods := make([]*api.Pod, n)
	for i := range pods {
		pods[i] = &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "ns", Name: "pod-" + strconv.Itoa(i), ResourceVersion: rv}}
	}
	return pods
}

func dfNopProcess(any, bool) error { return nil }

// BenchmarkDeltaFIFOAddPop: one op is a whole cycle, 100k distinct keys added then popped;
// divide ns/op and allocs/op by 100k for the per-item figure.
func BenchmarkDeltaFIFOAddPop(b *testing.B) {
	const n = 100_000
	pods := dfBenchPods(n, "1")
	b.ReportAllocs()
	for b.Loop() {
		f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
		for _, p := range pods {
			if err := f.Add(p); err != nil {
				b.Fatal(err)
			}
		}
		for range n {
			if _, err := f.Pop(dfNopProcess); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkDeltaFIFOUpdates10PerKey: one op is one key receiving Add plus 9 Updates, then a
// single Pop of its 10 deltas.
func BenchmarkDeltaFIFOUpdates10PerKey(b *testing.B) {
	pods := dfBenchPods(10, "1")
	for i, p := range pods {
		p.Name = "pod"
		p.ResourceVersion = strconv.Itoa(i)
	}
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	b.ReportAllocs()
	for b.Loop() {
		if err := f.Add(pods[0]); err != nil {
			b.Fatal(err)
		}
		for _, p := range pods[1:] {
			if err := f.Update(p); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := f.Pop(dfNopProcess); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDeltaFIFOReplace50kTombstones1pct: one op is a Replace of 50k listed pods into a
// fresh queue whose KnownObjects also hold 500 keys (1%) missing from the list, so 500
// tombstones are queued. Building the queue is timed too; it is tiny next to the Replace.
func BenchmarkDeltaFIFOReplace50kTombstones1pct(b *testing.B) {
	const listed, missing = 50_000, 500
	pods := dfBenchPods(listed+missing, "1")
	known := store.NewStore(store.DeletionHandlingMetaNamespaceKeyFunc)
	for _, p := range pods {
		if err := known.Add(p); err != nil {
			b.Fatal(err)
		}
	}
	list := make([]any, listed)
	for i := range list {
		list[i] = pods[i]
	}
	b.ReportAllocs()
	for b.Loop() {
		f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: known, EmitDeltaTypeReplaced: true})
		if err := f.Replace(list, "2"); err != nil {
			b.Fatal(err)
		}
		if got := len(f.queue); got != listed+missing {
			b.Fatalf("queued %d keys, want %d", got, listed+missing)
		}
	}
}
