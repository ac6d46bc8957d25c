package apiserver

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCh01_BuiltinKindsOnTheWire checks some of the pinned facts through the handler: the
// field labels of replicasets and events.k8s.io events, the status a create stores, and
// which DELETEs answer with the object.
func TestCh01_BuiltinKindsOnTheWire(t *testing.T) {
	s := New(Options{})
	t.Cleanup(s.Close)
	do := func(method, path, body string) (int, map[string]any) {
		t.Helper()
		req := httptest.NewRequest(method, path, strings.NewReader(body))
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, req)
		var out map[string]any
		require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &out), "%s", rec.Body)
		return rec.Code, out
	}
	list := func(path, selector string) (int, map[string]any) {
		return do(http.MethodGet, path+"?fieldSelector="+url.QueryEscape(selector), "")
	}

	code, st := list("/apis/apps/v1/namespaces/default/replicasets", "status.replicas=0")
	assert.Equal(t, http.StatusBadRequest, code)
	assert.Equal(t, `"status.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"`, st["message"])

	code, _ = do(http.MethodPost, "/apis/events.k8s.io/v1/namespaces/default/events",
		`{"metadata":{"name":"e1"},"eventTime":"2026-01-01T00:00:00.000000Z","reportingController":"ctl","reportingInstance":"ctl-1",`+
			`"action":"Sync","reason":"Done","type":"Normal","regarding":{"kind":"Pod","name":"a"}}`)
	require.Equal(t, http.StatusCreated, code)
	for sel, n := range map[string]int{"regarding.name=a": 1, "regarding.name=b": 0, "reportingController=ctl": 1, "type=Warning": 0} {
		code, l := list("/apis/events.k8s.io/v1/namespaces/default/events", sel)
		require.Equal(t, http.StatusOK, code, sel)
		items, _ := l["items"].([]any)
		assert.Len(t, items, n, sel)
	}
	code, _ = list("/apis/events.k8s.io/v1/namespaces/default/events", "source=ctl")
	assert.Equal(t, http.StatusBadRequest, code, "source is a core/v1 label only")

	tmpl := `"selector":{"matchLabels":{"app":"a"}},"template":{"metadata":{"labels":{"app":"a"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}`
	for _, tt := range []struct{ path, body, status string }{
		{"/apis/apps/v1/namespaces/default/replicasets", `{"metadata":{"name":"rs"},"spec":{` + tmpl + `},"status":{"replicas":4}}`,
			`{"replicas":0}`},
		{"/apis/apps/v1/namespaces/default/statefulsets", `{"metadata":{"name":"sts"},"spec":{` + tmpl + `}}`,
			`{"availableReplicas":0,"replicas":0}`},
		{"/apis/apps/v1/namespaces/default/daemonsets", `{"metadata":{"name":"ds"},"spec":{` + tmpl + `}}`,
			`{"currentNumberScheduled":0,"desiredNumberScheduled":0,"numberMisscheduled":0,"numberReady":0}`},
		{"/api/v1/namespaces/default/persistentvolumeclaims",
			`{"metadata":{"name":"claim"},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}},"status":{"phase":"Bound"}}`,
			`{"phase":"Pending"}`},
	} {
		code, created := do(http.MethodPost, tt.path, tt.body)
		require.Equal(t, http.StatusCreated, code, "%v", created)
		j, err := json.Marshal(created["status"])
		require.NoError(t, err)
		assert.JSONEq(t, tt.status, string(j), tt.path)
	}

	for _, tt := range []struct{ path, body, kind string }{
		{"/api/v1/namespaces/default/serviceaccounts", `{"metadata":{"name":"robot"}}`, "ServiceAccount"},
		{"/api/v1/namespaces/default/persistentvolumeclaims",
			`{"metadata":{"name":"data"},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}}`, "PersistentVolumeClaim"},
		{"/api/v1/namespaces/default/configmaps", `{"metadata":{"name":"cfg"}}`, "Status"},
	} {
		code, created := do(http.MethodPost, tt.path, tt.body)
		require.Equal(t, http.StatusCreated, code, "%v", created)
		name := created["metadata"].(map[string]any)["name"].(string)
		code, deleted := do(http.MethodDelete, tt.path+"/"+name, "")
		require.Equal(t, http.StatusOK, code, "%v", deleted)
		assert.Equal(t, tt.kind, deleted["kind"], tt.path)
	}
}
