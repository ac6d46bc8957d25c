package apiserver

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func podManifest(name, node string) map[string]any {
	spec := map[string]any{"containers": []any{map[string]any{"name": "c", "image": "nginx"}}}
	if node != "" {
		spec["nodeName"] = node
	}
	return map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": map[string]any{"name": name}, "spec": spec}
}

// TestCh01_PodGracefulDelete: as the real pod strategy's CheckGracefulDelete and
// BeforeDelete: an unscheduled pod goes at once; a bound pod is marked with
// deletionTimestamp = now + terminationGracePeriodSeconds and stays until a delete with
// gracePeriodSeconds=0 (its kubelet's); a second delete may only shorten the period; a status
// update of the terminating pod does not delete it; a terminated pod goes at once.
func TestCh01_PodGracefulDelete(t *testing.T) {
	_, c := newServer(t, Options{})
	const pods = "/api/v1/namespaces/default/pods/"
	create := func(name, node string) {
		r := c.do(http.MethodPost, "/api/v1/namespaces/default/pods", podManifest(name, node))
		require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	}
	var pod struct {
		Metadata struct {
			DeletionTimestamp          string `json:"deletionTimestamp"`
			DeletionGracePeriodSeconds *int64 `json:"deletionGracePeriodSeconds"`
			Generation                 int64  `json:"generation"`
		} `json:"metadata"`
	}

	create("unscheduled", "")
	r := c.do(http.MethodDelete, pods+"unscheduled?dryRun=All", nil)
	require.Equal(t, http.StatusOK, r.code)
	r.decode(t, &pod)
	assert.NotEmpty(t, pod.Metadata.DeletionTimestamp, "a dry run answers the object BeforeDelete marked")
	assert.Equal(t, int64(0), *pod.Metadata.DeletionGracePeriodSeconds)
	assert.Equal(t, int64(2), pod.Metadata.Generation)
	require.Equal(t, http.StatusOK, c.get(pods+"unscheduled").code)
	require.Equal(t, http.StatusOK, c.do(http.MethodDelete, pods+"unscheduled", nil).code)
	assert.Equal(t, http.StatusNotFound, c.get(pods+"unscheduled").code, "an unscheduled pod is deleted at once")

	create("bound", "node-a")
	r = c.do(http.MethodDelete, pods+"bound", nil)
	require.Equal(t, http.StatusOK, r.code)
	r.decode(t, &pod)
	require.NotEmpty(t, pod.Metadata.DeletionTimestamp)
	require.Equal(t, int64(30), *pod.Metadata.DeletionGracePeriodSeconds)
	assert.Equal(t, int64(2), pod.Metadata.Generation, "the first graceful mark bumps the generation")
	require.Equal(t, http.StatusOK, c.get(pods+"bound").code, "a bound pod waits for its kubelet")

	r = c.do(http.MethodDelete, pods+"bound?gracePeriodSeconds=60", nil)
	r.decode(t, &pod)
	assert.Equal(t, int64(30), *pod.Metadata.DeletionGracePeriodSeconds, "a longer period is ignored")
	r = c.do(http.MethodDelete, pods+"bound?gracePeriodSeconds=5", nil)
	r.decode(t, &pod)
	assert.Equal(t, int64(5), *pod.Metadata.DeletionGracePeriodSeconds, "a shorter one shortens")

	r = c.do(http.MethodPatch, pods+"bound/status", `{"status":{"phase":"Running"}}`, "Content-Type", "application/merge-patch+json")
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	require.Equal(t, http.StatusOK, c.get(pods+"bound").code, "a status update of a terminating pod keeps it")

	require.Equal(t, http.StatusOK, c.do(http.MethodDelete, pods+"bound?gracePeriodSeconds=0", nil).code)
	assert.Equal(t, http.StatusNotFound, c.get(pods+"bound").code, "the kubelet's delete removes it")

	create("done", "node-a")
	r = c.do(http.MethodPatch, pods+"done/status", `{"status":{"phase":"Succeeded"}}`, "Content-Type", "application/merge-patch+json")
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	require.Equal(t, http.StatusOK, c.do(http.MethodDelete, pods+"done", nil).code)
	assert.Equal(t, http.StatusNotFound, c.get(pods+"done").code, "a terminated pod is deleted at once")
}

// TestCh01_NodeFailureFaultAndSimulatedLogs: the node-failure fault annotates the node until
// the failure's end and "0s" ends it; on a node marked simulated the log subresource answers
// one line per container start from the pod's status.
func TestCh01_NodeFailureFaultAndSimulatedLogs(t *testing.T) {
	_, c := newServer(t, Options{DebugFaults: true})
	node := map[string]any{"apiVersion": "v1", "kind": "Node", "metadata": map[string]any{"name": "sim-node-0",
		"annotations": map[string]any{SimulatedNodeAnnotation: "true"}},
		"status": map[string]any{"addresses": []any{map[string]any{"type": "InternalIP", "address": "172.18.0.2"}}}}
	require.Equal(t, http.StatusCreated, c.do(http.MethodPost, "/api/v1/nodes", node).code)

	r := c.do(http.MethodPost, "/debug/faults", `{"action":"node-failure","node":"sim-node-0","duration":"1m"}`)
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	assert.Contains(t, string(c.get("/api/v1/nodes/sim-node-0").body), NodeFailureAnnotation)
	r = c.do(http.MethodPost, "/debug/faults", `{"action":"node-failure","node":"sim-node-0","duration":"0s"}`)
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	assert.NotContains(t, string(c.get("/api/v1/nodes/sim-node-0").body), NodeFailureAnnotation)
	r = c.do(http.MethodPost, "/debug/faults", `{"action":"node-failure","duration":"1m"}`)
	assert.Equal(t, http.StatusBadRequest, r.code)

	require.Equal(t, http.StatusCreated, c.do(http.MethodPost, "/api/v1/namespaces/default/pods", podManifest("web", "sim-node-0")).code)
	const logs = "/api/v1/namespaces/default/pods/web/log"
	r = c.get(logs)
	assert.Equal(t, http.StatusBadRequest, r.code)
	assert.Contains(t, string(r.body), `container \"c\" in pod \"web\" is waiting to start: ContainerCreating`)
	status := `{"status":{"phase":"Running","startTime":"2026-01-01T00:00:00Z","containerStatuses":[{"name":"c","image":"nginx","imageID":"x","ready":true,"restartCount":2,
		"state":{"running":{"startedAt":"2026-01-01T00:02:00Z"}},"lastState":{"terminated":{"exitCode":1,"startedAt":"2026-01-01T00:01:00Z","finishedAt":"2026-01-01T00:01:30Z"}}}]}}`
	r = c.do(http.MethodPatch, "/api/v1/namespaces/default/pods/web/status", status, "Content-Type", "application/merge-patch+json")
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	r = c.get(logs + "?timestamps=true")
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	assert.Equal(t, strings.Join([]string{
		"2026-01-01T00:00:00Z Started container c (image nginx) on node sim-node-0, restart 0",
		"2026-01-01T00:01:00Z Started container c (image nginx) on node sim-node-0, restart 1",
		"2026-01-01T00:02:00Z Started container c (image nginx) on node sim-node-0, restart 2", ""}, "\n"), string(r.body))
	r = c.get(logs + "?previous=true&tailLines=1")
	assert.Equal(t, "Started container c (image nginx) on node sim-node-0, restart 1\n", string(r.body))
}
