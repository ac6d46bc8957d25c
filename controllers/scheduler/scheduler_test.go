package scheduler_test

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
)

func pod(name string, spec map[string]any) map[string]any {
	if spec == nil {
		spec = map[string]any{}
	}
	spec["containers"] = []any{map[string]any{"name": "c", "image": "nginx"}}
	return map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": map[string]any{"name": name}, "spec": spec}
}

func condition(u *api.Unstructured, typ string) map[string]any {
	v, _ := app.Nested(u.Object, "status", "conditions")
	l, _ := v.([]any)
	for _, x := range l {
		if m, _ := x.(map[string]any); m["type"] == typ {
			return m
		}
	}
	return nil
}

func eventsFor(c *cluster.Cluster, t *testing.T, name, reason string) []api.Unstructured {
	var out []api.Unstructured
	for _, e := range c.List(t, app.Events, "default") {
		if app.NestedString(e.Object, "regarding", "name") == name && app.NestedString(e.Object, "reason") == reason {
			out = append(out, e)
		}
	}
	return out
}

// TestCh14_Scheduler_SpreadsAndReportsUnschedulable: pods spread over three simulated nodes
// by least requested and run (the node lifecycle controller lifts the not-ready:NoSchedule
// taint the server's NodeTaint admission puts on a new node); a pod no node fits gets PodScheduled=False with upstream's
// message and a FailedScheduling event, and is scheduled once a node changes to fit it.
func TestCh14_Scheduler_SpreadsAndReportsUnschedulable(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"kubelet", "scheduler", "nodelifecycle"}, Nodes: 3})
		c.Eventually(t, 10*time.Second, func() bool {
			nodes := c.List(t, app.Nodes, "")
			for _, n := range nodes {
				if taints, _ := app.Nested(n.Object, "spec", "taints"); taints != nil {
					return false
				}
			}
			return len(nodes) == 3
		})
		for i := range 6 {
			c.Create(t, app.Pods, "default", pod(fmt.Sprintf("web-%d", i), nil))
		}
		c.Eventually(t, 10*time.Second, func() bool {
			for _, p := range c.List(t, app.Pods, "default") {
				if !app.IsPodReady(&p) {
					return false
				}
			}
			return true
		})
		per := map[string]int{}
		for _, p := range c.List(t, app.Pods, "default") {
			per[app.NodeName(&p)]++
		}
		assert.Equal(t, map[string]int{"sim-node-0": 2, "sim-node-1": 2, "sim-node-2": 2}, per, "least requested spreads")
		scheduled := eventsFor(c, t, "web-0", "Scheduled")
		require.Len(t, scheduled, 1)
		assert.Equal(t, "default-scheduler", app.NestedString(scheduled[0].Object, "reportingController"))
		assert.Contains(t, app.NestedString(scheduled[0].Object, "note"), "Successfully assigned default/web-0 to sim-node-")

		big := pod("big", nil)
		big["spec"].(map[string]any)["containers"] = []any{map[string]any{"name": "c", "image": "nginx",
			"resources": map[string]any{"requests": map[string]any{"cpu": "64"}}}}
		c.Create(t, app.Pods, "default", big)
		c.Create(t, app.Pods, "default", pod("ssd", map[string]any{"nodeSelector": map[string]any{"disk": "ssd"}}))
		const bigMsg = "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod."
		const ssdMsg = "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."
		c.Eventually(t, 10*time.Second, func() bool {
			b, s := condition(c.Get(t, app.Pods, "default", "big"), "PodScheduled"), condition(c.Get(t, app.Pods, "default", "ssd"), "PodScheduled")
			return b != nil && s != nil && b["message"] == bigMsg && s["message"] == ssdMsg
		})
		cond := condition(c.Get(t, app.Pods, "default", "ssd"), "PodScheduled")
		assert.Equal(t, "False", cond["status"])
		assert.Equal(t, "Unschedulable", cond["reason"])
		failed := eventsFor(c, t, "ssd", "FailedScheduling")
		require.Len(t, failed, 1, "one event: its own status write does not retry the pod")
		assert.Equal(t, "Warning", app.NestedString(failed[0].Object, "type"))
		assert.Equal(t, ssdMsg, app.NestedString(failed[0].Object, "note"))

		_, err := c.Client.Resource(app.Nodes).Patch(context.Background(), "sim-node-2", api.MergePatchType,
			[]byte(`{"metadata":{"labels":{"disk":"ssd"}}}`), api.PatchOptions{})
		require.NoError(t, err)
		c.Eventually(t, 10*time.Second, func() bool { return app.IsPodReady(c.Get(t, app.Pods, "default", "ssd")) })
		assert.Equal(t, "sim-node-2", app.NodeName(c.Get(t, app.Pods, "default", "ssd")))
		assert.Empty(t, app.NodeName(c.Get(t, app.Pods, "default", "big")))
	})
}
