package bench

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	goruntime "runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	cgrestwatch "k8s.io/client-go/rest/watch"
	"k8s.io/client-go/tools/cache"
	cgwq "k8s.io/client-go/util/workqueue"
	"k8s.io/utils/buffer"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/deltafifo"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/interop/internal/wiretest"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/rest"
	restwatch "github.com/informer-lab/informer-lab/rest/watch"
	"github.com/informer-lab/informer-lab/store"
	"github.com/informer-lab/informer-lab/workqueue"
)

var (
	compare = flag.Bool("compare", false, "run the side-by-side benchmarks and print the table")
	rows    = flag.String("compare.rows", "", "only the workloads whose name matches this regexp")
	rounds  = flag.Int("compare.count", 4, "rounds per workload, each side running first in turn (an even count lets each go first as often); the fastest round of each side counts")
	side    = flag.String("compare.side", "", "ours or client-go: run only that side (for -cpuprofile and -memprofile of one implementation); the ratio column is then meaningless")
)

// TestMain runs the tests, or, started as the replaying process of make bench-real's
// process floor (realserver_floor_process_test.go), serves its replay.
func TestMain(m *testing.M) {
	if dir := os.Getenv(replayDirEnv); dir != "" {
		os.Exit(serveReplayProcess(dir))
	}
	goleak.VerifyTestMain(m)
}

type row struct {
	name          string
	ours, theirs  func(b *testing.B)
	oursR, theirR testing.BenchmarkResult
	// oursCPU and theirCPU are each side's least process CPU time per op.
	oursCPU, theirCPU time.Duration
}

// pods builds n objects of each side's pod type, spread over 10 namespaces and 7 nodes.
func ourPods(n int) []*api.Pod {
	out := make([]*api.Pod, n)
	for i := range out {
		out[i] = &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: fmt.Sprintf("ns-%d", i%10), Name: fmt.Sprintf("pod-%06d", i), ResourceVersion: fmt.Sprint(i + 1)},
			Spec: api.PodSpec{NodeName: fmt.Sprintf("node-%d", i%7)}}
	}
	return out
}

func cgPods(n int) []*corev1.Pod {
	out := make([]*corev1.Pod, n)
	for i := range out {
		out[i] = &corev1.Pod{}
		out[i].Namespace, out[i].Name, out[i].ResourceVersion = fmt.Sprintf("ns-%d", i%10), fmt.Sprintf("pod-%06d", i), fmt.Sprint(i+1)
		out[i].Spec.NodeName = fmt.Sprintf("node-%d", i%7)
	}
	return out
}

func ourNode(o any) ([]string, error) { return []string{o.(*api.Pod).Spec.NodeName}, nil }
func cgNode(o any) ([]string, error)  { return []string{o.(*corev1.Pod).Spec.NodeName}, nil }

const nIdx = 100_000

// group is a set of rows sharing their fixtures. names lists its rows when building them is
// costly, so that -compare.rows can skip the build; nil means "build and then filter".
type group struct {
	names []string
	build func(t *testing.T) []*row
}

// groups are built one at a time and dropped after their rows have run, so no row pays for
// the garbage collector marking another row's fixtures (a 50k-pod simulator, 100k-pod
// indexers): with every fixture alive at once, a GC cycle that happened to fall inside one
// side's timed sync cost it a mark of the whole heap, and the informer rows swung by 3×.
func groups() []group {
	return []group{
		{build: storeRows},
		{build: func(*testing.T) []*row { return queueRows() }},
		{build: func(*testing.T) []*row { return []*row{watchDecodeRow(100_000)} }},
		{names: codecRowNames(), build: codecRows},
		{names: informerRowNames(50_000), build: func(t *testing.T) []*row { return informerRows(t, 50_000) }},
	}
}

// storeRows are the indexer and DeltaFIFO rows over 100k pods of each side's type.
func storeRows(*testing.T) []*row {
	op, cp := ourPods(nIdx), cgPods(nIdx)
	ourIdx := func() store.Indexer {
		return store.NewIndexer(store.MetaNamespaceKeyFunc, store.Indexers{store.NamespaceIndex: store.MetaNamespaceIndexFunc, "node": ourNode})
	}
	cgIdx := func() cache.Indexer {
		return cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc, "node": cgNode})
	}
	oFull, cFull := ourIdx(), cgIdx()
	for i := range op {
		_ = oFull.Add(op[i])
		_ = cFull.Add(cp[i])
	}
	return []*row{
		{name: "threadSafeMap Add+Update, 2 indexers, 100k",
			ours: func(b *testing.B) {
				for b.Loop() {
					x := ourIdx()
					for _, p := range op {
						_ = x.Add(p)
					}
					for _, p := range op {
						_ = x.Update(p)
					}
				}
			},
			theirs: func(b *testing.B) {
				for b.Loop() {
					x := cgIdx()
					for _, p := range cp {
						_ = x.Add(p)
					}
					for _, p := range cp {
						_ = x.Update(p)
					}
				}
			}},
		{name: "threadSafeMap ByIndex (node, 100k items)",
			ours: func(b *testing.B) {
				for b.Loop() {
					_, _ = oFull.ByIndex("node", "node-3")
				}
			},
			theirs: func(b *testing.B) {
				for b.Loop() {
					_, _ = cFull.ByIndex("node", "node-3")
				}
			}},
		{name: "DeltaFIFO Add+Pop, 100k keys",
			ours: func(b *testing.B) {
				for b.Loop() {
					f := deltafifo.NewDeltaFIFOWithOptions(deltafifo.DeltaFIFOOptions{EmitDeltaTypeReplaced: true})
					for _, p := range op {
						_ = f.Add(p)
					}
					for range op {
						_, _ = f.Pop(func(any, bool) error { return nil })
					}
				}
			},
			theirs: func(b *testing.B) {
				for b.Loop() {
					f := cache.NewDeltaFIFOWithOptions(cache.DeltaFIFOOptions{EmitDeltaTypeReplaced: true})
					for _, p := range cp {
						_ = f.Add(p)
					}
					for range cp {
						_, _ = f.Pop(func(any, bool) error { return nil })
					}
				}
			}},
		{name: "DeltaFIFO Replace 50k (KnownObjects 50k)",
			ours: func(b *testing.B) {
				list := make([]any, 50_000)
				known := ourIdx()
				for i := range list {
					list[i] = op[i]
					_ = known.Add(op[i+25_000])
				}
				for b.Loop() {
					f := deltafifo.NewDeltaFIFOWithOptions(deltafifo.DeltaFIFOOptions{KnownObjects: known, EmitDeltaTypeReplaced: true})
					_ = f.Replace(list, "1")
				}
			},
			theirs: func(b *testing.B) {
				list := make([]any, 50_000)
				known := cgIdx()
				for i := range list {
					list[i] = cp[i]
					_ = known.Add(cp[i+25_000])
				}
				for b.Loop() {
					f := cache.NewDeltaFIFOWithOptions(cache.DeltaFIFOOptions{KnownObjects: known, EmitDeltaTypeReplaced: true})
					_ = f.Replace(list, "1")
				}
			}},
	}
}

// queueRows are the ring buffer, workqueue and rate limiter rows.
func queueRows() []*row {
	return []*row{
		{name: "RingGrowing write 1M, read 1M",
			ours: func(b *testing.B) {
				for b.Loop() {
					r := processor.NewTypedRingGrowing[any](processor.RingGrowingOptions{InitialSize: 1024})
					for i := range 1_000_000 {
						r.WriteOne(i)
					}
					for range 1_000_000 {
						r.ReadOne()
					}
				}
			},
			theirs: func(b *testing.B) {
				for b.Loop() {
					r := buffer.NewTypedRingGrowing[any](buffer.RingGrowingOptions{InitialSize: 1024})
					for i := range 1_000_000 {
						r.WriteOne(i)
					}
					for range 1_000_000 {
						r.ReadOne()
					}
				}
			}},
		{name: "workqueue Add/Get/Done 100k, 1 worker", ours: ourQueue(1), theirs: cgQueue(1)},
		{name: "workqueue Add/Get/Done 100k, 16 workers", ours: ourQueue(16), theirs: cgQueue(16)},
		{name: "DefaultControllerRateLimiter When (1k items)",
			ours: func(b *testing.B) {
				l := workqueue.DefaultTypedControllerRateLimiter[int]()
				i := 0
				for b.Loop() {
					l.When(i % 1000)
					i++
				}
			},
			theirs: func(b *testing.B) {
				l := cgwq.DefaultTypedControllerRateLimiter[int]()
				i := 0
				for b.Loop() {
					l.When(i % 1000)
					i++
				}
			}},
	}
}

func anyMatch(only *regexp.Regexp, names []string) bool {
	for _, n := range names {
		if only.MatchString(n) {
			return true
		}
	}
	return false
}

func ourQueue(workers int) func(b *testing.B) {
	return func(b *testing.B) {
		for b.Loop() {
			q := workqueue.NewTyped[int]()
			runQueue(workers, q.Add, q.Get, q.Done, q.ShutDownWithDrain)
		}
	}
}

func cgQueue(workers int) func(b *testing.B) {
	return func(b *testing.B) {
		for b.Loop() {
			q := cgwq.NewTyped[int]()
			runQueue(workers, q.Add, q.Get, q.Done, q.ShutDownWithDrain)
		}
	}
}

func runQueue(workers int, add func(int), get func() (int, bool), done func(int), drain func()) {
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				it, shut := get()
				if shut {
					return
				}
				done(it)
			}
		})
	}
	for i := range 100_000 {
		add(i)
	}
	drain()
	wg.Wait()
}

// watchDecodeRow decodes one recorded stream of n MODIFIED pod events with each side's
// watch decoder (ours: rest/watch.NewDecoder; client-go: rest/watch.Decoder over the
// JSON streaming decoder, as a clientset watch builds it).
func watchDecodeRow(n int) *row {
	var buf bytes.Buffer
	for i := range n {
		fmt.Fprintf(&buf, `{"type":"MODIFIED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"pod-%06d","namespace":"ns-%d","resourceVersion":"%d","labels":{"app":"x"}},"spec":{"nodeName":"node-1","containers":[{"name":"app","image":"nginx:1.27"}]}}}`+"\n", i, i%10, i+1)
	}
	stream := buf.Bytes()
	return &row{name: fmt.Sprintf("watch stream decode, %dk events", n/1000),
		ours: func(b *testing.B) {
			for b.Loop() {
				d := restwatch.NewDecoder(io.NopCloser(bytes.NewReader(stream)), restwatch.DecoderOptions{})
				for range n {
					if _, _, err := d.Decode(); err != nil {
						b.Fatal(err)
					}
				}
				d.Close()
			}
		},
		theirs: func(b *testing.B) {
			info, _ := findJSON()
			for b.Loop() {
				body := io.NopCloser(bytes.NewReader(stream))
				fr := info.StreamSerializer.Framer.NewFrameReader(body)
				sd := streaming.NewDecoder(fr, info.StreamSerializer.Serializer)
				d := cgrestwatch.NewDecoder(sd, scheme.Codecs.UniversalDeserializer())
				for range n {
					if _, _, err := d.Decode(); err != nil {
						b.Fatal(err)
					}
				}
				d.Close()
			}
		}}
}

func findJSON() (runtime.SerializerInfo, bool) {
	return runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), runtime.ContentTypeJSON)
}

// informerRows time a new informer's initial sync of n pods from our simulator over
// loopback HTTP, through watch-list, to HasSynced: in JSON, and in protobuf (where ours
// reads the objects straight into api.Pod, and client-go into core/v1 Pod).
func informerRows(t *testing.T, n int) []*row {
	env := wiretest.Start(t, apiserver.Options{})
	url := env.URL
	for i := range n {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: fmt.Sprintf("pod-%06d", i)},
			Spec: api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx:1.27"}}}}
		if _, err := env.Server.Create(context.Background(), "pods", "default", p); err != nil {
			t.Fatal(err)
		}
	}
	// The simulator encodes a stored object lazily, once per encoding, on its first read in
	// that encoding. Read every pod once in JSON and in protobuf before timing, so that the
	// side that happens to sync first does not pay for the encodings the other then reuses.
	for _, accept := range []string{"application/json", "application/vnd.kubernetes.protobuf"} {
		warmList(t, url+"/api/v1/pods", accept)
	}
	var rows []*row
	names := informerRowNames(n)
	for i, ct := range []string{"", "protobuf"} {
		name := names[i]
		ourCT, theirCT := "", "application/json"
		if ct != "" {
			ourCT, theirCT = "application/vnd.kubernetes.protobuf", "application/vnd.kubernetes.protobuf"
		}
		rows = append(rows, &row{name: name,
			ours: func(b *testing.B) {
				// One client for every sync, as client-go's side keeps one clientset.
				rc, err := rest.RESTClientFor(&rest.Config{Host: url, ContentType: ourCT})
				if err != nil {
					b.Fatal(err)
				}
				for b.Loop() {
					lw := informer.NewRESTSource(rc).ListWatchFor(api.GroupVersionResource{Version: "v1", Resource: "pods"}, "", nil)
					inf := informer.NewSharedIndexInformerWithOptions(lw, &api.Pod{}, informer.SharedIndexInformerOptions{
						Indexers: store.Indexers{store.NamespaceIndex: store.MetaNamespaceIndexFunc}, Profile: informer.ProfileCurrent})
					syncOnce(b, inf.RunWithContext, inf.HasSynced)
				}
			},
			theirs: func(b *testing.B) {
				cfg := wiretest.RESTConfig(url)
				cfg.ContentType = theirCT
				cs, err := kubernetes.NewForConfig(cfg)
				if err != nil {
					b.Fatal(err)
				}
				for b.Loop() {
					f := informers.NewSharedInformerFactory(cs, 0)
					inf := f.Core().V1().Pods().Informer()
					syncOnce(b, inf.RunWithContext, inf.HasSynced)
				}
			}})
	}
	return rows
}

// warmList reads a whole collection in one encoding and checks the answer.
func warmList(t *testing.T, url, accept string) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	require.NoError(t, err)
	req.Header.Set("Accept", accept)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, "GET %s as %s", url, accept)
	require.Contains(t, resp.Header.Get("Content-Type"), accept)
}

func informerRowNames(n int) []string {
	return []string{fmt.Sprintf("informer initial sync, %dk pods (watch-list)", n/1000),
		fmt.Sprintf("informer initial sync, %dk pods (watch-list, protobuf)", n/1000)}
}

func syncOnce(b *testing.B, run func(context.Context), synced func() bool) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); run(ctx) }()
	// The row measures time to HasSynced: poll every millisecond (cache.WaitForCacheSync's
	// 100 ms would round every sync up to a tenth of a second), and stop the clock for the
	// shutdown, whose cost is no part of syncing.
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	deadline := time.After(5 * time.Minute)
	for !synced() {
		select {
		case <-tick.C:
		case <-deadline:
			b.Fatal("no sync within 5 minutes")
		}
	}
	b.StopTimer()
	cancel()
	<-done
	b.StartTimer()
}

// TestBenchCompare prints the table; without -compare it is skipped.
func TestBenchCompare(t *testing.T) {
	if !*compare {
		t.Skip("run with -compare (make bench-compare)")
	}
	only, err := regexp.Compile(*rows)
	require.NoError(t, err, "-compare.rows")
	require.Contains(t, []string{"", "ours", "client-go"}, *side, "-compare.side")
	var out strings.Builder
	out.WriteString("| workload | ours ns/op | client-go ns/op | ratio | CPU ratio | ours B/op | client-go B/op |\n|---|---:|---:|---:|---:|---:|---:|\n")
	for _, g := range groups() {
		if g.names != nil && !anyMatch(only, g.names) {
			continue
		}
		for _, r := range g.build(t) {
			if only.MatchString(r.name) {
				runRow(r)
				out.WriteString(r.line())
				fmt.Fprint(os.Stderr, r.line())
			}
		}
		// The group's fixtures are garbage now; collect them before the next group's timing.
		goruntime.GC()
	}
	t.Log("\n" + out.String())
}

// runRow runs both sides of r several times and keeps each one's fastest round, so a burst
// of load from another process on a shared machine does not decide the ratio.
func runRow(r *row) {
	skip := func(b *testing.B) { b.SkipNow() }
	switch *side {
	case "ours":
		r.theirs = skip
	case "client-go":
		r.ours = skip
	}
	var oCPU, cCPU time.Duration
	ours, theirs := withCPU(r.ours, &oCPU), withCPU(r.theirs, &cCPU)
	// One untimed op of each side first: the first op after a group's fixtures were dropped
	// faults fresh pages in and competes with the runtime returning the old ones to the OS,
	// and that cost fell on our side, which runs first in round 0.
	warmUp(r.ours)
	warmUp(r.theirs)
	n := max(*rounds, 1)
	for i := 0; i < n; i++ {
		// Whoever runs second inherits the first one's heap and GC pacing; take turns.
		var o, c testing.BenchmarkResult
		if i%2 == 0 {
			o, c = testing.Benchmark(ours), testing.Benchmark(theirs)
		} else {
			c, o = testing.Benchmark(theirs), testing.Benchmark(ours)
		}
		if i == 0 || oCPU < r.oursCPU {
			r.oursCPU = oCPU
		}
		if i == 0 || cCPU < r.theirCPU {
			r.theirCPU = cCPU
		}
		if i == 0 || o.NsPerOp() < r.oursR.NsPerOp() {
			r.oursR = o
		}
		if i == 0 || c.NsPerOp() < r.theirR.NsPerOp() {
			r.theirR = c
		}
		// A round of a quick row takes a couple of seconds, and a quick row is the one a
		// burst of load skews most: give those half as many rounds again (kept even, and
		// within go test's ten-minute timeout for the whole table).
		if i == 0 && max(o.NsPerOp(), c.NsPerOp()) < quickRow.Nanoseconds() {
			n += (n/2 + 1) &^ 1
		}
	}
}

// quickRow is the op time under which a row gets more rounds.
const quickRow = 200 * time.Millisecond

// warmUp runs one op of a side: testing.Benchmark's first call has b.N = 1, and the calls it
// would make after that to fill a second are skipped.
func warmUp(f func(b *testing.B)) {
	calls := 0
	testing.Benchmark(func(b *testing.B) {
		if calls++; calls > 1 {
			b.SkipNow()
		}
		f(b)
	})
}

// withCPU wraps a side so that *per receives the process CPU time per op of its last run
// (testing.Benchmark's last run is the one whose N it reports).
func withCPU(f func(b *testing.B), per *time.Duration) func(b *testing.B) {
	return func(b *testing.B) {
		start := processCPU()
		f(b)
		*per = (processCPU() - start) / time.Duration(max(b.N, 1))
	}
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// line is r's row of the table.
func (r *row) line() string {
	return fmt.Sprintf("| %s | %d | %d | %.2f | %.2f | %d | %d |\n", r.name, r.oursR.NsPerOp(), r.theirR.NsPerOp(),
		float64(r.oursR.NsPerOp())/float64(r.theirR.NsPerOp()), float64(r.oursCPU)/float64(r.theirCPU),
		r.oursR.AllocedBytesPerOp(), r.theirR.AllocedBytesPerOp())
}
