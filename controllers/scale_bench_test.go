package controllers_test

import (
	"context"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
	"github.com/informer-lab/informer-lab/processor"
)

// podCounter counts, from an informer's events, the pods that exist and those that are
// Running and Ready, and wakes a waiter when a count reaches its target.
type podCounter struct {
	mu      sync.Mutex
	ready   map[string]bool // key → ready
	changed chan struct{}
}

func (p *podCounter) set(obj any, deleted bool) {
	u, ok := app.AsUnstructured(obj)
	if !ok {
		return
	}
	key := u.GetNamespace() + "/" + u.GetName()
	p.mu.Lock()
	if deleted {
		delete(p.ready, key)
	} else {
		p.ready[key] = app.PodPhase(u) == "Running" && app.IsPodReady(u)
	}
	p.mu.Unlock()
	select {
	case p.changed <- struct{}{}:
	default:
	}
}

// wait blocks until cond holds over (pods, ready pods) or ctx ends.
func (p *podCounter) wait(ctx context.Context, cond func(pods, ready int) bool) bool {
	for {
		p.mu.Lock()
		n, r := len(p.ready), 0
		for _, ok := range p.ready {
			if ok {
				r++
			}
		}
		p.mu.Unlock()
		if cond(n, r) {
			return true
		}
		select {
		case <-p.changed:
		case <-ctx.Done():
			return false
		}
	}
}

// peakHeap samples the heap in use until stop is closed and returns the largest sample.
func peakHeap(stop <-chan struct{}) <-chan uint64 {
	out := make(chan uint64, 1)
	go func() {
		var peak uint64
		var ms runtime.MemStats
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			select {
			case <-stop:
				out <- peak
				return
			case <-t.C:
			}
		}
	}()
	return out
}

// BenchmarkCluster_100Deployments100Replicas: 100 Deployments of 100 replicas (10,000 pods)
// on 100 simulated nodes, every default controller running, in real time over the
// in-process transport. It reports the seconds until every pod is Running and Ready, the
// seconds until deleting the Deployments has removed every pod (through the garbage
// collector, when it is among the controllers), and the peak heap in use. make cluster-scale
// runs it once.
func BenchmarkCluster_100Deployments100Replicas(b *testing.B) { benchCluster(b, 100, 100, 100) }

// BenchmarkCluster_10Deployments100Replicas is the same at a tenth of the size (1,000 pods
// on 10 nodes), quick enough to profile.
func BenchmarkCluster_10Deployments100Replicas(b *testing.B) { benchCluster(b, 10, 100, 10) }

func benchCluster(b *testing.B, deployments, replicas, nodes int) {
	for b.Loop() {
		c := cluster.Start(b, cluster.Options{Controllers: []string{"*"}, Nodes: nodes})
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		cc, err := app.NewControllerContext(c.Config, nil)
		if err != nil {
			b.Fatal(err)
		}
		pc := &podCounter{ready: map[string]bool{}, changed: make(chan struct{}, 1)}
		_, err = cc.Informer(app.Pods).AddEventHandler(processor.ResourceEventHandlerFuncs{
			AddFunc:    func(obj any) { pc.set(obj, false) },
			UpdateFunc: func(_, obj any) { pc.set(obj, false) },
			DeleteFunc: func(obj any) { pc.set(obj, true) },
		})
		if err != nil {
			b.Fatal(err)
		}
		cc.InformerFactory.StartWithContext(ctx)
		stop := make(chan struct{})
		peak := peakHeap(stop)

		start := time.Now()
		for i := range deployments {
			d := &api.Unstructured{Object: cluster.Deployment("web-"+string(rune('a'+i/26))+string(rune('a'+i%26)), int64(replicas))}
			if _, err := c.Client.Resource(app.Deployments).Namespace("default").Create(ctx, d, api.CreateOptions{}); err != nil {
				b.Fatal(err)
			}
		}
		if !pc.wait(ctx, func(_, ready int) bool { return ready == deployments*replicas }) {
			b.Fatal("the pods did not all become ready within 10 minutes")
		}
		b.ReportMetric(time.Since(start).Seconds(), "s-to-ready")

		if slices.Contains(controllers.Known(), "garbagecollector") {
			start = time.Now()
			fg := "Background"
			if err := c.Client.Resource(app.Deployments).Namespace("default").DeleteCollection(ctx,
				api.DeleteOptions{PropagationPolicy: &fg}, api.ListOptions{}); err != nil {
				b.Fatal(err)
			}
			if !pc.wait(ctx, func(pods, _ int) bool { return pods == 0 }) {
				b.Fatal("the pods were not all deleted within 10 minutes")
			}
			b.ReportMetric(time.Since(start).Seconds(), "s-to-deleted")
		}
		close(stop)
		b.ReportMetric(float64(<-peak)/(1<<20), "peak-heap-MB")
		cancel()
		cc.InformerFactory.Shutdown()
	}
}
