package statefulset_test

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

// webSet is a StatefulSet "web" of replicas pods labelled app=web, with extra spec fields.
func webSet(replicas int, extra map[string]any) map[string]any {
	spec := map[string]any{
		"replicas":    int64(replicas),
		"serviceName": "web",
		"selector":    map[string]any{"matchLabels": map[string]any{"app": "web"}},
		"template": map[string]any{
			"metadata": map[string]any{"labels": map[string]any{"app": "web"}},
			"spec":     map[string]any{"containers": []any{map[string]any{"name": "nginx", "image": "nginx:1"}}},
		},
	}
	for k, v := range extra {
		spec[k] = v
	}
	return map[string]any{"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": map[string]any{"name": "web"}, "spec": spec}
}

// claimTemplate is a volumeClaimTemplates entry named n.
func claimTemplate(n string) map[string]any {
	return map[string]any{
		"metadata": map[string]any{"name": n},
		"spec": map[string]any{
			"accessModes": []any{"ReadWriteOnce"},
			"resources":   map[string]any{"requests": map[string]any{"storage": "1Gi"}},
		},
	}
}

// markRunningReady plays the kubelet for one pod: phase Running and Ready, through the
// status subresource. It reports false when the pod is gone or being deleted.
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
		"podIP": "10.0.0.1",
		"conditions": []any{
			map[string]any{"type": "Ready", "status": "True", "lastTransitionTime": now},
			map[string]any{"type": "ContainersReady", "status": "True", "lastTransitionTime": now},
		},
	}
	_, err = rc.UpdateStatus(context.Background(), p, api.UpdateOptions{})
	if api.IsConflict(err) || api.IsNotFound(err) {
		return false
	}
	require.NoError(t, err)
	return true
}

// readyAll marks every pod of ns that is not ready yet Running and Ready.
func readyAll(t testing.TB, c *cluster.Cluster, ns string) {
	t.Helper()
	for _, p := range c.List(t, app.Pods, ns) {
		if !app.IsPodReady(&p) && p.GetDeletionTimestamp() == nil {
			markRunningReady(t, c, ns, p.GetName())
		}
	}
}

// podNames returns the names of the pods of ns, sorted.
func podNames(t testing.TB, c *cluster.Cluster, ns string) []string {
	t.Helper()
	var out []string
	for _, p := range c.List(t, app.Pods, ns) {
		out = append(out, p.GetName())
	}
	sort.Strings(out)
	return out
}

// names returns the names of a resource in ns, sorted.
func names(t testing.TB, c *cluster.Cluster, gvr api.GroupVersionResource, ns string) []string {
	t.Helper()
	var out []string
	for _, u := range c.List(t, gvr, ns) {
		out = append(out, u.GetName())
	}
	sort.Strings(out)
	return out
}

// setStatus reads an int status field of the set.
func setStatus(t testing.TB, c *cluster.Cluster, field string) int64 {
	t.Helper()
	s := c.Get(t, app.StatefulSets, "default", "web")
	if s == nil {
		return -1
	}
	n, _ := app.NestedInt64(s.Object, "status", field)
	return n
}

// patchSet applies a merge patch to the set "web".
func patchSet(t testing.TB, c *cluster.Cluster, patch string) {
	t.Helper()
	_, err := c.Client.Resource(app.StatefulSets).Namespace("default").Patch(context.Background(), "web", api.MergePatchType, []byte(patch), api.PatchOptions{})
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
