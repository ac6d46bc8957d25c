package apiserver

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// storedPod reads a pod's stored tree through the Go API.
func storedPod(t *testing.T, s *Server, name string) *api.Unstructured {
	t.Helper()
	res := s.ep.table.Get("", "pods")
	rec, err := s.ep.reg.Get(context.Background(), res, "default", name, 0)
	require.NoError(t, err)
	return rec.Obj
}

// TestCh01_PodBinding checks pods/binding and the legacy bindings resource as BindingREST
// answers: the pod gets its node, the PodScheduled condition, the binding's labels and
// annotations, and no new generation; the errors are the real ones.
func TestCh01_PodBinding(t *testing.T) {
	s, c := newServer(t, Options{})
	for _, n := range []string{"a", "b", "c", "d"} {
		mustCreate(t, s, "pods", "default", pod("default", n, map[string]string{"app": "web"}))
	}
	before := storedPod(t, s, "a")

	r := c.do("POST", "/api/v1/namespaces/default/pods/a/binding",
		`{"apiVersion":"v1","kind":"Binding","metadata":{"name":"a","labels":{"topology.kubernetes.io/zone":"z1"},"annotations":{"k":"v"}},"target":{"kind":"Node","name":"n1"}}`)
	require.Equal(t, 201, r.code, "%s", r.body)
	assert.JSONEq(t, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","code":201}`, string(r.body))
	after := storedPod(t, s, "a")
	node, _, _ := api.NestedString(after.Object, "spec", "nodeName")
	assert.Equal(t, "n1", node)
	assert.Equal(t, map[string]string{"app": "web", "topology.kubernetes.io/zone": "z1"}, after.GetLabels())
	assert.Equal(t, map[string]string{"k": "v"}, after.GetAnnotations())
	assert.Equal(t, before.GetGeneration(), after.GetGeneration(), "the binding writes past the pod strategy")
	conds, _ := nestedValue(after.Object, "status", "conditions").([]any)
	require.Len(t, conds, 1)
	cond := conds[0].(map[string]any)
	assert.Equal(t, "PodScheduled", cond["type"])
	assert.Equal(t, "True", cond["status"])
	assert.Contains(t, cond, "lastProbeTime")
	assert.NotEmpty(t, cond["lastTransitionTime"])

	tests := []struct {
		name, path, body string
		code             int
		message          string
	}{
		{"bound already", "/api/v1/namespaces/default/pods/a/binding", `{"metadata":{"name":"a"},"target":{"name":"n2"}}`,
			409, `Operation cannot be fulfilled on pods/binding "a": pod a is already assigned to node "n1"`},
		{"name mismatch", "/api/v1/namespaces/default/pods/b/binding", `{"metadata":{"name":"a"},"target":{"name":"n2"}}`,
			400, "name in URL does not match name in Binding object"},
		{"invalid target", "/api/v1/namespaces/default/pods/b/binding", `{"metadata":{"name":"b"},"target":{"kind":"Pod"}}`,
			500, `[target.kind: Unsupported value: "Pod": supported values: "Node", "<empty>", target.name: Required value]`},
		{"no pod", "/api/v1/namespaces/default/pods/zz/binding", `{"metadata":{"name":"zz"},"target":{"name":"n2"}}`,
			404, `pods "zz" not found`},
		{"uid precondition", "/api/v1/namespaces/default/pods/b/binding", `{"metadata":{"name":"b","uid":"other"},"target":{"name":"n2"}}`,
			409, `Operation cannot be fulfilled on pods "b": StorageError: invalid object, Code: 4, Key: /registry/pods/default/b, ResourceVersion: 0, ` +
				`AdditionalErrorMsg: Precondition failed: UID in precondition: other, UID in object meta: ` + storedPod(t, s, "b").GetUID()},
		{"legacy: no name", "/api/v1/namespaces/default/bindings", `{"metadata":{},"target":{"name":"n2"}}`, 400, "Name parameter required."},
		{"legacy: other namespace", "/api/v1/namespaces/default/bindings", `{"metadata":{"name":"b","namespace":"x"},"target":{"name":"n2"}}`,
			400, "the namespace of the provided object does not match the namespace sent on the request"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := c.do("POST", tt.path, tt.body)
			require.Equal(t, tt.code, r.code, "%s", r.body)
			assert.Equal(t, tt.message, r.status(t).Message)
		})
	}

	r = c.do("POST", "/api/v1/namespaces/default/pods/b/binding?dryRun=All", `{"metadata":{"name":"b"},"target":{"name":"n2"}}`)
	require.Equal(t, 201, r.code, "%s", r.body)
	_, found, _ := api.NestedString(storedPod(t, s, "b").Object, "spec", "nodeName")
	assert.False(t, found, "a dry run binds nothing")

	r = c.do("POST", "/api/v1/namespaces/default/bindings", `{"apiVersion":"v1","kind":"Binding","metadata":{"name":"c"},"target":{"name":"n3"}}`)
	require.Equal(t, 201, r.code, "%s", r.body)
	node, _, _ = api.NestedString(storedPod(t, s, "c").Object, "spec", "nodeName")
	assert.Equal(t, "n3", node)
	assert.Equal(t, 404, c.get("/api/v1/namespaces/default/bindings/c").code, "no item path: the storage only creates")
	assert.Equal(t, 405, c.get("/api/v1/namespaces/default/bindings").code)
	assert.Equal(t, 405, c.get("/api/v1/namespaces/default/pods/d/binding").code)
}
