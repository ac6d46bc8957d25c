package apiserver

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// BenchmarkCreateConfigMapHTTP: the server's side of one client-go ConfigMap create, through
// Handler with no network in between: the JSON body client-go sends, its headers and a
// bearer token, decoded, defaulted, validated, admitted, stored and answered. allocs/op is
// what the create path allocates beyond the stored object.
func BenchmarkCreateConfigMapHTTP(b *testing.B) {
	const token = "bench-token"
	s := New(Options{BearerToken: token})
	defer s.Close()
	h := s.Handler()
	ns := httptest.NewRequest(http.MethodPost, "/api/v1/namespaces", strings.NewReader(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"bench"}}`))
	ns.Header.Set("Content-Type", "application/json")
	ns.Header.Set("Authorization", "Bearer "+token)
	rr := httptest.NewRecorder()
	h.ServeHTTP(rr, ns)
	if rr.Code != http.StatusCreated {
		b.Fatalf("namespace: %d %s", rr.Code, rr.Body)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		body := fmt.Sprintf(`{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"cm-%07d","creationTimestamp":null,"labels":{"app":"bench"}},"data":{"key":"value-%d"}}`, i, i)
		i++
		req := httptest.NewRequest(http.MethodPost, "/api/v1/namespaces/bench/configmaps", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, */*")
		req.Header.Set("User-Agent", "bench.test/v0.0.0 (linux/amd64) kubernetes/$Format")
		req.Header.Set("Authorization", "Bearer "+token)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != http.StatusCreated {
			b.Fatalf("create: %d %s", w.Code, w.Body)
		}
	}
}
