package daemonset_test

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
)

// TestCh14_DaemonSet_OnePodPerNode: over three nodes the DaemonSet makes three pods, each
// pinned to its node by a required node affinity on metadata.name (not spec.nodeName: the
// scheduler binds them), with the automatic tolerations; the status counts them.
func TestCh14_DaemonSet_OnePodPerNode(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"daemonset"}})
		for _, n := range []string{"node-a", "node-b", "node-c"} {
			createNode(t, c, n, nil)
		}
		c.Create(t, app.DaemonSets, "default", agentDS(nil, nil))
		c.Eventually(t, 10*time.Second, func() bool { return dsStatus(t, c, "currentNumberScheduled") == 3 })
		require.Equal(t, []string{"node-a", "node-b", "node-c"}, nodesWithPods(t, c))
		for n, pods := range podsByNode(t, c) {
			require.Len(t, pods, 1, n)
			p := pods[0]
			require.Empty(t, app.NodeName(p))
			require.True(t, strings.HasPrefix(p.GetName(), "agent-"))
			require.NotEmpty(t, p.GetLabels()["controller-revision-hash"])
			require.Equal(t, "1", p.GetLabels()["pod-template-generation"])
			tols, _ := app.Nested(p.Object, "spec", "tolerations")
			for _, key := range []string{"not-ready", "unreachable", "disk-pressure", "memory-pressure", "pid-pressure", "unschedulable"} {
				require.Contains(t, tols, map[string]any{"key": "node.kubernetes.io/" + key, "operator": "Exists",
					"effect": map[bool]string{true: "NoExecute", false: "NoSchedule"}[key == "not-ready" || key == "unreachable"]})
			}
			require.NotContains(t, tols, map[string]any{"key": "node.kubernetes.io/network-unavailable", "operator": "Exists", "effect": "NoSchedule"})
		}
		require.EqualValues(t, 3, dsStatus(t, c, "desiredNumberScheduled"))
		require.EqualValues(t, 0, dsStatus(t, c, "numberReady"))
		readyAll(t, c)
		c.Eventually(t, 10*time.Second, func() bool { return dsStatus(t, c, "numberAvailable") == 3 })
		require.EqualValues(t, 3, dsStatus(t, c, "numberReady"))
		require.EqualValues(t, 3, dsStatus(t, c, "updatedNumberScheduled"))
		require.EqualValues(t, 0, dsStatus(t, c, "numberMisscheduled"))
		ds := c.Get(t, app.DaemonSets, "default", "agent")
		require.Equal(t, ds.GetGeneration(), mustInt(app.NestedInt64(ds.Object, "status", "observedGeneration")))
		require.Len(t, c.List(t, app.ControllerRevisions, "default"), 1)
		var created int
		for _, m := range eventMessages(t, c) {
			if strings.HasPrefix(m, "SuccessfulCreate: Created pod: agent-") {
				created++
			}
		}
		require.Positive(t, created)
	})
}

func mustInt(n int64, _ bool) int64 { return n }

// TestCh14_DaemonSet_NodesThatFit: taints, nodeSelector and required node affinity decide
// which nodes get a pod; hostNetwork adds the network-unavailable toleration.
func TestCh14_DaemonSet_NodesThatFit(t *testing.T) {
	gpu := map[string]any{"key": "gpu", "value": "true", "effect": "NoSchedule"}
	cases := []struct {
		name    string
		podSpec map[string]any
		want    []string
	}{
		{"taint keeps it off", nil, []string{"plain", "ssd"}},
		{"toleration lets it on", map[string]any{"tolerations": []any{map[string]any{"key": "gpu", "operator": "Equal", "value": "true", "effect": "NoSchedule"}}}, []string{"gpu", "plain", "ssd"}},
		{"nodeSelector", map[string]any{"nodeSelector": map[string]any{"disk": "ssd"}}, []string{"ssd"}},
		{"required affinity", map[string]any{"affinity": map[string]any{"nodeAffinity": map[string]any{"requiredDuringSchedulingIgnoredDuringExecution": map[string]any{
			"nodeSelectorTerms": []any{map[string]any{"matchExpressions": []any{map[string]any{"key": "disk", "operator": "DoesNotExist"}}}}}}}}, []string{"plain"}},
		{"hostNetwork tolerates network-unavailable", map[string]any{"hostNetwork": true}, []string{"netdown", "plain", "ssd"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				c := cluster.Start(t, cluster.Options{Controllers: []string{"daemonset"}})
				createNode(t, c, "plain", nil)
				createNode(t, c, "ssd", map[string]any{"disk": "ssd"})
				createNode(t, c, "gpu", nil, gpu)
				createNode(t, c, "netdown", nil, map[string]any{"key": "node.kubernetes.io/network-unavailable", "effect": "NoSchedule"})
				c.Create(t, app.DaemonSets, "default", agentDS(nil, tc.podSpec))
				c.Eventually(t, 10*time.Second, func() bool {
					return dsStatus(t, c, "currentNumberScheduled") == int64(len(tc.want)) && dsStatus(t, c, "desiredNumberScheduled") == int64(len(tc.want))
				})
				require.Equal(t, tc.want, nodesWithPods(t, c))
			})
		})
	}
}

// TestCh14_DaemonSet_NodesComeAndGo: a new node gets a pod; a node that gets a NoExecute
// taint, or is deleted, loses it (an unscheduled pod pinned to a missing node is the
// DaemonSet controller's to delete; a bound one is the pod garbage collector's upstream).
func TestCh14_DaemonSet_NodesComeAndGo(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"daemonset"}})
		createNode(t, c, "node-a", nil)
		c.Create(t, app.DaemonSets, "default", agentDS(nil, nil))
		c.Eventually(t, 10*time.Second, func() bool { return len(nodesWithPods(t, c)) == 1 })
		createNode(t, c, "node-b", nil)
		createNode(t, c, "node-c", nil)
		c.Eventually(t, 10*time.Second, func() bool { return len(nodesWithPods(t, c)) == 3 })
		require.Equal(t, []string{"node-a", "node-b", "node-c"}, nodesWithPods(t, c))

		require.NoError(t, c.Client.Resource(app.Nodes).Delete(context.Background(), "node-b", api.DeleteOptions{}))
		c.Eventually(t, 10*time.Second, func() bool { return len(nodesWithPods(t, c)) == 2 })
		require.Equal(t, []string{"node-a", "node-c"}, nodesWithPods(t, c))

		_, err := c.Client.Resource(app.Nodes).Patch(context.Background(), "node-c", api.MergePatchType,
			[]byte(`{"spec":{"taints":[{"key":"evict","effect":"NoExecute"}]}}`), api.PatchOptions{})
		require.NoError(t, err)
		c.Eventually(t, 10*time.Second, func() bool { return len(nodesWithPods(t, c)) == 1 })
		require.Equal(t, []string{"node-a"}, nodesWithPods(t, c))
		c.Eventually(t, 10*time.Second, func() bool { return dsStatus(t, c, "desiredNumberScheduled") == 1 })
	})
}
