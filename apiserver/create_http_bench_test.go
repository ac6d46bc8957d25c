package apiserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/informer-lab/informer-lab/api"
	iprotobuf "github.com/informer-lab/informer-lab/internal/builtinproto"
)

// BenchmarkCreateConfigMapHTTP: the server's side of one client-go ConfigMap create, through
// Handler with no network in between: the body client-go sends (protobuf, its default for
// built-in kinds, or JSON), its headers and a bearer token, decoded, defaulted, validated,
// admitted, stored and answered. allocs/op is what the create path allocates.
func BenchmarkCreateConfigMapHTTP(b *testing.B) {
	const token = "bench-token"
	gvk := api.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}
	jsonBody := func(i int) string {
		return fmt.Sprintf(`{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"cm-%07d","creationTimestamp":null,"labels":{"app":"bench"}},"data":{"key":"value-%d"}}`, i, i)
	}
	for _, tc := range []struct {
		name, contentType, accept string
		body                      func(i int) string
	}{
		{"protobuf", "application/vnd.kubernetes.protobuf", "application/vnd.kubernetes.protobuf, */*", func(i int) string {
			var tree map[string]any
			if err := json.Unmarshal([]byte(jsonBody(i)), &tree); err != nil {
				b.Fatal(err)
			}
			msg, err := iprotobuf.Codec().Marshal(gvk, tree)
			if err != nil {
				b.Fatal(err)
			}
			return string(envelope(gvk, msg))
		}},
		{"json", "application/json", "application/json, */*", jsonBody},
	} {
		b.Run(tc.name, func(b *testing.B) {
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
			// The bodies are made before the clock starts: making them is the client's work.
			bodies := make([]string, b.N)
			for i := range bodies {
				bodies[i] = tc.body(i)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				req := httptest.NewRequest(http.MethodPost, "/api/v1/namespaces/bench/configmaps", strings.NewReader(bodies[i]))
				req.Header.Set("Content-Type", tc.contentType)
				req.Header.Set("Accept", tc.accept)
				req.Header.Set("User-Agent", "bench.test/v0.0.0 (linux/amd64) kubernetes/$Format")
				req.Header.Set("Authorization", "Bearer "+token)
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				if w.Code != http.StatusCreated {
					b.Fatalf("create: %d %s", w.Code, w.Body)
				}
			}
		})
	}
}
