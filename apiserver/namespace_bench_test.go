package apiserver

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/informer-lab/informer-lab/api"
)

// BenchmarkNamespaceDelete deletes a namespace of n configmaps while another client reads
// one object in namespace default in a loop, as the namespace lifecycle's cost promises:
// O(objects in it), and no reader elsewhere waits longer than one object's delete. It
// reports the delete's time and the slowest and median concurrent GET.
//
//	go test -run '^$' -bench NamespaceDelete -benchtime 1x ./apiserver/
func BenchmarkNamespaceDelete(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("objects=%d", n), func(b *testing.B) {
			ctx := context.Background()
			var deleteTime time.Duration
			var gets []time.Duration
			for range b.N {
				b.StopTimer()
				s := New(Options{NamespaceDeletion: NamespaceDeletionInServer})
				create := func(ns string, obj api.Object) {
					if _, err := s.Create(ctx, map[bool]string{true: "namespaces", false: "configmaps"}[ns == ""], ns, obj); err != nil {
						b.Fatal(err)
					}
				}
				create("default", &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "probe"}})
				create("", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "big"}})
				for i := range n {
					create("big", &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("cm-%06d", i)}})
				}
				stop := make(chan struct{})
				var wg sync.WaitGroup
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						select {
						case <-stop:
							return
						default:
						}
						start := time.Now()
						if _, err := s.Get(ctx, "configmaps", "default", "probe"); err != nil {
							b.Error(err)
							return
						}
						gets = append(gets, time.Since(start))
					}
				}()
				b.StartTimer()
				start := time.Now()
				if _, err := s.Delete(ctx, "namespaces", "", "big", nil); err != nil {
					b.Fatal(err)
				}
				deleteTime += time.Since(start)
				b.StopTimer()
				close(stop)
				wg.Wait()
				if _, err := s.Get(ctx, "namespaces", "", "big"); !api.IsNotFound(err) {
					b.Fatalf("the namespace is still there: %v", err)
				}
				s.Close()
			}
			b.ReportMetric(deleteTime.Seconds()/float64(b.N), "delete-s")
			if len(gets) > 0 {
				slow, med := maxAndMedian(gets)
				b.ReportMetric(float64(slow.Microseconds())/1000, "max-get-ms")
				b.ReportMetric(float64(med.Microseconds())/1000, "median-get-ms")
				b.ReportMetric(float64(len(gets))/float64(b.N), "gets/op")
			}
		})
	}
}

func maxAndMedian(ds []time.Duration) (time.Duration, time.Duration) {
	sorted := slices.Clone(ds)
	slices.Sort(sorted)
	return sorted[len(sorted)-1], sorted[len(sorted)/2]
}
