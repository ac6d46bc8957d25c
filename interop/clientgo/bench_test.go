package clientgo_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"runtime/metrics"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	clientfeatures "k8s.io/client-go/features"
	clientfeaturestesting "k8s.io/client-go/features/testing"
	corev1informers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/interop/internal/wiretest"
	"github.com/informer-lab/informer-lab/rest"
	"github.com/informer-lab/informer-lab/store"
)

// startedInformer is one running informer, seen through what the benchmark needs.
type startedInformer struct {
	hasSynced func() bool
	size      func() int
	stop      func()
}

// syncCase builds and starts one informer against url.
type syncCase struct {
	name  string
	setup func(b *testing.B) // once per sub-benchmark, e.g. a feature gate
	start func(b *testing.B, url string) startedInformer
}

var syncCases = []syncCase{
	{
		name:  "client-go/watch-list",
		start: startClientGo,
	},
	{
		name: "client-go/list",
		setup: func(b *testing.B) {
			clientfeaturestesting.SetFeatureDuringTest(b, clientfeatures.WatchListClient, false)
		},
		start: startClientGo,
	},
	{
		name:  "client-go/watch-list/protobuf",
		start: func(b *testing.B, url string) startedInformer { return startClientGoWith(b, url, "") },
	},
	{
		name: "client-go/list/protobuf",
		setup: func(b *testing.B) {
			clientfeaturestesting.SetFeatureDuringTest(b, clientfeatures.WatchListClient, false)
		},
		start: func(b *testing.B, url string) startedInformer { return startClientGoWith(b, url, "") },
	},
	{
		name:  "ours/watch-list",
		start: func(b *testing.B, url string) startedInformer { return startOurs(b, url, true) },
	},
	{
		name:  "ours/list",
		start: func(b *testing.B, url string) startedInformer { return startOurs(b, url, false) },
	},
	{
		name:  "ours/watch-list/protobuf",
		start: func(b *testing.B, url string) startedInformer { return startOursWith(b, url, true, protobufType) },
	},
	{
		name:  "ours/list/protobuf",
		start: func(b *testing.B, url string) startedInformer { return startOursWith(b, url, false, protobufType) },
	},
}

const protobufType = "application/vnd.kubernetes.protobuf"

// startClientGo runs client-go's generated pod informer (the one a SharedInformerFactory
// builds, with the namespace index).
func startClientGo(b *testing.B, url string) startedInformer {
	return startClientGoWith(b, url, "application/json")
}

// startClientGoWith is startClientGo with a content type ("": client-go's default, protobuf).
func startClientGoWith(b *testing.B, url, contentType string) startedInformer {
	cfg := wiretest.RESTConfig(url)
	cfg.ContentType = contentType
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		b.Fatal(err)
	}
	inf := corev1informers.NewPodInformer(cs, metav1.NamespaceAll, 0, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	stop := run(inf.RunWithContext)
	return startedInformer{hasSynced: inf.HasSynced, size: func() int { return len(inf.GetStore().ListKeys()) }, stop: stop}
}

// startOurs runs our SharedIndexInformer (ProfileCurrent: the queue client-go v0.37 uses) over
// rest.RESTClient, as the factory builds it, through watch-list or LIST.
func startOurs(b *testing.B, url string, watchList bool) startedInformer {
	return startOursWith(b, url, watchList, "")
}

// startOursWith is startOurs with rest.Config.ContentType.
func startOursWith(b *testing.B, url string, watchList bool, contentType string) startedInformer {
	rc, err := rest.RESTClientFor(&rest.Config{Host: url, ContentType: contentType})
	if err != nil {
		b.Fatal(err)
	}
	lw := informer.NewRESTSource(rc).ListWatchFor(api.GroupVersionResource{Version: "v1", Resource: "pods"}, "", nil)
	inf := informer.NewSharedIndexInformerWithOptions(lw, &api.Pod{}, informer.SharedIndexInformerOptions{
		Indexers:     store.Indexers{store.NamespaceIndex: store.MetaNamespaceIndexFunc},
		Profile:      informer.ProfileCurrent,
		UseWatchList: &watchList,
	})
	stop := run(inf.RunWithContext)
	return startedInformer{hasSynced: inf.HasSynced, size: func() int { return len(inf.GetStore().ListKeys()) }, stop: stop}
}

// run starts fn in a goroutine; the returned func cancels it and waits for it to return.
func run(fn func(context.Context)) func() {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(ctx)
	}()
	return func() {
		cancel()
		<-done
	}
}

// BenchmarkInformerInitialSync measures a new informer's initial sync of 10k and 50k pods
// from the simulator over loopback HTTP: client-go v0.37's generated pod informer and ours,
// each through watch-list and through LIST. ns/op is the time to HasSynced; the metrics are
// ms-to-synced, peak-heap-MB (the highest heap above the pre-sync baseline while syncing,
// sampled every millisecond) and retained-MB (heap kept after a GC: the cache). Server and
// client share the process, so allocations and the peak include the server's side of the
// work; it is the same for every case.
func BenchmarkInformerInitialSync(b *testing.B) {
	for _, n := range []int{10_000, 50_000} {
		b.Run(fmt.Sprintf("pods=%d", n), func(b *testing.B) {
			env := wiretest.StartWithRecorder(b, apiserver.Options{}, &wiretest.Recorder{BodyLimit: -1})
			seedPods(b, env.Server, "default", n)
			warmUp(b, env.URL)
			for _, sc := range syncCases {
				b.Run(sc.name, func(b *testing.B) { benchSync(b, env.URL, n, sc) })
			}
		})
	}
}

// warmUp lists every pod once, so that the server's one-time JSON encoding of each stored
// object is not charged to whichever case runs first.
func warmUp(b *testing.B, url string) {
	resp, err := http.Get(url + "/api/v1/pods")
	if err != nil {
		b.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b.Fatalf("warm-up list: %s", resp.Status)
	}
}

func benchSync(b *testing.B, url string, n int, sc syncCase) {
	if sc.setup != nil {
		sc.setup(b)
	}
	b.ReportAllocs()
	var synced time.Duration
	var peak, retained uint64
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		runtime.GC()
		base := heapAlloc()
		sampler := startPeakSampler()
		b.StartTimer()

		t0 := time.Now()
		inf := sc.start(b, url)
		err := wait.PollUntilContextTimeout(context.Background(), time.Millisecond, 5*time.Minute, true,
			func(context.Context) (bool, error) { return inf.hasSynced(), nil })
		synced += time.Since(t0)

		b.StopTimer()
		p := sampler.stop()
		if err != nil {
			inf.stop()
			b.Fatalf("%s: not synced: %v", sc.name, err)
		}
		runtime.GC()
		if h := heapAlloc(); h > base {
			retained += h - base
		}
		if p > base {
			peak = max(peak, p-base)
		}
		if got := inf.size(); got != n {
			inf.stop()
			b.Fatalf("%s: cache holds %d pods, want %d", sc.name, got, n)
		}
		inf.stop()
		b.StartTimer()
	}
	b.ReportMetric(float64(synced.Milliseconds())/float64(b.N), "ms-to-synced")
	b.ReportMetric(float64(peak)/1e6, "peak-heap-MB")
	b.ReportMetric(float64(retained)/float64(b.N)/1e6, "retained-MB")
}

func heapAlloc() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// peakSampler reads the heap size every millisecond (runtime/metrics does not stop the
// world, unlike ReadMemStats) and keeps the highest value.
type peakSampler struct {
	quit chan struct{}
	out  chan uint64
}

func startPeakSampler() *peakSampler {
	p := &peakSampler{quit: make(chan struct{}), out: make(chan uint64, 1)}
	go func() {
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		var peak uint64
		for {
			metrics.Read(s)
			peak = max(peak, s[0].Value.Uint64())
			select {
			case <-p.quit:
				p.out <- peak
				return
			case <-tick.C:
			}
		}
	}()
	return p
}

func (p *peakSampler) stop() uint64 {
	close(p.quit)
	return <-p.out
}

// BenchmarkServerStartToFirstList measures the simulator's start-up as a client sees it: New,
// Start on a free loopback port, then the first successful LIST through a client-go
// clientset. A kube-apiserver with etcd takes about 5 s to become ready on this class of
// machine; ns/op here is the simulator's figure.
func BenchmarkServerStartToFirstList(b *testing.B) {
	b.ReportAllocs()
	ctx := context.Background()
	for range b.N {
		srv := apiserver.New(apiserver.Options{})
		url, err := srv.Start("127.0.0.1:0")
		if err != nil {
			b.Fatal(err)
		}
		cs, err := kubernetes.NewForConfig(wiretest.RESTConfig(url))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := cs.CoreV1().Pods("default").List(ctx, metav1.ListOptions{}); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		srv.Close()
		b.StartTimer()
	}
}
