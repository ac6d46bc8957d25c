package disruption_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
)

// The kubelet is not part of these tests: setPodStatus plays it, through the status
// subresource, and nodes are plain Node objects.

// setPodStatus gives the pod an IP (none when ip is "") and a Ready condition.
func setPodStatus(t *testing.T, c *cluster.Cluster, ns, name, ip string, ready bool) {
	t.Helper()
	ctx := context.Background()
	pods := c.Client.Resource(app.Pods).Namespace(ns)
	pod, err := pods.Get(ctx, name, api.GetOptions{})
	require.NoError(t, err)
	status := map[string]any{"phase": "Running"}
	if ip != "" {
		status["podIP"] = ip
		status["podIPs"] = []any{map[string]any{"ip": ip}}
	}
	r := "False"
	if ready {
		r = "True"
	}
	status["conditions"] = []any{map[string]any{"type": "Ready", "status": r,
		"lastTransitionTime": time.Now().UTC().Format(time.RFC3339)}}
	pod.Object["status"] = status
	_, err = pods.UpdateStatus(ctx, pod, api.UpdateOptions{})
	require.NoError(t, err)
}

type syncBuffer = cluster.TraceBuffer

// ownedPod creates a ready pod with a controller reference to owner.
func ownedPod(t *testing.T, c *cluster.Cluster, name, ip string, lbls map[string]any, owner *api.Unstructured) {
	t.Helper()
	obj := map[string]any{"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"name": name, "labels": lbls},
		"spec":     map[string]any{"containers": []any{map[string]any{"name": "c", "image": "nginx"}}}}
	if owner != nil {
		obj["metadata"].(map[string]any)["ownerReferences"] = []any{map[string]any{"apiVersion": owner.GetAPIVersion(),
			"kind": owner.GetKind(), "name": owner.GetName(), "uid": owner.GetUID(), "controller": true}}
	}
	c.Create(t, app.Pods, "default", obj)
	setPodStatus(t, c, "default", name, ip, true)
}

func budget(name string, spec map[string]any) map[string]any {
	spec["selector"] = map[string]any{"matchLabels": map[string]any{"app": "web"}}
	return map[string]any{"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": map[string]any{"name": name}, "spec": spec}
}

// statusOf summarises a budget's status.
func statusOf(t *testing.T, c *cluster.Cluster, name string) string {
	t.Helper()
	b := c.Get(t, app.PodDisruptionBudgets, "default", name)
	st, _ := b.Object["status"].(map[string]any)
	if st == nil {
		return "<none>"
	}
	reason := ""
	conds, _ := st["conditions"].([]any)
	for _, cd := range conds {
		if m := cd.(map[string]any); m["type"] == "DisruptionAllowed" {
			reason = m["status"].(string) + "/" + m["reason"].(string)
		}
	}
	dp, _ := st["disruptedPods"].(map[string]any)
	return fmt.Sprintf("healthy=%v desired=%v expected=%v allowed=%v gen=%v disrupted=%d %s",
		st["currentHealthy"], st["desiredHealthy"], st["expectedPods"], st["disruptionsAllowed"], st["observedGeneration"], len(dp), reason)
}

// evict posts an Eviction for the pod.
func evict(c *cluster.Cluster, name string) error {
	ev := &api.Unstructured{Object: map[string]any{"apiVersion": "policy/v1", "kind": "Eviction",
		"metadata": map[string]any{"name": name, "namespace": "default"}}}
	_, err := c.Client.Resource(app.Pods).Namespace("default").Create(context.Background(), ev, api.CreateOptions{}, "eviction")
	return err
}

// waitStatus waits in virtual time for the budget's status to read want, and shows what it
// reads when it does not.
func waitStatus(t *testing.T, c *cluster.Cluster, name, want string) {
	t.Helper()
	for range 30 {
		c.Settle()
		if statusOf(t, c, name) == want {
			return
		}
		time.Sleep(time.Second)
	}
	require.Equal(t, want, statusOf(t, c, name))
}
