package apiserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Benchmarks of the object model: creates of whole objects over HTTP (decode against the
// schema, default, validate, store, encode), and LIST of full pods. The reference point is a
// real kube-apiserver with etcd on the same 2-core machine: 10,000 ConfigMap creates from 32
// concurrent clients take about 14.7 s there (about 680 creates/s).

// fullDeployment is a typical manifest: probes, env from a ConfigMap and a Secret, resources,
// volumes, tolerations and affinity; %s is its name.
const fullDeployment = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"%s","labels":{"app":"web","team":"platform"},
"annotations":{"deployment.kubernetes.io/revision":"1"}},"spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}},
"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":1,"maxUnavailable":0}},"template":{"metadata":{"labels":{"app":"web","tier":"frontend"}},
"spec":{"serviceAccountName":"web","containers":[{"name":"web","image":"nginx:1.27","imagePullPolicy":"IfNotPresent","args":["-c","/etc/nginx/nginx.conf"],
"ports":[{"name":"http","containerPort":8080,"protocol":"TCP"}],"env":[{"name":"LOG_LEVEL","value":"info"},
{"name":"MODE","valueFrom":{"configMapKeyRef":{"name":"web-config","key":"MODE"}}},{"name":"PASSWORD","valueFrom":{"secretKeyRef":{"name":"web-secret","key":"password"}}},
{"name":"POD_IP","valueFrom":{"fieldRef":{"fieldPath":"status.podIP"}}}],"envFrom":[{"configMapRef":{"name":"web-config"}}],
"resources":{"requests":{"cpu":"100m","memory":"64Mi"},"limits":{"cpu":"500m","memory":"128Mi"}},
"readinessProbe":{"httpGet":{"path":"/","port":"http"},"initialDelaySeconds":2,"periodSeconds":5},"livenessProbe":{"tcpSocket":{"port":8080},"failureThreshold":5},
"volumeMounts":[{"name":"config","mountPath":"/etc/nginx/nginx.conf","subPath":"nginx.conf","readOnly":true},{"name":"cache","mountPath":"/var/cache/nginx"}],
"securityContext":{"runAsNonRoot":true,"runAsUser":101,"allowPrivilegeEscalation":false,"capabilities":{"drop":["ALL"]}}}],
"volumes":[{"name":"config","configMap":{"name":"web-config"}},{"name":"cache","emptyDir":{"sizeLimit":"64Mi"}}],
"tolerations":[{"key":"dedicated","operator":"Equal","value":"web","effect":"NoSchedule"}],
"affinity":{"podAntiAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":100,"podAffinityTerm":{"topologyKey":"kubernetes.io/hostname",
"labelSelector":{"matchLabels":{"app":"web"}}}}]},"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[
{"matchExpressions":[{"key":"kubernetes.io/os","operator":"In","values":["linux"]}]}]}}}}}}}`

// smallConfigMap is a 512-byte ConfigMap; %s is its name.
func smallConfigMap(name string) string {
	head := fmt.Sprintf(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"%s","labels":{"app":"bench"}},"data":{"k":"`, name)
	tail := `"}}`
	return head + strings.Repeat("x", 512-len(head)-len(tail)) + tail
}

// BenchmarkCreateWholeObjects posts objects from 32 concurrent clients over HTTP and reports
// creates/s, with fieldValidation Strict (kubectl's) and Ignore.
func BenchmarkCreateWholeObjects(b *testing.B) {
	for _, tc := range []struct {
		name, path string
		body       func(string) string
	}{
		{"Deployment", "/apis/apps/v1/namespaces/default/deployments", func(n string) string { return fmt.Sprintf(fullDeployment, n) }},
		{"ConfigMap512B", "/api/v1/namespaces/default/configmaps", smallConfigMap},
	} {
		for _, fv := range []string{"Strict", "Ignore"} {
			b.Run(tc.name+"/"+fv, func(b *testing.B) {
				s := New(Options{})
				defer s.Close()
				ts := httptest.NewServer(s.Handler())
				defer ts.Close()
				client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
				url := ts.URL + tc.path + "?fieldValidation=" + fv
				var n atomic.Int64
				b.SetParallelism(16) // 2 cores × 16 = 32 clients
				b.ReportAllocs()
				start := time.Now()
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						body := tc.body(fmt.Sprintf("obj-%d", n.Add(1)))
						resp, err := client.Post(url, "application/json", strings.NewReader(body))
						if err != nil {
							b.Error(err)
							return
						}
						_, _ = io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
						if resp.StatusCode != http.StatusCreated {
							b.Errorf("status %d", resp.StatusCode)
							return
						}
					}
				})
				b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "creates/s")
			})
		}
	}
}

// BenchmarkDecodeShareOfCreate measures the schema decoding and validation alone against
// the whole create (Go API, no HTTP), so the share validation takes of a create is visible.
func BenchmarkDecodeShareOfCreate(b *testing.B) {
	s := New(Options{})
	defer s.Close()
	res, err := s.table.Lookup("deployments.apps")
	if err != nil {
		b.Fatal(err)
	}
	body := []byte(fmt.Sprintf(fullDeployment, "web"))
	b.Run("decode+validate", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := s.ep.decodeObject(res, body, "Strict"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("create", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			data := bytes.Replace(body, []byte(`"name":"web","labels"`), fmt.Appendf(nil, `"name":"web-%d","labels"`, i), 1)
			obj, _, err := s.ep.decodeObject(res, data, "Strict")
			if err != nil {
				b.Fatal(err)
			}
			if _, err := s.reg.Create(context.Background(), res, "default", obj, false); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkListFullPods lists 10,000 pods that carry a realistic spec over HTTP, in JSON and
// in protobuf (as client-go's typed informers ask for it).
func BenchmarkListFullPods(b *testing.B) {
	s := New(Options{})
	defer s.Close()
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	res, err := s.table.Lookup("pods")
	if err != nil {
		b.Fatal(err)
	}
	for i := range 10000 {
		pod := fmt.Sprintf(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"pod-%05d","labels":{"app":"web"}},"spec":%s}`, i, fullPodSpec)
		obj, _, err := s.ep.decodeObject(res, []byte(pod), "Strict")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.reg.Create(context.Background(), res, "default", obj, false); err != nil {
			b.Fatal(err)
		}
	}
	for _, enc := range []struct{ name, accept string }{
		{"json", "application/json"},
		{"protobuf", "application/vnd.kubernetes.protobuf, application/json"},
	} {
		b.Run(enc.name, func(b *testing.B) {
			b.ReportAllocs()
			var size int64
			for b.Loop() {
				req, _ := http.NewRequest("GET", ts.URL+"/api/v1/pods", nil)
				req.Header.Set("Accept", enc.accept)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				size, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			b.ReportMetric(float64(size)/(1<<20), "MiB/list")
		})
	}
}

// fullPodSpec is the pod template of fullDeployment, as a pod's spec.
const fullPodSpec = `{"containers":[{"name":"web","image":"nginx:1.27","ports":[{"name":"http","containerPort":8080}],
"env":[{"name":"LOG_LEVEL","value":"info"},{"name":"POD_IP","valueFrom":{"fieldRef":{"fieldPath":"status.podIP"}}}],
"resources":{"requests":{"cpu":"100m","memory":"64Mi"},"limits":{"cpu":"500m","memory":"128Mi"}},
"readinessProbe":{"httpGet":{"path":"/","port":"http"},"periodSeconds":5},"volumeMounts":[{"name":"cache","mountPath":"/var/cache/nginx"}]}],
"volumes":[{"name":"cache","emptyDir":{}}],"tolerations":[{"key":"dedicated","operator":"Equal","value":"web","effect":"NoSchedule"}],
"nodeName":"node-1"}`

// BenchmarkWatchFanOutEncoding delivers 2,000 pod events to 100 HTTP watchers in JSON and in
// protobuf and reports events/s delivered; the watchers count frames without decoding them,
// so the figure is the server's side of the fan-out. Each stored object is encoded once per
// encoding and shared by every watcher.
func BenchmarkWatchFanOutEncoding(b *testing.B) {
	const watchers, events = 100, 2000
	for _, enc := range []struct{ name, accept string }{
		{"json", "application/json"},
		{"protobuf", "application/vnd.kubernetes.protobuf;stream=watch"},
	} {
		b.Run(enc.name, func(b *testing.B) {
			for range b.N {
				s := New(Options{})
				ts := httptest.NewServer(s.Handler())
				done := make(chan struct{}, watchers)
				var bodies []io.ReadCloser
				for range watchers {
					req, _ := http.NewRequest("GET", ts.URL+"/api/v1/namespaces/default/pods?watch=1&resourceVersion=3", nil)
					req.Header.Set("Accept", enc.accept)
					resp, err := http.DefaultClient.Do(req)
					if err != nil {
						b.Fatal(err)
					}
					bodies = append(bodies, resp.Body)
					go func(r io.Reader) {
						countFrames(r, enc.name == "protobuf", events)
						done <- struct{}{}
					}(resp.Body)
				}
				start := time.Now()
				for i := range events {
					mustCreateBench(s, b, i)
				}
				for range watchers {
					<-done
				}
				b.ReportMetric(float64(watchers*events)/time.Since(start).Seconds(), "events/s")
				for _, body := range bodies {
					body.Close()
				}
				s.Close()
				ts.Close()
			}
		})
	}
}

func mustCreateBench(s *Server, b *testing.B, i int) {
	if _, err := s.Create(context.Background(), "pods", "default", benchPod(i)); err != nil {
		b.Fatal(err)
	}
}

// countFrames reads n frames: lines for JSON, length-prefixed frames for protobuf.
func countFrames(r io.Reader, protobuf bool, n int) {
	br := bufio.NewReaderSize(r, 64<<10)
	var head [4]byte
	for range n {
		if !protobuf {
			if _, err := br.ReadSlice('\n'); err != nil && err != bufio.ErrBufferFull {
				return
			}
			continue
		}
		if _, err := io.ReadFull(br, head[:]); err != nil {
			return
		}
		if _, err := br.Discard(int(binary.BigEndian.Uint32(head[:]))); err != nil {
			return
		}
	}
}
