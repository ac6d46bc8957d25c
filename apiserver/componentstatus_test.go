package apiserver

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// TestCh01_ComponentStatuses checks the componentstatuses resource: get and list only, the
// deprecation warning on every answer, etcd-0 healthy, and a Table as kubectl get cs reads.
func TestCh01_ComponentStatuses(t *testing.T) {
	_, c := newServer(t, Options{})
	const warning = `299 - "v1 ComponentStatus is deprecated in v1.19+"`
	r := c.get("/api/v1/componentstatuses")
	require.Equal(t, 200, r.code, "%s", r.body)
	assert.Equal(t, warning, r.header.Get("Warning"))
	var list struct {
		Kind  string `json:"kind"`
		Items []struct {
			Metadata   struct{ Name string } `json:"metadata"`
			Conditions []struct {
				Type, Status, Message string
			} `json:"conditions"`
		} `json:"items"`
	}
	r.decode(t, &list)
	assert.Equal(t, "ComponentStatusList", list.Kind)
	var names []string
	for _, it := range list.Items {
		names = append(names, it.Metadata.Name)
		require.Len(t, it.Conditions, 1)
		assert.Equal(t, "Healthy", it.Conditions[0].Type)
	}
	assert.Equal(t, []string{"scheduler", "controller-manager", "etcd-0"}, names)
	assert.Equal(t, "True", list.Items[2].Conditions[0].Status)
	assert.Equal(t, "ok", list.Items[2].Conditions[0].Message)

	r = c.get("/api/v1/componentstatuses/etcd-0")
	require.Equal(t, 200, r.code)
	assert.JSONEq(t, `{"kind":"ComponentStatus","apiVersion":"v1","metadata":{"name":"etcd-0"},"conditions":[{"type":"Healthy","status":"True","message":"ok"}]}`, string(r.body))
	r = c.get("/api/v1/componentstatuses/nope")
	require.Equal(t, 404, r.code)
	assert.Equal(t, warning, r.header.Get("Warning"))
	assert.Equal(t, `componentstatus "nope" not found`, r.status(t).Message)
	assert.Equal(t, 405, c.do("PUT", "/api/v1/componentstatuses/etcd-0", `{}`).code)
	assert.Equal(t, 405, c.get("/api/v1/componentstatuses?watch=1").code)
	r = c.get("/api/v1/componentstatuses?labelSelector=tier%3Dcontrol-plane")
	require.Equal(t, 200, r.code)
	r.decode(t, &list)
	assert.Empty(t, list.Items, "components have no labels")

	r = c.do("GET", "/api/v1/componentstatuses/etcd-0", nil, "Accept", "application/json;as=Table;v=v1;g=meta.k8s.io")
	require.Equal(t, 200, r.code)
	var table api.Table
	r.decode(t, &table)
	require.Len(t, table.Rows, 1)
	assert.Equal(t, []any{"etcd-0", "Healthy", "ok", ""}, table.Rows[0].Cells)
}

// TestCh01_ComponentProbe checks probeComponent as the HTTP prober answers: a 2xx or 3xx is
// healthy with the body, another status unhealthy with the code, a refused connection
// unhealthy with the dial error.
func TestCh01_ComponentProbe(t *testing.T) {
	ok := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok")) }))
	defer ok.Close()
	bad := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusInternalServerError) }))
	defer bad.Close()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closed := "https://" + l.Addr().String() + "/healthz"
	require.NoError(t, l.Close())

	status, msg := probeComponent(context.Background(), ok.URL+"/healthz")
	assert.Equal(t, "True", status)
	assert.Equal(t, "ok", msg)
	status, msg = probeComponent(context.Background(), bad.URL+"/healthz")
	assert.Equal(t, "False", status)
	assert.Equal(t, "HTTP probe failed with statuscode: 500", msg)
	status, msg = probeComponent(context.Background(), closed)
	assert.Equal(t, "False", status)
	assert.True(t, strings.HasPrefix(msg, `Get "`+closed+`": dial tcp `), msg)
}
