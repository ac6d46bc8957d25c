package apiserver

import (
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
	"github.com/informer-lab/informer-lab/apiserver/storage"
)

// BenchmarkWatchFanOutBurst: 100 watchers over real HTTP connections, each reading as fast
// as it can, of a burst of 10,000 events, in JSON and in protobuf. Two bursts:
//
//   - pods-registry: 10,000 pod creates through the registry's create (defaulting,
//     validation, admission, storage: what an HTTP create runs once its body is decoded), as
//     fast as it takes them. The writer shares the CPU with the watchers, so this measures
//     the create path as much as the delivery.
//   - configmaps-storage: 10,000 ConfigMaps, made before the timer, committed through the
//     storage layer as fast as it takes them: this isolates the fan-out.
//
// It reports the events delivered per second (watchers × events over the time from the
// first write to the last frame read), the p50 and p99 latency from each write to each
// watcher's receipt of it, the time the burst took to write, and the process's CPU time per
// delivered event (server and clients together): on a shared machine the last is what does
// not depend on the load, and 2 cores ÷ cpu-ns/event bounds events/s on an idle one.
//
// The clients read every byte but decode nothing: a watcher sees every event of the burst
// in order, so its k-th frame is the k-th write; frames are counted by their newlines (JSON)
// or length prefixes (protobuf), and a frame's receipt time is that of the read that
// completed it.
func BenchmarkWatchFanOutBurst(b *testing.B) {
	const watchers, events = 100, 10_000
	for _, burst := range []burstKind{
		{"pods-registry", "pods", registryPods},
		{"configmaps-storage", "configmaps", storageConfigMaps},
	} {
		for _, enc := range []struct{ name, accept string }{
			{"json", "application/json"},
			{"protobuf", "application/vnd.kubernetes.protobuf;stream=watch"},
		} {
			b.Run(burst.name+"/"+enc.name, func(b *testing.B) {
				// The figures are over all b.N bursts: events/s over their total time, the
				// latencies pooled.
				var all burstResult
				for range b.N {
					r := runBurst(b, watchers, events, enc.accept, enc.name == "protobuf", burst)
					all.lats = append(all.lats, r.lats...)
					all.elapsed += r.elapsed
					all.write += r.write
					all.cpu += r.cpu
				}
				slices.Sort(all.lats)
				delivered := float64(b.N * watchers * events)
				b.ReportMetric(delivered/all.elapsed.Seconds(), "events/s")
				b.ReportMetric(float64(all.lats[len(all.lats)/2].Microseconds()), "p50-µs")
				b.ReportMetric(float64(all.lats[len(all.lats)*99/100].Microseconds()), "p99-µs")
				b.ReportMetric(all.write.Seconds()*1000/float64(b.N), "write-ms")
				b.ReportMetric(float64(all.cpu.Nanoseconds())/delivered, "cpu-ns/event")
			})
		}
	}
}

// registryPods decodes n pods and returns the write of the i-th through the registry.
func registryPods(b *testing.B, s *Server, n int) func(i int) {
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
	return func(i int) {
		if _, err := s.reg.Create(ctx, res, "default", objs[i], false); err != nil {
			b.Fatal(err)
		}
	}
}

// storageConfigMaps makes n ConfigMaps as the registry would store them (uid, creation
// time) and returns the commit of the i-th straight into the storage.
func storageConfigMaps(b *testing.B, s *Server, n int) func(i int) {
	ctx := context.Background()
	res, err := s.table.Lookup("configmaps")
	if err != nil {
		b.Fatal(err)
	}
	objs := make([]*api.Unstructured, n)
	keys := make([]string, n)
	for i := range objs {
		name := fmt.Sprintf("cm-%06d", i)
		keys[i] = objectKey("default", name)
		objs[i] = &api.Unstructured{Object: map[string]any{
			"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{
				"name": name, "namespace": "default",
				"uid":               fmt.Sprintf("5f1c2a6e-0000-4000-8000-%012d", i),
				"creationTimestamp": "2026-01-01T00:00:00Z",
				"labels":            map[string]any{"app": "bench"},
			},
			"data": map[string]any{"key": fmt.Sprintf("value-%d", i)},
		}}
	}
	return func(i int) {
		if _, err := s.store.Create(ctx, res.Coll, keys[i], objs[i], storage.CreateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// burstKind is one kind of burst: what it writes and how.
type burstKind struct {
	name, resource string
	// prep makes the n objects before the timer and returns the write of the i-th.
	prep func(b *testing.B, s *Server, n int) func(i int)
}

type burstResult struct {
	lats           []time.Duration // write→receipt latencies, one per frame read
	elapsed, write time.Duration
	cpu            time.Duration // user + system time of the process over the burst
}

// runBurst opens the watchers, writes n objects and waits until every watcher has read
// them.
func runBurst(b *testing.B, watchers, n int, accept string, protobuf bool, kind burstKind) burstResult {
	b.Helper()
	b.StopTimer()
	// A buffer as large as the burst: no healthy watcher may be closed as slow here.
	s := New(Options{WatchBufferSize: n})
	defer s.Close()
	base, err := s.Start("")
	if err != nil {
		b.Fatal(err)
	}
	write := kind.prep(b, s, n)
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: watchers, DisableCompression: true}}
	defer hc.CloseIdleConnections()
	written := make([]atomic.Int64, n) // UnixNano of each write, by index
	var mu sync.Mutex
	var wg sync.WaitGroup
	lats := make([]time.Duration, 0, watchers*n)
	short := 0
	for range watchers {
		req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/api/v1/namespaces/default/%s?watch=1&resourceVersion=%d", base, kind.resource, s.ResourceVersion()), nil)
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
	runtime.GC()
	b.StartTimer()
	cpu0, t0 := cpuTime(), time.Now()
	for i := range n {
		written[i].Store(time.Now().UnixNano())
		write(i)
	}
	writeTime := time.Since(t0)
	wg.Wait()
	elapsed, cpu := time.Since(t0), cpuTime()-cpu0
	b.StopTimer()
	if short > 0 {
		b.Fatalf("%d watchers missed events", short)
	}
	return burstResult{lats: lats, elapsed: elapsed, write: writeTime, cpu: cpu}
}

// readBurst reads n frames and returns the latency of each: the k-th frame is the k-th
// write. It counts JSON frames by their newlines and protobuf ones by their 4-byte length
// prefixes, across reads of up to 256 KiB.
func readBurst(r io.Reader, protobuf bool, n int, written []atomic.Int64) []time.Duration {
	buf := make([]byte, 256<<10)
	local := make([]time.Duration, 0, n)
	var head [4]byte
	heads := 0 // bytes of the current length prefix read so far (protobuf)
	skip := 0  // bytes of the current frame's body still to come (protobuf)
	for len(local) < n {
		m, err := r.Read(buf)
		if m > 0 {
			now := time.Now().UnixNano()
			p := buf[:m]
			if !protobuf {
				for {
					j := bytes.IndexByte(p, '\n')
					if j < 0 {
						break
					}
					if k := len(local); k < n {
						local = append(local, time.Duration(now-written[k].Load()))
					}
					p = p[j+1:]
				}
			}
			for protobuf && len(p) > 0 {
				if skip > 0 {
					d := min(skip, len(p))
					skip -= d
					p = p[d:]
					if skip == 0 {
						if k := len(local); k < n {
							local = append(local, time.Duration(now-written[k].Load()))
						}
					}
					continue
				}
				d := copy(head[heads:], p)
				heads += d
				p = p[d:]
				if heads == 4 {
					heads, skip = 0, int(binary.BigEndian.Uint32(head[:]))
				}
			}
		}
		if err != nil {
			return local
		}
	}
	return local
}

// cpuTime is the user and system time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
