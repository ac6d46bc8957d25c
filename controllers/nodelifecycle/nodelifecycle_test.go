package nodelifecycle_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/controllers/nodelifecycle"
	"github.com/informer-lab/informer-lab/harness/cluster"
)

func nodeReady(c *cluster.Cluster, t *testing.T, name string) string {
	n := c.Get(t, app.Nodes, "", name)
	if n == nil {
		return ""
	}
	v, _ := app.Nested(n.Object, "status", "conditions")
	for _, x := range v.([]any) {
		if m := x.(map[string]any); m["type"] == "Ready" {
			return m["status"].(string)
		}
	}
	return ""
}

func taintKeys(c *cluster.Cluster, t *testing.T, name string) []string {
	n := c.Get(t, app.Nodes, "", name)
	v, _ := app.Nested(n.Object, "spec", "taints")
	var out []string
	for _, x := range asList(v) {
		m := x.(map[string]any)
		out = append(out, m["key"].(string)+":"+m["effect"].(string))
	}
	return out
}

func asList(v any) []any { l, _ := v.([]any); return l }

// TestCh14_Nodes_FailureEvictsAfterToleration: the node-failure fault stops a node's
// heartbeats; 50 s later the node is Unknown, its pods not Ready, and it carries the
// unreachable taints; the pod (with the 300 s toleration DefaultTolerationSeconds adds) is
// evicted 300 s after the taint and stays Terminating while the node is down; when the node
// comes back it is Ready and untainted, and its kubelet finishes the delete.
func TestCh14_Nodes_FailureEvictsAfterToleration(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"kubelet", "scheduler", "nodelifecycle"}, Nodes: 1})
		c.Eventually(t, 5*time.Second, func() bool { return nodeReady(c, t, "sim-node-0") == "True" })
		c.Create(t, app.Pods, "default", map[string]any{"apiVersion": "v1", "kind": "Pod",
			"metadata": map[string]any{"name": "web"},
			"spec":     map[string]any{"containers": []any{map[string]any{"name": "c", "image": "nginx"}}}})
		c.Eventually(t, 10*time.Second, func() bool { return app.IsPodReady(c.Get(t, app.Pods, "default", "web")) })
		tols, _ := app.Nested(c.Get(t, app.Pods, "default", "web").Object, "spec", "tolerations")
		require.Len(t, tols, 2, "DefaultTolerationSeconds added not-ready and unreachable for 300 s")

		require.NoError(t, c.Server.FailNode(context.Background(), "sim-node-0", time.Hour))
		failed := time.Now()
		// Heartbeats stop; the node stays Ready for the grace period, then goes Unknown.
		c.Eventually(t, 2*time.Minute, func() bool { return nodeReady(c, t, "sim-node-0") == "Unknown" })
		down := time.Since(failed)
		assert.GreaterOrEqual(t, down, nodelifecycle.NodeMonitorGracePeriod)
		assert.Less(t, down, nodelifecycle.NodeMonitorGracePeriod+2*(10*time.Second+nodelifecycle.NodeMonitorPeriod))
		c.Eventually(t, 10*time.Second, func() bool {
			return assert.ObjectsAreEqual([]string{"node.kubernetes.io/unreachable:NoSchedule", "node.kubernetes.io/unreachable:NoExecute"}, taintKeys(c, t, "sim-node-0"))
		})
		tainted := time.Now()
		c.Eventually(t, 10*time.Second, func() bool { return app.PodConditionStatus(c.Get(t, app.Pods, "default", "web"), "Ready") == "False" })

		// Tolerated for 300 s, then evicted: Terminating, since no kubelet can finish it.
		c.Eventually(t, 6*time.Minute, func() bool { return c.Get(t, app.Pods, "default", "web").GetDeletionTimestamp() != nil })
		assert.InDelta(t, 300, time.Since(tainted).Seconds(), 15)
		pod := c.Get(t, app.Pods, "default", "web")
		assert.Equal(t, "True", app.PodConditionStatus(pod, "DisruptionTarget"))

		// The node comes back: Ready, untainted, and its kubelet deletes the pod.
		require.NoError(t, c.Server.FailNode(context.Background(), "sim-node-0", 0))
		c.Eventually(t, time.Minute, func() bool { return nodeReady(c, t, "sim-node-0") == "True" && len(taintKeys(c, t, "sim-node-0")) == 0 })
		c.Eventually(t, time.Minute, func() bool { return c.Get(t, app.Pods, "default", "web") == nil })
	})
}
