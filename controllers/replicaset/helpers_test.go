package replicaset_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
)

// rsObject is a ReplicaSet of n replicas selecting app=name.
func rsObject(name string, n int64) map[string]any {
	return map[string]any{
		"apiVersion": "apps/v1", "kind": "ReplicaSet",
		"metadata": map[string]any{"name": name},
		"spec": map[string]any{
			"replicas": n,
			"selector": map[string]any{"matchLabels": map[string]any{"app": name}},
			"template": map[string]any{
				"metadata": map[string]any{"labels": map[string]any{"app": name}},
				"spec":     map[string]any{"containers": []any{map[string]any{"name": "c", "image": "nginx"}}},
			},
		},
	}
}

// podsOf lists the active pods of namespace default whose controller is the object uid.
func podsOf(t testing.TB, c *cluster.Cluster, uid string) []api.Unstructured {
	t.Helper()
	var out []api.Unstructured
	for _, p := range c.List(t, app.Pods, "default") {
		if ref := app.GetControllerOf(&p); ref != nil && ref.UID == uid && p.GetDeletionTimestamp() == nil {
			out = append(out, p)
		}
	}
	return out
}

// makeReady plays the kubelet for pod: scheduled, Running and Ready (the kubelet is not
// part of these tests).
func makeReady(t testing.TB, c *cluster.Cluster, pod *api.Unstructured) {
	t.Helper()
	now := time.Now().UTC().Format(time.RFC3339)
	p := pod.DeepCopy()
	p.Object["status"] = map[string]any{
		"phase": "Running",
		"conditions": []any{
			map[string]any{"type": "Ready", "status": "True", "lastTransitionTime": now},
		},
	}
	_, err := c.Client.Resource(app.Pods).Namespace(p.GetNamespace()).UpdateStatus(context.Background(), p, api.UpdateOptions{})
	if api.IsConflict(err) || api.IsNotFound(err) {
		return // a newer version or a deleted pod: the next round sees it
	}
	require.NoError(t, err)
}

// readyAll makes every active pod of owner uid ready.
func readyAll(t testing.TB, c *cluster.Cluster, uid string) {
	t.Helper()
	for _, p := range podsOf(t, c, uid) {
		if !app.IsPodReady(&p) {
			makeReady(t, c, &p)
		}
	}
}

func nested(u *api.Unstructured, path ...string) int64 {
	n, _ := app.NestedInt64(u.Object, path...)
	return n
}

// scaleTo sets spec.replicas of ReplicaSet name, reading it again after a conflict with a
// write of the controller (retry.RetryOnConflict's loop, without its backoff: in the bubble
// the controller's write has ended once every goroutine is blocked).
func scaleTo(t testing.TB, c *cluster.Cluster, name string, replicas int64) {
	t.Helper()
	for range 10 {
		c.Settle()
		cur := c.Get(t, app.ReplicaSets, "default", name)
		app.NestedMap(cur.Object, "spec")["replicas"] = replicas
		_, err := c.Client.Resource(app.ReplicaSets).Namespace("default").Update(context.Background(), cur, api.UpdateOptions{})
		if !api.IsConflict(err) {
			require.NoError(t, err)
			return
		}
	}
	require.Fail(t, "ten conflicts in a row", "scale %s to %d", name, replicas)
}
