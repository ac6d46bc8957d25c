package apiserver

import (
	"context"
	"fmt"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/informer-lab/informer-lab/api"
)

// BenchmarkLockContention: 32 clients at once against one server through the Go API, each
// in its own namespace, each cycling through a create, a merge patch of what it created, a
// get and a list of 50 from its namespace (over a store of 2,000 pods). It reports
// operations per second and the time goroutines spent blocked on mutexes per operation
// (runtime/metrics /sync/mutex/wait/total); run it with -mutexprofile to see which lock.
func BenchmarkLockContention(b *testing.B) {
	const clients, perNS = 32, 64
	s := New(Options{})
	defer s.Close()
	ctx := context.Background()
	for c := range clients {
		ns := fmt.Sprintf("ns-%02d", c)
		if _, err := s.Create(ctx, "namespaces", "", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: ns}}); err != nil {
			b.Fatal(err)
		}
		for i := range perNS {
			if _, err := s.Create(ctx, "pods", ns, podIn(ns, i)); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	wait0, t0 := mutexWait(), time.Now()
	var wg sync.WaitGroup
	per := (b.N + clients - 1) / clients
	for c := range clients {
		ns := fmt.Sprintf("ns-%02d", c)
		wg.Go(func() {
			for i := range per {
				name := fmt.Sprintf("pod-%06d", perNS+i/4)
				var err error
				switch i % 4 {
				case 0:
					_, err = s.Create(ctx, "pods", ns, podIn(ns, perNS+i/4))
				case 1:
					_, err = s.Patch(ctx, "pods", ns, name, api.MergePatchType, fmt.Appendf(nil, `{"metadata":{"labels":{"round":"%d"}}}`, i))
				case 2:
					_, err = s.Get(ctx, "pods", ns, name)
				case 3:
					_, err = s.List(ctx, "pods", ns, api.ListOptions{Limit: 50})
				}
				if err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	elapsed, wait := time.Since(t0), mutexWait()-wait0
	b.StopTimer()
	ops := float64(per * clients)
	b.ReportMetric(ops/elapsed.Seconds(), "ops/s")
	b.ReportMetric(float64(wait.Microseconds())/ops, "mutex-wait-µs/op")
}

// mutexWait is the total time goroutines have spent blocked on a sync.Mutex or RWMutex.
func mutexWait() time.Duration {
	sample := []metrics.Sample{{Name: "/sync/mutex/wait/total:seconds"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindFloat64 {
		return 0
	}
	return time.Duration(sample[0].Value.Float64() * float64(time.Second))
}

// podIn is benchPod in namespace ns.
func podIn(ns string, i int) *api.Pod {
	p := benchPod(i)
	p.Namespace = ns
	return p
}
