package wiretest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRequest_Verb(t *testing.T) {
	tests := []struct {
		method, target       string
		verb, resource, name string
		isWatch              bool
	}{
		{"GET", "/api/v1/pods", "list", "pods", "", false},
		{"GET", "/api/v1/namespaces/default/pods?limit=500", "list", "pods", "", false},
		{"GET", "/api/v1/namespaces/default/pods/web", "get", "pods", "web", false},
		{"GET", "/api/v1/pods?watch=true&sendInitialEvents=true", "watch", "pods", "", true},
		{"GET", "/api/v1/pods?watch=1", "watch", "pods", "", true},
		{"GET", "/api/v1/pods?watch=false", "list", "pods", "", false},
		{"GET", "/api/v1/watch/namespaces/default/pods", "watch", "pods", "", true},
		{"GET", "/api/v1/namespaces", "list", "namespaces", "", false},
		{"GET", "/api/v1/namespaces/kube-system", "get", "namespaces", "kube-system", false},
		{"POST", "/api/v1/namespaces/default/configmaps", "create", "configmaps", "", false},
		{"PUT", "/api/v1/namespaces/default/pods/web/status", "update", "pods", "web", false},
		{"PATCH", "/api/v1/namespaces/default/pods/web", "patch", "pods", "web", false},
		{"DELETE", "/api/v1/namespaces/default/pods/web", "delete", "pods", "web", false},
		{"DELETE", "/api/v1/namespaces/default/pods", "deletecollection", "pods", "", false},
		{"GET", "/apis/apps/v1/namespaces/default/deployments/d", "get", "deployments.apps", "d", false},
		{"GET", "/apis/apps/v1", "", "", "", false},
		{"GET", "/api/v1/", "", "", "", false},
		{"GET", "/version", "", "", "", false},
		{"OPTIONS", "/api/v1/pods", "", "pods", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.method+" "+tc.target, func(t *testing.T) {
			u, err := url.Parse(tc.target)
			require.NoError(t, err)
			r := Request{Method: tc.method, Path: u.Path, Query: u.Query()}
			assert.Equal(t, tc.verb, r.Verb())
			assert.Equal(t, tc.resource, r.Resource())
			assert.Equal(t, tc.name, r.Name())
			assert.Equal(t, tc.isWatch, r.IsWatch())
		})
	}
}

func TestRequest_Events(t *testing.T) {
	r := Request{Response: []byte(
		`{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","namespace":"default","resourceVersion":"5","labels":{"app":"x"}}}}` + "\n" +
			`{"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"7","annotations":{"k8s.io/initial-events-end":"true"}}}}` + "\n" +
			`{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Expired","code":410}}` + "\n" +
			`{"type":"MODIFIED","object":{"kind":"Pod","apiVe`)}
	assert.Equal(t, []WireEvent{
		{Type: "ADDED", Kind: "Pod", APIVersion: "v1", Name: "a", Namespace: "default", ResourceVersion: "5", Labels: map[string]string{"app": "x"}},
		{Type: "BOOKMARK", Kind: "Pod", APIVersion: "v1", ResourceVersion: "7", Annotations: map[string]string{"k8s.io/initial-events-end": "true"}},
		{Type: "ERROR", Kind: "Status", APIVersion: "v1", Reason: "Expired", Code: 410},
	}, r.Events(), "the cut last frame is left out")
}

func TestRequest_StatusReason(t *testing.T) {
	assert.Equal(t, "Expired", Request{Response: []byte(`{"kind":"Status","reason":"Expired","code":410}`)}.StatusReason())
	assert.Empty(t, Request{Response: []byte(`{"kind":"PodList","items":[]}`)}.StatusReason())
	assert.Empty(t, Request{Response: []byte(`not json`)}.StatusReason())
}

// TestRecorder_Wrap checks what the middleware keeps, that it caps the body, and that it
// passes Flush on (a watch without it would not stream, W20).
func TestRecorder_Wrap(t *testing.T) {
	tests := []struct {
		name      string
		limit     int
		wantBody  string
		wantFlush bool
	}{
		{"default limit", 0, "hello, world", true},
		{"small limit", 5, "hello", true},
		{"no body", -1, "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := &Recorder{BodyLimit: tc.limit}
			var flushed bool
			h := rec.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusTeapot)
				_, _ = io.WriteString(w, "hello, ")
				if f, ok := w.(http.Flusher); ok {
					f.Flush()
					flushed = true
				}
				_, _ = io.WriteString(w, "world")
			}))
			req := httptest.NewRequest(http.MethodPost, "/api/v1/namespaces/default/pods?dryRun=All", strings.NewReader("{}"))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, */*")
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)

			assert.Equal(t, "hello, world", w.Body.String(), "the client gets the whole answer")
			assert.Equal(t, tc.wantFlush, flushed)
			assert.True(t, w.Flushed)
			reqs := rec.Requests()
			require.Len(t, reqs, 1)
			got := reqs[0]
			assert.Equal(t, 0, got.Seq)
			assert.Equal(t, "create", got.Verb())
			assert.Equal(t, "All", got.Query.Get("dryRun"))
			assert.Equal(t, "application/json", got.ContentType)
			assert.Equal(t, "application/json, */*", got.Accept)
			assert.Equal(t, http.StatusTeapot, got.Status)
			assert.Equal(t, tc.wantBody, string(got.Response))
			assert.True(t, got.Done)

			rec.Reset()
			assert.Empty(t, rec.Requests())
		})
	}
}

func TestRecorder_RequestsAreCopies(t *testing.T) {
	rec := &Recorder{}
	h := rec.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "ok") }))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/api/v1/pods?limit=1", nil))
	first := rec.Requests()
	first[0].Query.Set("limit", "2")
	first[0].Response[0] = 'X'
	again := rec.Requests()
	assert.Equal(t, "1", again[0].Query.Get("limit"))
	assert.Equal(t, "ok", string(again[0].Response))
	assert.Equal(t, http.StatusOK, again[0].Status, "a body without WriteHeader is a 200")
	assert.Len(t, rec.ResourceRequests("pods"), 1)
	assert.Empty(t, rec.ResourceRequests("configmaps"))
}
