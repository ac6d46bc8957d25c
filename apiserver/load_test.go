package apiserver_test

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/fields"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/listwatch"
	"github.com/informer-lab/informer-lab/rest"
)

// The load run (make load). It is not part of go test: it needs the
// -load flag, runs for a minute by default and reports figures rather than asserting them.
var (
	loadRun        = flag.Bool("load", false, "run TestCh01_Load, the load run of make load")
	loadDuration   = flag.Duration("load.duration", 60*time.Second, "how long TestCh01_Load writes")
	loadWatchers   = flag.Int("load.watchers", 1000, "concurrent HTTP watchers in TestCh01_Load")
	loadWide       = flag.Int("load.wide", 4, "how many of the watchers watch every namespace (the rest watch one each)")
	loadRate       = flag.Int("load.rate", 5000, "writes per second in TestCh01_Load")
	loadNamespaces = flag.Int("load.namespaces", 100, "namespaces the writes and the per-namespace watchers are spread over")
	loadWriters    = flag.Int("load.writers", 16, "concurrent writer connections")
)

const loadSkip = "the load run is not part of go test; run it with `make load` or " +
	"`go test -run '^TestCh01_Load$' -count=1 -v -timeout 30m ./apiserver/ -args -load -load.duration=60s`"

// latencyHist is a histogram of delivery latencies in 10 µs buckets up to 2 s.
type latencyHist struct {
	buckets [200_001]atomic.Int64
	n       atomic.Int64
	max     atomic.Int64
}

func (h *latencyHist) add(d time.Duration) {
	i := int(d / (10 * time.Microsecond))
	if i < 0 {
		i = 0
	}
	if i >= len(h.buckets) {
		i = len(h.buckets) - 1
	}
	h.buckets[i].Add(1)
	h.n.Add(1)
	for {
		m := h.max.Load()
		if int64(d) <= m || h.max.CompareAndSwap(m, int64(d)) {
			return
		}
	}
}

func (h *latencyHist) quantile(q float64) time.Duration {
	want := int64(q * float64(h.n.Load()))
	var seen int64
	for i := range h.buckets {
		seen += h.buckets[i].Load()
		if seen > want {
			return time.Duration(i+1) * 10 * time.Microsecond
		}
	}
	return 2 * time.Second
}

// tally is what a watcher saw of one stream of RVs: enough to compare two streams as sets
// once each is known to be strictly increasing.
type tally struct {
	count, sum, xor uint64
	last            uint64
}

func (t *tally) add(rv uint64) {
	t.count++
	t.sum += rv
	t.xor ^= rv
	t.last = rv
}

// loadWatcher is one raw HTTP watcher. It decodes only what it checks (type, namespace,
// resourceVersion and the write's timestamp) with byte scans, so that a thousand of them
// leave the CPU to the server.
type loadWatcher struct {
	url  string // without resourceVersion
	wide bool
	ns   int // namespace index for a per-namespace watcher

	last       atomic.Uint64 // last RV received
	seen       tally         // owned by the watcher goroutine until it ends
	perNS      []tally       // wide reference watcher only
	events     atomic.Int64
	gaps       int64 // wide: an RV that is not last+1; any: an RV not above last
	slowCloses int64 // ERROR 500 (buffer overflow, W19): re-watched from last
	ended      int64 // streams that ended without ERROR: re-watched from last
	failures   []string
}

func scanString(line []byte, key string) []byte {
	i := bytes.Index(line, []byte(key))
	if i < 0 {
		return nil
	}
	rest := line[i+len(key):]
	j := bytes.IndexByte(rest, '"')
	if j < 0 {
		return nil
	}
	return rest[:j]
}

func (w *loadWatcher) run(ctx context.Context, hc *http.Client, lat *latencyHist) {
	for ctx.Err() == nil {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, w.url+strconv.FormatUint(w.last.Load(), 10), nil)
		if err != nil {
			w.failures = append(w.failures, err.Error())
			return
		}
		resp, err := hc.Do(req)
		if err != nil {
			if ctx.Err() == nil {
				w.failures = append(w.failures, "watch: "+err.Error())
			}
			return
		}
		if resp.StatusCode != http.StatusOK {
			data, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			w.failures = append(w.failures, fmt.Sprintf("watch: %d %s", resp.StatusCode, data))
			return
		}
		br := bufio.NewReaderSize(resp.Body, 64<<10)
		for {
			line, err := br.ReadSlice('\n')
			if err != nil {
				if ctx.Err() == nil {
					w.ended++
				}
				break
			}
			if bytes.HasPrefix(line, []byte(`{"type":"ERROR"`)) {
				if !bytes.Contains(line, []byte(`"code":500`)) {
					w.failures = append(w.failures, "unexpected ERROR event: "+string(line))
					resp.Body.Close()
					return
				}
				w.slowCloses++
				break
			}
			now := time.Now()
			rv, err := strconv.ParseUint(string(scanString(line, `"resourceVersion":"`)), 10, 64)
			if err != nil {
				w.failures = append(w.failures, "no resourceVersion in "+string(line))
				continue
			}
			last := w.last.Load()
			if rv <= last || (w.wide && rv != last+1) {
				w.gaps++
			}
			w.seen.add(rv)
			if w.perNS != nil {
				if ns, err := strconv.Atoi(string(bytes.TrimPrefix(scanString(line, `"namespace":"`), []byte("load-")))); err == nil && ns < len(w.perNS) {
					w.perNS[ns].add(rv)
				}
			}
			if !bytes.HasPrefix(line, []byte(`{"type":"DELETED"`)) {
				if ts, err := strconv.ParseInt(string(scanString(line, `"ts":"`)), 10, 64); err == nil {
					lat.add(now.Sub(time.Unix(0, ts)))
				}
			}
			w.last.Store(rv)
			w.events.Add(1)
		}
		resp.Body.Close()
	}
}

// loadWriter owns every namespace i with i % writers == id and cycles through them, each
// with 20 configmaps that it creates, updates (80%) and deletes (20%). Every write changes
// something, so every write is exactly one event.
type loadWriter struct {
	id, writers, namespaces int
	exists                  [][20]bool
	writes, failed          int64
	firstErr                string
}

func (lw *loadWriter) run(ctx context.Context, hc *http.Client, base string, lim *rate.Limiter) {
	rng := rand.New(rand.NewPCG(uint64(lw.id), 42))
	lw.exists = make([][20]bool, lw.namespaces)
	var mine []int
	for ns := lw.id; ns < lw.namespaces; ns += lw.writers {
		mine = append(mine, ns)
	}
	if len(mine) == 0 {
		return
	}
	for i := 0; ; i++ {
		// ctx only paces and stops the loop: a request itself is never cancelled, so when
		// run returns every write it started has been answered.
		if lim.Wait(ctx) != nil {
			return
		}
		ns := mine[i%len(mine)]
		slot := rng.IntN(20)
		name := fmt.Sprintf("cm-%02d", slot)
		coll := fmt.Sprintf("%s/api/v1/namespaces/load-%03d/configmaps", base, ns)
		body := fmt.Sprintf(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":%q,"namespace":"load-%03d"},"data":{"ts":"%d","seq":"%d"}}`,
			name, ns, time.Now().UnixNano(), i)
		var req *http.Request
		var want int
		switch {
		case !lw.exists[ns][slot]:
			req, _ = http.NewRequest(http.MethodPost, coll, strings.NewReader(body))
			want = http.StatusCreated
			lw.exists[ns][slot] = true
		case rng.IntN(10) < 8:
			req, _ = http.NewRequest(http.MethodPut, coll+"/"+name, strings.NewReader(body))
			want = http.StatusOK
		default:
			req, _ = http.NewRequest(http.MethodDelete, coll+"/"+name, nil)
			want = http.StatusOK
			lw.exists[ns][slot] = false
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := hc.Do(req)
		if err != nil {
			lw.failed++
			if lw.firstErr == "" {
				lw.firstErr = err.Error()
			}
			continue
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want {
			lw.failed++
			if lw.firstErr == "" {
				lw.firstErr = fmt.Sprintf("%s %s: %d %s", req.Method, req.URL.Path, resp.StatusCode, data)
			}
			continue
		}
		lw.writes++
	}
}

// pollUntil checks cond every 10 ms until it holds or d has passed: a bounded wait for the
// run to reach a state, not a sleep standing in for synchronisation.
func pollUntil(d time.Duration, cond func() bool) bool {
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(d)
	for !cond() {
		select {
		case <-tick.C:
		case <-deadline:
			return cond()
		}
	}
	return true
}

func peakRSS() string {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "unknown (" + err.Error() + ")"
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmHWM:"))
		}
	}
	return "unknown"
}

// TestCh01_Load runs load.watchers HTTP watchers (load.wide of them on every namespace, the
// others spread over load.namespaces namespaces) and one shared informer on configmaps,
// while load.writers connections write load.rate configmap writes per second for
// load.duration. It checks that every watcher got every event of its namespaces in RV order
// with no gap (a watcher closed as slow re-watches from its last RV and must then fill the
// gap), and that the informer's cache equals the server at the end. It reports writes/s,
// events/s delivered, delivery latency quantiles (write sent → event read by a watcher),
// slow-watcher closes, the heap over time and peak RSS (VmHWM: server, clients and informer
// share the process).
func TestCh01_Load(t *testing.T) {
	if !*loadRun {
		t.Skip(loadSkip)
	}
	nsCount, nWatchers, nWide := *loadNamespaces, *loadWatchers, *loadWide
	require.Positive(t, nsCount)
	require.GreaterOrEqual(t, nWide, 1, "the first wide watcher is the reference")
	require.GreaterOrEqual(t, nWatchers, nWide)

	srv := apiserver.New(apiserver.Options{
		// 10 s of history at the target rate: a watcher closed as slow re-watches within
		// milliseconds. The ring holds every event's object and JSON, so it is most of the
		// heap; more history costs GC time and with it throughput.
		HistorySize: max(*loadRate*10, apiserver.DefaultHistorySize),
	})
	base, err := srv.Start("127.0.0.1:0")
	require.NoError(t, err)
	defer srv.Close()
	ctx := context.Background()
	for ns := range nsCount {
		_, err := srv.Create(ctx, "namespaces", "", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("load-%03d", ns)}})
		require.NoError(t, err)
	}
	startRV := srv.ResourceVersion()

	// Watchers, all from startRV.
	watchCtx, stopWatchers := context.WithCancel(ctx)
	defer stopWatchers()
	watchHC := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: nWatchers + 10}}
	lat := &latencyHist{}
	watchers := make([]*loadWatcher, nWatchers)
	var wwg sync.WaitGroup
	for i := range watchers {
		w := &loadWatcher{}
		if i < nWide {
			w.wide = true
			w.url = base + "/api/v1/configmaps?watch=1&resourceVersion="
			if i == 0 {
				w.perNS = make([]tally, nsCount)
			}
		} else {
			w.ns = (i - nWide) % nsCount
			w.url = fmt.Sprintf("%s/api/v1/namespaces/load-%03d/configmaps?watch=1&resourceVersion=", base, w.ns)
		}
		w.last.Store(startRV)
		watchers[i] = w
		wwg.Add(1)
		go func() { defer wwg.Done(); w.run(watchCtx, watchHC, lat) }()
	}
	pollUntil(2*time.Minute, func() bool { return len(srv.Watchers()) >= nWatchers })
	require.Len(t, srv.Watchers(), nWatchers, "watches open")

	// The informer, over HTTP like any client.
	client, err := rest.RESTClientFor(&rest.Config{Host: base})
	require.NoError(t, err)
	inf := informer.NewSharedIndexInformer(listwatch.NewListWatchFromClient(client, "configmaps", "", fields.Everything()), &api.ConfigMap{}, 0, nil)
	infCtx, stopInformer := context.WithCancel(ctx)
	infDone := make(chan struct{})
	go func() { defer close(infDone); inf.RunWithContext(infCtx) }()
	defer func() { stopInformer(); <-infDone }()
	require.True(t, informer.WaitForCacheSync(infCtx.Done(), inf.HasSynced))

	// Heap samples while the load runs.
	var memMu sync.Mutex
	var heapLog []string
	var peakHeap uint64
	sampleDone := make(chan struct{})
	sampleStop := make(chan struct{})
	go func() {
		defer close(sampleDone)
		tick := time.NewTicker(5 * time.Second)
		defer tick.Stop()
		t0 := time.Now()
		for {
			select {
			case <-sampleStop:
				return
			case <-tick.C:
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				memMu.Lock()
				peakHeap = max(peakHeap, ms.HeapInuse)
				heapLog = append(heapLog, fmt.Sprintf("t=%2.0fs heap=%4d MiB goroutines=%d rv=%d",
					time.Since(t0).Seconds(), ms.HeapInuse>>20, runtime.NumGoroutine(), srv.ResourceVersion()))
				memMu.Unlock()
			}
		}
	}()

	// Writers.
	writeHC := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: *loadWriters + 4}}
	lim := rate.NewLimiter(rate.Limit(*loadRate), max(*loadRate/100, 1))
	writeCtx, stopWriters := context.WithTimeout(ctx, *loadDuration)
	defer stopWriters()
	writers := make([]*loadWriter, *loadWriters)
	var wrwg sync.WaitGroup
	start := time.Now()
	for i := range writers {
		writers[i] = &loadWriter{id: i, writers: len(writers), namespaces: nsCount}
		wrwg.Add(1)
		go func() { defer wrwg.Done(); writers[i].run(writeCtx, writeHC, base, lim) }()
	}
	wrwg.Wait()
	writeElapsed := time.Since(start)
	endRV := srv.ResourceVersion()

	// Wait (bounded) for every watcher to reach the end of its stream.
	ref := watchers[0]
	target := func(w *loadWatcher) uint64 {
		if w.wide {
			return endRV
		}
		// The reference's per-namespace last is only read after it reached endRV.
		return max(ref.perNS[w.ns].last, startRV)
	}
	pollUntil(2*time.Minute, func() bool { return ref.last.Load() >= endRV })
	require.Equal(t, endRV, ref.last.Load(), "the reference watcher caught up")
	lagging := 0
	pollUntil(2*time.Minute, func() bool {
		lagging = 0
		for _, w := range watchers {
			if w.last.Load() < target(w) {
				lagging++
			}
		}
		return lagging == 0
	})
	drained := time.Since(start)
	stopWatchers()
	wwg.Wait()
	close(sampleStop)
	<-sampleDone

	// The informer's cache equals the server (bounded wait for it to catch up).
	serverState := func() map[string]string {
		out := map[string]string{}
		l, err := srv.List(ctx, "configmaps", "", api.ListOptions{})
		require.NoError(t, err)
		for _, cm := range l.(*api.ConfigMapList).Items {
			out[cm.Namespace+"/"+cm.Name] = cm.ResourceVersion
		}
		return out
	}
	cacheState := func() map[string]string {
		out := map[string]string{}
		for _, o := range inf.GetStore().List() {
			cm := o.(*api.ConfigMap)
			out[cm.Namespace+"/"+cm.Name] = cm.ResourceVersion
		}
		return out
	}
	want := serverState()
	var diff string
	pollUntil(time.Minute, func() bool { diff = cmp.Diff(want, cacheState()); return diff == "" })

	// Verdicts and figures.
	var writes, failedWrites int64
	for _, w := range writers {
		writes += w.writes
		failedWrites += w.failed
		if w.firstErr != "" {
			t.Errorf("writer %d: %d failed writes, first: %s", w.id, w.failed, w.firstErr)
		}
	}
	var delivered, gaps, slow, ended int64
	mismatched := 0
	for i, w := range watchers {
		delivered += w.events.Load()
		gaps += w.gaps
		slow += w.slowCloses
		ended += w.ended
		for _, f := range w.failures {
			t.Errorf("watcher %d: %s", i, f)
		}
		var exp tally
		if w.wide {
			exp = ref.seen
		} else {
			exp = ref.perNS[w.ns]
		}
		exp.last = 0
		got := w.seen
		got.last = 0
		if got != exp {
			mismatched++
			if mismatched <= 5 {
				t.Errorf("watcher %d (wide=%v ns=%d): saw %+v, the reference %+v", i, w.wide, w.ns, got, exp)
			}
		}
	}
	if ref.seen.count != endRV-startRV {
		t.Errorf("the reference watcher saw %d events, the server made %d", ref.seen.count, endRV-startRV)
	}
	if int64(endRV-startRV) != writes {
		t.Errorf("%d successful writes made %d revisions", writes, endRV-startRV)
	}
	if gaps > 0 {
		t.Errorf("%d out-of-order or missing events", gaps)
	}
	if lagging > 0 {
		t.Errorf("%d watchers never caught up", lagging)
	}
	if diff != "" {
		t.Errorf("informer cache != server (-server +cache):\n%s", diff)
	}

	secs := writeElapsed.Seconds()
	memMu.Lock()
	for _, l := range heapLog {
		t.Log(l)
	}
	memMu.Unlock()
	t.Logf("load: %d watchers (%d on all namespaces, %d on one of %d namespaces), %d writers, target %d writes/s for %s, GOMAXPROCS=%d",
		nWatchers, nWide, nWatchers-nWide, nsCount, len(writers), *loadRate, *loadDuration, runtime.GOMAXPROCS(0))
	t.Logf("writes:    %d in %.1fs = %.0f/s (%d failed), revisions %d..%d", writes, secs, float64(writes)/secs, failedWrites, startRV+1, endRV)
	t.Logf("delivered: %d events to watchers = %.0f events/s (over the write period; all drained %.1fs after the start)",
		delivered, float64(delivered)/secs, drained.Seconds())
	t.Logf("latency (write sent → event read, ADDED/MODIFIED, %d samples): p50 %s  p99 %s  p99.9 %s  max %s",
		lat.n.Load(), lat.quantile(0.50), lat.quantile(0.99), lat.quantile(0.999), time.Duration(lat.max.Load()).Round(time.Microsecond))
	t.Logf("watchers:  %d slow-watcher closes (ERROR 500, re-watched from last RV), %d other stream ends, %d gaps, %d mismatched, %d lagging",
		slow, ended, gaps, mismatched, lagging)
	t.Logf("informer:  cache == server at the end: %v (%d objects)", diff == "", len(want))
	t.Logf("memory:    peak RSS (VmHWM) %s, peak heap in use %d MiB", peakRSS(), peakHeap>>20)
}
