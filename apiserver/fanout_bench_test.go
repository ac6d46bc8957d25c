package apiserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/informer-lab/informer-lab/api"
)

// BenchmarkWatchFanOutBurst: 100 watchers over real HTTP connections, each reading as fast
// as it can, of a burst of 10,000 pod creates, in JSON and in protobuf. The burst goes
// through the registry's create (defaulting, validation, admission, storage: what an HTTP
// create runs once its body is decoded), as fast as it takes them. It reports the events
// delivered per second (watchers × events over the time from the first write to the last
// frame read), the p50 and p99 latency from each write to each watcher's receipt of it, the
// time the burst took to write, and the process's CPU time per delivered event (server and
// clients together): on a shared machine the last is what does not depend on the load, and
// 2 cores ÷ cpu-ns/event bounds events/s on an idle one. Every stored version is encoded
// once per encoding; its frame is copied into each watcher's batch.
func BenchmarkWatchFanOutBurst(b *testing.B) {
	const watchers, events = 100, 10_000
	for _, enc := range []struct{ name, accept string }{
		{"json", "application/json"},
		{"protobuf", "application/vnd.kubernetes.protobuf;stream=watch"},
	} {
		b.Run(enc.name, func(b *testing.B) {
			for range b.N {
				r := runBurst(b, watchers, events, enc.accept, enc.name == "protobuf")
				b.ReportMetric(float64(watchers*events)/r.elapsed.Seconds(), "events/s")
				b.ReportMetric(float64(r.lats[len(r.lats)/2].Microseconds()), "p50-µs")
				b.ReportMetric(float64(r.lats[len(r.lats)*99/100].Microseconds()), "p99-µs")
				b.ReportMetric(r.write.Seconds()*1000, "write-ms")
				b.ReportMetric(float64(r.cpu.Nanoseconds())/float64(watchers*events), "cpu-ns/event")
			}
		})
	}
}

type burstResult struct {
	lats           []time.Duration // sorted write→receipt latencies, one per frame read
	elapsed, write time.Duration
	cpu            time.Duration // user + system time of the process over the burst
}

// runBurst opens the watchers, writes n pods and waits until every watcher has read them.
// A watcher finds the pod's index by its name (pod-NNNNNN), which leads the object's
// metadata in either encoding, so no frame is decoded.
func runBurst(b *testing.B, watchers, n int, accept string, protobuf bool) burstResult {
	b.Helper()
	b.StopTimer()
	// A buffer as large as the burst: no healthy watcher may be closed as slow here.
	s := New(Options{WatchBufferSize: n})
	defer s.Close()
	base, err := s.Start("")
	if err != nil {
		b.Fatal(err)
	}
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: watchers, DisableCompression: true}}
	defer hc.CloseIdleConnections()
	written := make([]atomic.Int64, n) // UnixNano of each write, by pod index
	var mu sync.Mutex
	var wg sync.WaitGroup
	var lats []time.Duration
	short := 0
	for range watchers {
		req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/api/v1/namespaces/default/pods?watch=1&resourceVersion=%d", base, s.ResourceVersion()), nil)
		req.Header.Set("Accept", accept)
		resp, err := hc.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer resp.Body.Close()
			local := readBurst(resp.Body, protobuf, n, written)
			mu.Lock()
			lats = append(lats, local...)
			if len(local) < n {
				short++
			}
			mu.Unlock()
		}()
	}
	ctx := context.Background()
	res, err := s.table.Lookup("pods")
	if err != nil {
		b.Fatal(err)
	}
	objs := make([]*api.Unstructured, n)
	for i := range objs {
		body, _ := json.Marshal(benchPod(i))
		if objs[i], _, err = s.ep.decodeObject(res, body, "Strict"); err != nil {
			b.Fatal(err)
		}
	}
	runtime.GC()
	b.StartTimer()
	cpu0, t0 := cpuTime(), time.Now()
	for i, obj := range objs {
		written[i].Store(time.Now().UnixNano())
		if _, err := s.reg.Create(ctx, res, "default", obj, false); err != nil {
			b.Fatal(err)
		}
	}
	write := time.Since(t0)
	wg.Wait()
	elapsed, cpu := time.Since(t0), cpuTime()-cpu0
	b.StopTimer()
	if short > 0 {
		b.Fatalf("%d watchers missed events", short)
	}
	slices.Sort(lats)
	return burstResult{lats: lats, elapsed: elapsed, write: write, cpu: cpu}
}

// readBurst reads n frames and returns the latency of each.
func readBurst(r io.Reader, protobuf bool, n int, written []atomic.Int64) []time.Duration {
	br := bufio.NewReaderSize(r, 64<<10)
	local := make([]time.Duration, 0, n)
	frame := make([]byte, 0, 4096)
	var head [4]byte
	for len(local) < n {
		var f []byte
		if protobuf {
			if _, err := io.ReadFull(br, head[:]); err != nil {
				return local
			}
			size := int(binary.BigEndian.Uint32(head[:]))
			frame = slices.Grow(frame[:0], size)[:size]
			if _, err := io.ReadFull(br, frame); err != nil {
				return local
			}
			f = frame
		} else {
			line, err := br.ReadSlice('\n')
			if err != nil {
				return local
			}
			f = line
		}
		now := time.Now().UnixNano()
		if i := podIndex(f); i >= 0 && i < len(written) {
			local = append(local, time.Duration(now-written[i].Load()))
		}
	}
	return local
}

// podIndex reads NNNNNN from the first "pod-NNNNNN" in a frame, or -1.
func podIndex(f []byte) int {
	j := bytes.Index(f, []byte("pod-"))
	if j < 0 || j+10 > len(f) {
		return -1
	}
	i := 0
	for _, c := range f[j+4 : j+10] {
		if c < '0' || c > '9' {
			return -1
		}
		i = i*10 + int(c-'0')
	}
	return i
}

// cpuTime is the user and system time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
