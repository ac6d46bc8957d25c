package apiserver

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCh01_ApplyAtRequestVersion: the field manager runs at the version a write was sent at
// (conformance ssa/version-*): an HPA applied at autoscaling/v2 then at v1 records each
// entry's apiVersion, and the v1 applier conflicts with the v2 one in v2's terms (v1's
// targetCPUUtilizationPercentage is v2's metrics).
func TestCh01_ApplyAtRequestVersion(t *testing.T) {
	_, c := newServer(t, Options{})
	hpa := func(v string) string {
		return "/apis/autoscaling/" + v + "/namespaces/default/horizontalpodautoscalers/h"
	}
	const v2 = `{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"h"},"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"d"},"minReplicas":1,"maxReplicas":5,"metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":50}}}]}}`
	const v1 = `{"apiVersion":"autoscaling/v1","kind":"HorizontalPodAutoscaler","metadata":{"name":"h"},"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"d"},"maxReplicas":7,"targetCPUUtilizationPercentage":60}}`
	r := c.do(http.MethodPatch, hpa("v2")+"?fieldManager=alice", v2, "Content-Type", applyType)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)

	r = c.do(http.MethodPatch, hpa("v1")+"?fieldManager=bob", v1, "Content-Type", applyType)
	require.Equal(t, http.StatusConflict, r.code, "%s", r.body)
	assert.Equal(t, "Apply failed with 2 conflicts: conflicts with \"alice\":\n- .spec.maxReplicas\n- .spec.metrics", r.status(t).Message)

	r = c.do(http.MethodPatch, hpa("v1")+"?fieldManager=bob&force=true", v1, "Content-Type", applyType)
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	var got struct {
		Metadata struct {
			ManagedFields []struct {
				Manager, APIVersion string
				FieldsV1            json.RawMessage
			}
		}
	}
	require.NoError(t, json.Unmarshal(c.get(hpa("v2")).body, &got))
	type entry struct{ Manager, APIVersion, Fields string }
	var entries []entry
	for _, e := range got.Metadata.ManagedFields {
		entries = append(entries, entry{e.Manager, e.APIVersion, string(e.FieldsV1)})
	}
	assert.Equal(t, []entry{
		{"alice", "autoscaling/v2", `{"f:spec":{"f:minReplicas":{},"f:scaleTargetRef":{"f:apiVersion":{},"f:kind":{},"f:name":{}}}}`},
		{"bob", "autoscaling/v1", `{"f:spec":{"f:maxReplicas":{},"f:scaleTargetRef":{},"f:targetCPUUtilizationPercentage":{}}}`},
	}, entries)
}

// TestCh01_ApplyThroughScale: an apply through the scale subresource is merged by the
// Scale's field manager (conformance ssa/apply-scale-and-status): a conflict on the Scale's
// .spec.replicas, then forced, the applier's entry on the parent owns the replicas, under
// the scale subresource and without a time.
func TestCh01_ApplyThroughScale(t *testing.T) {
	_, c := newServer(t, Options{})
	dep := "/apis/apps/v1/namespaces/default/deployments/web"
	r := c.do(http.MethodPatch, dep+"?fieldManager=alice", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx"}]}}}}`, "Content-Type", applyType)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	const scale = `{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"web"},"spec":{"replicas":6}}`
	r = c.do(http.MethodPatch, dep+"/scale?fieldManager=autoscaler", scale, "Content-Type", applyType)
	require.Equal(t, http.StatusConflict, r.code, "%s", r.body)
	assert.Equal(t, "Apply failed with 1 conflict: conflict with \"alice\": .spec.replicas", r.status(t).Message)
	r = c.do(http.MethodPatch, dep+"/scale?fieldManager=autoscaler&force=true", scale, "Content-Type", applyType)
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	got := managedOf(t, c.get(dep).body)
	require.Len(t, got, 2)
	assert.Equal(t, entry{"autoscaler", "Apply", "scale", `{"f:spec":{"f:replicas":{}}}`, false}, got[0])
	assert.Equal(t, "alice", got[1].Manager)
	assert.NotContains(t, got[1].Fields, "f:replicas")
}
