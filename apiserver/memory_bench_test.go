package apiserver

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"

	"github.com/informer-lab/informer-lab/apiserver/storage"
)

// BenchmarkMemoryPerStoredPod reports what a 10,000-pod store holds per pod (realistic pods:
// the spec of fullDeployment's template), against the size of the pod's JSON:
//   - bytes/pod: the heap held once the pods are created (their trees, records, keys and
//     the history's events);
//   - encoded-bytes/pod: the same once a JSON list and a protobuf list and watch have been
//     served, so every pod also holds its cached encodings;
//   - json-bytes/pod: the pod's JSON encoding, and the two ratios to it.
func BenchmarkMemoryPerStoredPod(b *testing.B) {
	const n = 10_000
	for range b.N {
		heap := func() uint64 {
			runtime.GC()
			runtime.GC()
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			return m.HeapAlloc
		}
		before := heap()
		s := New(Options{})
		res, err := s.table.Lookup("pods")
		if err != nil {
			b.Fatal(err)
		}
		for i := range n {
			pod := fmt.Sprintf(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"pod-%05d","labels":{"app":"web"}},"spec":%s}`, i, fullPodSpec)
			obj, _, err := s.ep.decodeObject(res, []byte(pod), "Strict")
			if err != nil {
				b.Fatal(err)
			}
			if _, err := s.reg.Create(context.Background(), res, "default", obj, false); err != nil {
				b.Fatal(err)
			}
		}
		stored := heap()
		ts := httptest.NewServer(s.Handler())
		jsonBytes := 0
		for _, accept := range []string{"application/json", "application/vnd.kubernetes.protobuf"} {
			req, _ := http.NewRequest(http.MethodGet, ts.URL+"/api/v1/pods", nil)
			req.Header.Set("Accept", accept)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		// A protobuf watch-list sends every pod as an ADDED event: the watch encoding.
		req, _ := http.NewRequest(http.MethodGet, ts.URL+"/api/v1/pods?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=10", nil)
		req.Header.Set("Accept", "application/vnd.kubernetes.protobuf;stream=watch")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		countFrames(resp.Body, true, n)
		resp.Body.Close()
		ts.Close()
		lr, err := s.store.GetList(context.Background(), res.Coll, storage.ListOptions{})
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range lr.Items {
			jsonBytes += len(jsonOf(r))
		}
		encoded := heap()
		perJSON := float64(jsonBytes) / n
		b.ReportMetric(float64(stored-before)/n, "bytes/pod")
		b.ReportMetric(float64(encoded-before)/n, "encoded-bytes/pod")
		b.ReportMetric(perJSON, "json-bytes/pod")
		b.ReportMetric(float64(stored-before)/n/perJSON, "stored/json")
		b.ReportMetric(float64(encoded-before)/n/perJSON, "encoded/json")
		runtime.KeepAlive(s)
		s.Close()
	}
}
