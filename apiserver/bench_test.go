package apiserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/informer-lab/informer-lab/api"
)

func benchPod(i int) *api.Pod {
	p := pod("default", fmt.Sprintf("pod-%06d", i), map[string]string{"app": "bench", "i": strconv.Itoa(i % 10)})
	p.Spec.NodeName = "node-1"
	return p
}

func seed(b *testing.B, s *Server, n int) {
	b.Helper()
	ctx := context.Background()
	for i := range n {
		if _, err := s.Create(ctx, "pods", "default", benchPod(i)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCreate measures create throughput through the Go API and over HTTP.
func BenchmarkCreate(b *testing.B) {
	b.Run("inprocess", func(b *testing.B) {
		s := New(Options{})
		defer s.Close()
		ctx := context.Background()
		b.ReportAllocs()
		b.ResetTimer()
		for i := range b.N {
			if _, err := s.Create(ctx, "pods", "default", benchPod(i)); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "creates/s")
	})
	b.Run("http", func(b *testing.B) {
		s := NewTestServer(b, Options{})
		hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
		defer hc.CloseIdleConnections()
		b.ReportAllocs()
		b.ResetTimer()
		for i := range b.N {
			body := fmt.Sprintf(`{"metadata":{"name":"pod-%06d","labels":{"app":"bench"}},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`, i)
			resp, err := hc.Post(s.URL()+"/api/v1/namespaces/default/pods", "application/json", stringsReader(body))
			if err != nil || resp.StatusCode != 201 {
				b.Fatal(err, resp)
			}
			drain(resp)
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "creates/s")
	})
}

// BenchmarkList measures LIST of 10k and 100k pods through the HTTP handler, whole and paged
// by 500 (every page read at the snapshot of the first).
func BenchmarkList(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		s := New(Options{})
		seed(b, s, n)
		h := s.Handler()
		get := func(path string) *httptest.ResponseRecorder {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
			if rec.Code != 200 {
				b.Fatalf("%d %s", rec.Code, rec.Body.String()[:200])
			}
			return rec
		}
		b.Run(fmt.Sprintf("pods=%d/whole", n), func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				rec := get("/api/v1/namespaces/default/pods")
				b.SetBytes(int64(rec.Body.Len()))
			}
		})
		b.Run(fmt.Sprintf("pods=%d/paged500", n), func(b *testing.B) {
			b.ReportAllocs()
			pages := 0
			for range b.N {
				cont := ""
				for {
					rec := get("/api/v1/namespaces/default/pods?limit=500&continue=" + url.QueryEscape(cont))
					pages++
					cont = continueOf(rec.Body.Bytes())
					if cont == "" {
						break
					}
				}
			}
			b.ReportMetric(float64(pages)/float64(b.N), "pages/op")
		})
		s.Close()
	}
}

// continueOf reads metadata.continue from a list body. It decodes only the part before
// "items" (the server writes kind, apiVersion and metadata first), so the benchmark measures
// the server's paging and not the client's parsing of every item on the page.
func continueOf(body []byte) string {
	var l struct {
		Metadata api.ListMeta `json:"metadata"`
	}
	head := body
	if i := bytes.Index(body, []byte(`,"items":`)); i >= 0 {
		head = append(body[:i:i], '}')
	}
	if err := json.Unmarshal(head, &l); err != nil {
		panic(fmt.Sprintf("list body: %v: %.200s", err, head))
	}
	return l.Metadata.Continue
}

// BenchmarkMemoryPerPod reports the heap held per stored pod (history ring included).
func BenchmarkMemoryPerPod(b *testing.B) {
	const n = 50_000
	for range b.N {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		s := New(Options{})
		seed(b, s, n)
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/n, "bytes/pod")
		runtime.KeepAlive(s)
		s.Close()
	}
}

// BenchmarkWatchFanOut: 100 HTTP watchers, 10k created pods. Reports events/s delivered
// (watchers × events / time) and the p50/p99 latency from the write to its receipt.
// "burst" writes as fast as it can, so its latencies are mostly queueing: the writer runs
// far ahead of 100 consumers on 2 cores. "paced" writes at 2 kHz (one write per 500 µs),
// which 100 consumers can follow, so its latencies are those of one hop through the server.
func BenchmarkWatchFanOut(b *testing.B) {
	const watchers, events = 100, 10_000
	for _, bc := range []struct {
		name string
		pace time.Duration
	}{{"burst", 0}, {"paced-2kHz", 500 * time.Microsecond}} {
		b.Run(bc.name, func(b *testing.B) {
			for range b.N {
				// A buffer as large as the run: no healthy watcher may be closed as slow here.
				lat, _, elapsed := runFanOut(b, watchers, events, 0, events, bc.pace)
				b.ReportMetric(float64(watchers*events)/elapsed.Seconds(), "events/s")
				b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
				b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
			}
		})
	}
}

// BenchmarkStalledWatcher shows that one watcher that never reads does not slow writers:
// 99 healthy watchers beside it, compared with 100 healthy ones, writes paced at 1 kHz with
// the default buffer of 1000 events. The stalled watcher fills its socket and its buffer and
// is closed; the write latency percentiles stay those of the healthy run.
func BenchmarkStalledWatcher(b *testing.B) {
	for _, stalled := range []int{0, 1} {
		b.Run(fmt.Sprintf("stalled=%d", stalled), func(b *testing.B) {
			for range b.N {
				_, w, _ := runFanOut(b, 100-stalled, 3000, stalled, DefaultWatchBufferSize, time.Millisecond)
				b.ReportMetric(float64(w[len(w)/2].Microseconds()), "write-p50-µs")
				b.ReportMetric(float64(w[len(w)*99/100].Microseconds()), "write-p99-µs")
				b.ReportMetric(float64(w[len(w)-1].Microseconds()), "write-max-µs")
			}
		})
	}
}

// runFanOut starts healthy and stalled watchers over HTTP, writes n pods, waits until every
// healthy watcher has them all and returns the sorted write→receipt latencies.
func runFanOut(b *testing.B, healthy, n, stalled, bufSize int, pace time.Duration) (lats, writeLats []time.Duration, elapsed time.Duration) {
	b.Helper()
	b.StopTimer()
	s := New(Options{WatchBufferSize: bufSize})
	defer s.Close()
	base, err := s.Start("")
	if err != nil {
		b.Fatal(err)
	}
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 200}}
	defer hc.CloseIdleConnections()
	start := s.ResourceVersion()
	written := make([]atomic.Int64, n) // UnixNano of each write, by RV - start - 1
	var mu sync.Mutex
	var wg sync.WaitGroup
	short := 0
	open := func() *http.Response {
		resp, err := hc.Get(fmt.Sprintf("%s/api/v1/pods?watch=1&resourceVersion=%d", base, start))
		if err != nil {
			b.Fatal(err)
		}
		return resp
	}
	var stalledResp []*http.Response
	for range stalled {
		stalledResp = append(stalledResp, open())
	}
	marker := []byte(`"resourceVersion":"`)
	for range healthy {
		resp := open()
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer resp.Body.Close()
			local := make([]time.Duration, 0, n)
			sc := bufio.NewScanner(resp.Body)
			sc.Buffer(make([]byte, 1<<16), 1<<20)
			for got := 0; got < n && sc.Scan(); got++ {
				now := time.Now().UnixNano()
				line := sc.Bytes()
				j := bytes.Index(line, marker) + len(marker)
				k := bytes.IndexByte(line[j:], '"')
				rv, _ := strconv.ParseUint(string(line[j:j+k]), 10, 64)
				if idx := int(rv - start - 1); idx >= 0 && idx < n {
					local = append(local, time.Duration(now-written[idx].Load()))
				}
			}
			mu.Lock()
			lats = append(lats, local...)
			if len(local) < n {
				short++
			}
			mu.Unlock()
		}()
	}
	b.StartTimer()
	t0 := time.Now()
	ctx := context.Background()
	var tick *time.Ticker
	if pace > 0 {
		tick = time.NewTicker(pace)
		defer tick.Stop()
	}
	for i := range n {
		if tick != nil {
			<-tick.C
		}
		w0 := time.Now()
		written[i].Store(w0.UnixNano())
		if _, err := s.Create(ctx, "pods", "default", benchPod(i)); err != nil {
			b.Fatal(err)
		}
		writeLats = append(writeLats, time.Since(w0))
	}
	wg.Wait()
	elapsed = time.Since(t0)
	b.StopTimer()
	for _, r := range stalledResp {
		r.Body.Close()
	}
	if short > 0 {
		b.Fatalf("%d healthy watchers missed events", short)
	}
	slices.Sort(lats)
	slices.Sort(writeLats)
	return lats, writeLats, elapsed
}

func stringsReader(s string) *strings.Reader { return strings.NewReader(s) }

func drain(resp *http.Response) {
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
}

// BenchmarkTraceDisabled proves tracing costs nothing without a logger: the guarded hop of
// a list allocates nothing.
func BenchmarkTraceDisabled(b *testing.B) {
	s := New(Options{})
	defer s.Close()
	res, _ := s.table.Lookup("pods")
	lr := listResult{RV: 42}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		s.ep.traceList(res, "default", lr)
	}
}
