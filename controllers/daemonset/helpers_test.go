package daemonset_test

import (
	"context"
	"sort"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
)

// createNode creates a Ready Node named n with labels and exactly the taints given. The
// server's admission gives a new node the not-ready NoSchedule taint, as upstream's
// TaintNodesByCondition does; the node lifecycle controller lifts it once the node is Ready,
// which this helper does in its place (no daemon pod tolerates not-ready NoSchedule).
func createNode(t testing.TB, c *cluster.Cluster, n string, lbls map[string]any, taints ...map[string]any) {
	t.Helper()
	ts := []any{}
	for _, x := range taints {
		ts = append(ts, x)
	}
	u := c.Create(t, app.Nodes, "", map[string]any{"apiVersion": "v1", "kind": "Node", "metadata": map[string]any{"name": n, "labels": lbls}})
	u.Object["spec"] = map[string]any{"taints": ts}
	u, err := c.Client.Resource(app.Nodes).Update(context.Background(), u, api.UpdateOptions{})
	require.NoError(t, err)
	u.Object["status"] = map[string]any{"conditions": []any{map[string]any{"type": "Ready", "status": "True"}}}
	_, err = c.Client.Resource(app.Nodes).UpdateStatus(context.Background(), u, api.UpdateOptions{})
	require.NoError(t, err)
}

// agentDS is a DaemonSet "agent" selecting app=agent, with extra spec fields and extra pod
// spec fields.
func agentDS(extra, podSpec map[string]any) map[string]any {
	ps := map[string]any{"containers": []any{map[string]any{"name": "agent", "image": "agent:1"}}}
	for k, v := range podSpec {
		ps[k] = v
	}
	spec := map[string]any{
		"selector": map[string]any{"matchLabels": map[string]any{"app": "agent"}},
		"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "agent"}}, "spec": ps},
	}
	for k, v := range extra {
		spec[k] = v
	}
	return map[string]any{"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": map[string]any{"name": "agent"}, "spec": spec}
}

// markRunningReady plays the kubelet for one pod: Running and Ready through the status
// subresource; false when the pod is gone, terminating or already ready.
func markRunningReady(t testing.TB, c *cluster.Cluster, ns, name string) bool {
	t.Helper()
	rc := c.Client.Resource(app.Pods).Namespace(ns)
	p, err := rc.Get(context.Background(), name, api.GetOptions{})
	if api.IsNotFound(err) {
		return false
	}
	require.NoError(t, err)
	if p.GetDeletionTimestamp() != nil || app.IsPodReady(p) {
		return false
	}
	now := time.Now().UTC().Format(time.RFC3339)
	p.Object["status"] = map[string]any{
		"phase": "Running",
		"conditions": []any{
			map[string]any{"type": "Ready", "status": "True", "lastTransitionTime": now},
		},
	}
	_, err = rc.UpdateStatus(context.Background(), p, api.UpdateOptions{})
	if api.IsConflict(err) || api.IsNotFound(err) {
		return false
	}
	require.NoError(t, err)
	return true
}

// readyAll marks every pod of default that is not ready Running and Ready.
func readyAll(t testing.TB, c *cluster.Cluster) {
	t.Helper()
	for _, p := range c.List(t, app.Pods, "default") {
		if !app.IsPodReady(&p) && p.GetDeletionTimestamp() == nil {
			markRunningReady(t, c, "default", p.GetName())
		}
	}
}

// podsByNode maps each node name to the pods pinned to it (by required node affinity).
func podsByNode(t testing.TB, c *cluster.Cluster) map[string][]*api.Unstructured {
	t.Helper()
	out := map[string][]*api.Unstructured{}
	for _, p := range c.List(t, app.Pods, "default") {
		n := pinnedNode(&p)
		out[n] = append(out[n], &p)
	}
	return out
}

// pinnedNode reads the metadata.name In [node] term the controller writes.
func pinnedNode(p *api.Unstructured) string {
	v, _ := app.Nested(p.Object, "spec", "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms")
	terms, _ := v.([]any)
	if len(terms) != 1 {
		return ""
	}
	fields, _ := terms[0].(map[string]any)["matchFields"].([]any)
	if len(fields) != 1 {
		return ""
	}
	f := fields[0].(map[string]any)
	vals, _ := f["values"].([]any)
	if f["key"] != "metadata.name" || f["operator"] != "In" || len(vals) != 1 {
		return ""
	}
	s, _ := vals[0].(string)
	return s
}

// nodesWithPods returns the sorted node names that have pods.
func nodesWithPods(t testing.TB, c *cluster.Cluster) []string {
	t.Helper()
	var out []string
	for n := range podsByNode(t, c) {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// dsStatus reads an int status field of the DaemonSet "agent".
func dsStatus(t testing.TB, c *cluster.Cluster, field string) int64 {
	t.Helper()
	s := c.Get(t, app.DaemonSets, "default", "agent")
	if s == nil {
		return -1
	}
	n, _ := app.NestedInt64(s.Object, "status", field)
	return n
}

// patchDS applies a merge patch to the DaemonSet "agent".
func patchDS(t testing.TB, c *cluster.Cluster, patch string) {
	t.Helper()
	_, err := c.Client.Resource(app.DaemonSets).Namespace("default").Patch(context.Background(), "agent", api.MergePatchType, []byte(patch), api.PatchOptions{})
	require.NoError(t, err)
}

var coreEvents = api.GroupVersionResource{Version: "v1", Resource: "events"}

// eventMessages returns "reason: message" of every core/v1 Event in default.
func eventMessages(t testing.TB, c *cluster.Cluster) []string {
	t.Helper()
	var out []string
	for _, e := range c.List(t, coreEvents, "default") {
		out = append(out, app.NestedString(e.Object, "reason")+": "+app.NestedString(e.Object, "message"))
	}
	return out
}
