package kubelet_test

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/controllers"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
)

// TestCh14_Kubelet_ChaosConverges: pods are created and deleted while events are dropped,
// watches cut, the history compacted (410 on the next watch) and the whole manager
// restarted; the cluster still converges: every surviving pod Running and Ready on a node
// with a distinct IP of that node's CIDR, every deleted pod gone, every node Ready.
func TestCh14_Kubelet_ChaosConverges(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		names := []string{"kubelet", "scheduler", "nodelifecycle"}
		c := cluster.Start(t, cluster.Options{Controllers: names, Nodes: 3})
		pods := c.Client.Resource(app.Pods).Namespace("default")
		ctx := context.Background()
		for i := range 6 {
			c.Create(t, app.Pods, "default", boundPod(fmt.Sprintf("a-%d", i), "", nil, ""))
		}
		c.Server.DropNextEvents(apiserver.DropRule{Count: 5})
		c.Settle()
		time.Sleep(3 * time.Second)
		c.Server.CloseAllWatches()
		for i := range 6 {
			c.Create(t, app.Pods, "default", boundPod(fmt.Sprintf("b-%d", i), "", nil, ""))
		}
		c.Server.CompactAll()
		c.Server.CloseAllWatches()
		time.Sleep(5 * time.Second)

		// The manager restarts: a new set of caches, queues and kubelets.
		c.Manager.Stop()
		for _, n := range []string{"a-0", "a-1", "b-0"} {
			require.NoError(t, pods.Delete(ctx, n, api.DeleteOptions{}))
		}
		m, err := controllers.Start(ctx, controllers.Options{Config: c.Config, Controllers: names, Nodes: 3})
		require.NoError(t, err)
		t.Cleanup(m.Stop)
		c.Server.DropNextEvents(apiserver.DropRule{Count: 3})

		t0 := time.Now()
		c.Eventually(t, 3*time.Minute, func() bool {
			list := c.List(t, app.Pods, "default")
			if time.Since(t0) > 178*time.Second {
				for _, p := range list {
					t.Logf("%s node=%s phase=%s ready=%v del=%v", p.GetName(), app.NodeName(&p), app.PodPhase(&p), app.IsPodReady(&p), p.GetDeletionTimestamp())
				}
			}
			if len(list) != 9 {
				return false
			}
			for _, p := range list {
				if !app.IsPodReady(&p) || p.GetDeletionTimestamp() != nil {
					return false
				}
			}
			return true
		})
		ips := map[string]string{}
		for _, p := range c.List(t, app.Pods, "default") {
			ip := app.NestedString(p.Object, "status", "podIP")
			node := app.NodeName(&p)
			require.NotEmpty(t, node)
			assert.Contains(t, ip, fmt.Sprintf("10.244.%s.", node[len("sim-node-"):]), "%s on %s", p.GetName(), node)
			assert.NotContains(t, ips, ip, "IP %s given twice", ip)
			ips[ip] = p.GetName()
		}
		for _, n := range c.List(t, app.Nodes, "") {
			taints, _ := app.Nested(n.Object, "spec", "taints")
			assert.Nil(t, taints, n.GetName())
		}
	})
}
