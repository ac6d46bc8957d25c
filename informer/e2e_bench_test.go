package informer

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/listwatch"
	"github.com/informer-lab/informer-lab/rest"
)

// e2ePods is how many pods one iteration of BenchmarkEndToEnd creates.
const e2ePods = 10_000

// latencyHandler records, for each pod it is told about, how long ago the pod's create
// started. Pod i's slot is written once, by the listener's run goroutine; the benchmark reads
// the slots after done closes, so there is no race. A gate, if set, stalls the first call
// until it is closed.
type latencyHandler struct {
	start   []time.Time    // pod index → when its create began; filled before the create
	index   map[string]int // pod name → index; read-only while the informer runs
	latency []time.Duration
	seen    atomic.Int64
	done    chan struct{}
	gate    chan struct{}
	once    sync.Once
	// each, if set (paced runs), receives a token after every recorded pod.
	each chan struct{}
}

func newLatencyHandler(start []time.Time, index map[string]int, gate chan struct{}) *latencyHandler {
	return &latencyHandler{start: start, index: index, latency: make([]time.Duration, len(start)),
		done: make(chan struct{}), gate: gate}
}

func (h *latencyHandler) OnAdd(obj any, _ bool) {
	if h.gate != nil {
		h.once.Do(func() { <-h.gate })
	}
	i, ok := h.index[obj.(*api.Pod).Name]
	if !ok {
		return
	}
	h.latency[i] = time.Since(h.start[i])
	if h.seen.Add(1) == int64(len(h.start)) {
		close(h.done)
	}
	if h.each != nil {
		h.each <- struct{}{}
	}
}
func (h *latencyHandler) OnUpdate(_, _ any) {}
func (h *latencyHandler) OnDelete(any)      {}

// percentile returns the q-quantile (0 < q ≤ 1) of sorted durations.
func percentile(sorted []time.Duration, q float64) time.Duration {
	i := int(q*float64(len(sorted))+0.5) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// BenchmarkEndToEnd is the end-to-end measurement: 10,000 pods created on the
// simulated apiserver (through its Go API) while a shared informer watches, either over real
// HTTP (JSON, chunked watch, the REST client) or through the server's in-process
// ListerWatcher. One op is the whole run of 10,000 pods. Two ways of writing:
//
//   - burst: one create after the other, as fast as the server accepts them. events/s is the
//     throughput; the latencies are mostly time spent queued behind earlier pods.
//   - paced: the next create starts once every measured handler has seen the previous pod, so
//     the latencies are the pipeline's own (server fan-out, wire, reflector, queue, indexer,
//     distribute, listener hand-offs), without queueing.
//
// Reported:
//
//   - events/s: pods per second delivered to every counted handler, write of the first to
//     delivery of the last;
//   - p50-ms, p99-ms: per pod, from the start of its create to the handler call;
//   - allocs/event: every allocation in the process (server, wire, informer) per pod.
//
// "healthy" has two healthy handlers. "stalled" has one handler stuck in its first call for
// the whole run and one healthy handler; only the healthy one is measured. Its latency should
// match the healthy case's: the stalled listener's ring grows instead (PL-6, T12).
//
// The server gets a watch buffer and a history larger than the burst, so it never ends the
// watch for being slow; everything else is default. Profiles: classic and current.
func BenchmarkEndToEnd(b *testing.B) {
	for _, transport := range []string{"inprocess", "http"} {
		for _, paced := range []bool{false, true} {
			mode := "burst"
			if paced {
				mode = "paced"
			}
			for _, p := range []Profile{ProfileClassic, ProfileCurrent} {
				for _, stalled := range []bool{false, true} {
					name := "healthy"
					if stalled {
						name = "stalled"
					}
					b.Run(fmt.Sprintf("%s/%s/%s/%s", transport, mode, p, name), func(b *testing.B) {
						benchEndToEnd(b, transport, paced, p, stalled)
					})
				}
			}
		}
	}
}

func benchEndToEnd(b *testing.B, transport string, paced bool, p Profile, stalled bool) {
	names := make([]string, e2ePods)
	index := make(map[string]int, e2ePods)
	for i := range names {
		names[i] = fmt.Sprintf("pod-%05d", i)
		index[names[i]] = i
	}
	var all []time.Duration
	var elapsed time.Duration
	var mallocs uint64
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		srv := apiserver.New(apiserver.Options{WatchBufferSize: 2 * e2ePods, HistorySize: 2 * e2ePods})
		var lw listwatch.ListerWatcher = srv.ListerWatcher("pods", "default")
		if transport == "http" {
			url, err := srv.Start("127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			client, err := rest.RESTClientFor(&rest.Config{Host: url})
			if err != nil {
				b.Fatal(err)
			}
			lw = NewRESTSource(client).ListWatchFor(api.GroupVersionResource{Version: "v1", Resource: "pods"}, "default", func(*api.ListOptions) {})
		}
		start := make([]time.Time, e2ePods)
		inf := NewSharedIndexInformerWithOptions(lw, &api.Pod{}, SharedIndexInformerOptions{Profile: p})
		var measured []*latencyHandler
		gate := make(chan struct{})
		for h := range 2 {
			var g chan struct{}
			if stalled && h == 0 {
				g = gate
			}
			lh := newLatencyHandler(start, index, g)
			if paced && g == nil {
				lh.each = make(chan struct{}, 1)
			}
			if _, err := inf.AddEventHandler(lh); err != nil {
				b.Fatal(err)
			}
			if g == nil {
				measured = append(measured, lh)
			}
		}
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Go(func() { inf.RunWithContext(ctx) })
		if !WaitForCacheSync(ctx.Done(), inf.HasSynced) {
			b.Fatal("the informer did not sync")
		}
		pods := make([]*api.Pod, e2ePods)
		for i := range pods {
			pods[i] = &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: names[i]},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}}}
		}
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		b.StartTimer()

		t0 := time.Now()
		for i, pod := range pods {
			start[i] = time.Now()
			if _, err := srv.Create(ctx, "pods", "default", pod); err != nil {
				b.Fatal(err)
			}
			if paced {
				for _, h := range measured {
					<-h.each
				}
			}
		}
		for _, h := range measured {
			<-h.done
		}
		elapsed += time.Since(t0)

		b.StopTimer()
		runtime.ReadMemStats(&after)
		mallocs += after.Mallocs - before.Mallocs
		for _, h := range measured {
			all = append(all, h.latency...)
		}
		close(gate)
		cancel()
		wg.Wait()
		srv.Close()
		b.StartTimer()
	}
	slices.Sort(all)
	events := float64(b.N * e2ePods)
	b.ReportMetric(events/elapsed.Seconds(), "events/s")
	b.ReportMetric(float64(percentile(all, 0.50))/float64(time.Millisecond), "p50-ms")
	b.ReportMetric(float64(percentile(all, 0.99))/float64(time.Millisecond), "p99-ms")
	b.ReportMetric(float64(mallocs)/events, "allocs/event")
}
