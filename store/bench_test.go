package store

import (
	"fmt"
	"testing"

	"github.com/informer-lab/informer-lab/api"
)

// benchSizes are the store sizes the issue asks for.
var benchSizes = []int{10_000, 100_000}

// benchPods builds n pods in 10 namespaces whose "app" label takes 100 values, so that one
// value selects 1% of the items. shift moves every pod to the next app value.
func benchPods(n, shift int) []*api.Pod {
	pods := make([]*api.Pod, n)
	for i := range pods {
		pods[i] = pod(fmt.Sprint("ns-", i%10), fmt.Sprint("pod-", i), "1",
			map[string]string{"app": fmt.Sprint("app-", (i+shift)%100)})
	}
	return pods
}

// newBenchIndexer returns an indexer with two indexers (namespace and app) holding pods.
func newBenchIndexer(pods []*api.Pod) Indexer {
	idx := NewIndexer(MetaNamespaceKeyFunc, Indexers{
		NamespaceIndex: MetaNamespaceIndexFunc,
		"app":          byLabel("app"),
	})
	for _, p := range pods {
		if err := idx.Add(p); err != nil {
			panic(err)
		}
	}
	return idx
}

func forSizes(b *testing.B, fn func(b *testing.B, n int)) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("n=%dk", n/1000), func(b *testing.B) { fn(b, n) })
	}
}

// BenchmarkIndexerAdd re-adds objects whose index values do not change: the fast path of
// updateSingleIndex, which is what most informer updates hit.
func BenchmarkIndexerAdd(b *testing.B) {
	forSizes(b, func(b *testing.B, n int) {
		pods := benchPods(n, 0)
		idx := newBenchIndexer(pods)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			_ = idx.Add(pods[i%n])
			i++
		}
	})
}

// BenchmarkIndexerUpdateMoving updates objects so that their "app" value changes every time:
// the slow path that unfiles and refiles the key.
func BenchmarkIndexerUpdateMoving(b *testing.B) {
	forSizes(b, func(b *testing.B, n int) {
		even, odd := benchPods(n, 0), benchPods(n, 1)
		idx := newBenchIndexer(even)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			src := even
			if (i/n)%2 == 0 {
				src = odd
			}
			_ = idx.Update(src[i%n])
			i++
		}
	})
}

func BenchmarkIndexerGet(b *testing.B) {
	forSizes(b, func(b *testing.B, n int) {
		pods := benchPods(n, 0)
		idx := newBenchIndexer(pods)
		keys := make([]string, n)
		for i, p := range pods {
			keys[i] = p.Namespace + "/" + p.Name
		}
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if _, ok, _ := idx.GetByKey(keys[i%n]); !ok {
				b.Fatal("missing")
			}
			i++
		}
	})
}

func BenchmarkIndexerList(b *testing.B) {
	forSizes(b, func(b *testing.B, n int) {
		idx := newBenchIndexer(benchPods(n, 0))
		b.ReportAllocs()
		for b.Loop() {
			if len(idx.List()) != n {
				b.Fatal("short list")
			}
		}
	})
}

// BenchmarkIndexerByIndex and BenchmarkIndexerListFilter answer the same question, "which pods
// have app=app-7" (1% of the items): through the index, and by scanning List() by hand.
func BenchmarkIndexerByIndex(b *testing.B) {
	forSizes(b, func(b *testing.B, n int) {
		idx := newBenchIndexer(benchPods(n, 0))
		b.ReportAllocs()
		for b.Loop() {
			got, _ := idx.ByIndex("app", "app-7")
			if len(got) != n/100 {
				b.Fatalf("got %d", len(got))
			}
		}
	})
}

func BenchmarkIndexerListFilter(b *testing.B) {
	forSizes(b, func(b *testing.B, n int) {
		idx := newBenchIndexer(benchPods(n, 0))
		b.ReportAllocs()
		for b.Loop() {
			var got []any
			for _, obj := range idx.List() {
				if obj.(*api.Pod).Labels["app"] == "app-7" {
					got = append(got, obj)
				}
			}
			if len(got) != n/100 {
				b.Fatalf("got %d", len(got))
			}
		}
	})
}
