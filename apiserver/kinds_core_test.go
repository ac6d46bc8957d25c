package apiserver

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCh01_KindsCoreOnTheWire checks facts of the further core, apps, policy and scheduling
// kinds through the handler: a LimitRange PUT that creates, a PodDisruptionBudget PUT that
// needs a resourceVersion, a ResourceQuota's warning, a PersistentVolume's phase time, a
// ReplicationController's scale and field label, and the system PriorityClasses' guard.
func TestCh01_KindsCoreOnTheWire(t *testing.T) {
	_, c := newServer(t, Options{})

	r := c.do("PUT", "/api/v1/namespaces/default/limitranges/lr", `{"metadata":{"name":"lr","resourceVersion":"7"},"spec":{"limits":[{"type":"Container","max":{"cpu":"1"}}]}}`)
	require.Equal(t, 201, r.code, "a PUT of a missing LimitRange creates it: %s", r.body)
	var lr struct {
		Spec struct {
			Limits []map[string]any `json:"limits"`
		} `json:"spec"`
	}
	r.decode(t, &lr)
	assert.Equal(t, map[string]any{"cpu": "1"}, lr.Spec.Limits[0]["defaultRequest"], "max is the default limit, and so the default request")
	r = c.do("POST", "/api/v1/namespaces/default/limitranges", `{"spec":{"limits":[{"type":"Pod","max":{"cpu":"1"}}]}}`)
	require.Equal(t, 201, r.code, "a nameless LimitRange is named: %s", r.body)
	assert.Equal(t, 404, c.do("PUT", "/api/v1/namespaces/default/resourcequotas/q", `{"metadata":{"name":"q"}}`).code, "no other kind creates on PUT")

	r = c.do("POST", "/api/v1/namespaces/default/resourcequotas", `{"metadata":{"name":"q"},"spec":{"hard":{"requests.cpu":"2","limits.cpu":"1"}}}`)
	require.Equal(t, 201, r.code, "%s", r.body)
	assert.Equal(t, `299 - "ResourceQuota requests.cpu (2) should be less than limits.cpu (1)"`, r.header.Get("Warning"))

	r = c.do("POST", "/apis/policy/v1/namespaces/default/poddisruptionbudgets", `{"metadata":{"name":"p"},"spec":{"minAvailable":1}}`)
	require.Equal(t, 201, r.code, "%s", r.body)
	r = c.do("PUT", "/apis/policy/v1/namespaces/default/poddisruptionbudgets/p", `{"metadata":{"name":"p"},"spec":{"minAvailable":2}}`)
	require.Equal(t, 422, r.code, "%s", r.body)
	assert.Equal(t, `poddisruptionbudgets.policy "p" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update`, r.status(t).Message)
	r = c.do("POST", "/apis/policy/v1/namespaces/default/poddisruptionbudgets", `{"metadata":{"name":"Bad_Name"},"spec":{"minAvailable":1}}`)
	assert.Equal(t, 201, r.code, "a budget's name is only a path segment: %s", r.body)

	r = c.do("POST", "/api/v1/persistentvolumes", `{"metadata":{"name":"pv"},"spec":{"capacity":{"storage":"1Gi"},"accessModes":["ReadWriteOnce"],
		"hostPath":{"path":"/d"}},"status":{"phase":"Bound"}}`)
	require.Equal(t, 201, r.code, "%s", r.body)
	var pv struct {
		Status map[string]any `json:"status"`
	}
	r.decode(t, &pv)
	assert.Equal(t, "Pending", pv.Status["phase"])
	created := pv.Status["lastPhaseTransitionTime"]
	assert.NotEmpty(t, created)
	r = c.do("PATCH", "/api/v1/persistentvolumes/pv/status", `{"status":{"message":"same phase"}}`, "Content-Type", "application/merge-patch+json")
	require.Equal(t, 200, r.code, "%s", r.body)
	r.decode(t, &pv)
	assert.Equal(t, created, pv.Status["lastPhaseTransitionTime"])

	r = c.do("POST", "/api/v1/namespaces/default/replicationcontrollers", `{"metadata":{"name":"rc"},"spec":{"replicas":3,
		"template":{"metadata":{"labels":{"app":"a","tier":"b"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}`)
	require.Equal(t, 201, r.code, "%s", r.body)
	var scale struct {
		Spec   map[string]any `json:"spec"`
		Status map[string]any `json:"status"`
	}
	c.get("/api/v1/namespaces/default/replicationcontrollers/rc/scale").decode(t, &scale)
	assert.Equal(t, map[string]any{"replicas": float64(3)}, scale.Spec)
	assert.Equal(t, map[string]any{"replicas": float64(0), "selector": "app=a,tier=b"}, scale.Status, "the selector defaulted from the template")
	for sel, n := range map[string]int{"status.replicas%3D0": 1, "status.replicas%3D3": 0} {
		var list struct {
			Items []any `json:"items"`
		}
		r = c.get("/api/v1/namespaces/default/replicationcontrollers?fieldSelector=" + sel)
		require.Equal(t, 200, r.code, "%s", r.body)
		r.decode(t, &list)
		assert.Len(t, list.Items, n, sel)
	}

	for _, name := range []string{"system-node-critical", "system-cluster-critical"} {
		r = c.do("POST", "/apis/scheduling.k8s.io/v1/priorityclasses", systemClassJSON(name))
		require.Contains(t, []int{201, 409}, r.code, "created here, or already by the server at start-up: %s", r.body)
		r = c.do("DELETE", "/apis/scheduling.k8s.io/v1/priorityclasses/"+name, nil)
		require.Equal(t, 403, r.code, "%s", r.body)
		assert.Equal(t, `priorityclasses.scheduling.k8s.io "`+name+`" is forbidden: this is a system priority class and cannot be deleted`, r.status(t).Message)
	}
	r = c.do("POST", "/apis/scheduling.k8s.io/v1/priorityclasses", `{"metadata":{"name":"default"},"value":100,"globalDefault":true}`)
	require.Equal(t, 201, r.code, "%s", r.body)
	r = c.do("POST", "/apis/scheduling.k8s.io/v1/priorityclasses", `{"metadata":{"name":"second"},"value":10,"globalDefault":true}`)
	require.Equal(t, 403, r.code, "%s", r.body)
	assert.Equal(t, `priorityclasses.scheduling.k8s.io "second" is forbidden: PriorityClass default is already marked as default. Only one default can exist`,
		r.status(t).Message)
	r = c.do("DELETE", "/apis/scheduling.k8s.io/v1/priorityclasses", nil)
	require.Equal(t, 200, r.code, "a collection delete goes past the REST's guard, as upstream: %s", r.body)
	var left struct {
		Items []any `json:"items"`
	}
	c.get("/apis/scheduling.k8s.io/v1/priorityclasses").decode(t, &left)
	assert.Empty(t, left.Items)
}

func systemClassJSON(name string) string {
	value := "2000000000"
	if name == "system-node-critical" {
		value = "2000001000"
	}
	return `{"metadata":{"name":"` + name + `"},"value":` + value + `}`
}
