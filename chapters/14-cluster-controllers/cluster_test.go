package ch14

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
)

// TestCh14_Cluster_ReplicaSetAgrees: the cluster's own ReplicaSet controller
// (controllers/replicaset, switched on as --controllers=replicaset does) does to the same
// ReplicaSet what the chapter's copy does: three pods owned by it, then one after a scale
// down, its queue visible to the manager as the dashboard reads it.
func TestCh14_Cluster_ReplicaSetAgrees(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"replicaset"}})
		assert.Equal(t, []string{"replicaset"}, c.Manager.Names())
		rs := c.Create(t, app.ReplicaSets, "default", replicaSet("web-rs", 3))
		c.Eventually(t, 10*time.Second, func() bool { return len(podNames(t, c)) == 3 })
		for _, p := range c.List(t, app.Pods, "default") {
			if ref := app.GetControllerOf(&p); assert.NotNil(t, ref) {
				assert.Equal(t, rs.GetUID(), ref.UID)
			}
		}
		scale(t, c, "web-rs", 1)
		c.Eventually(t, 10*time.Second, func() bool { return len(podNames(t, c)) == 1 })
		c.Settle()
		assert.Equal(t, map[string]int{"replicaset": 0}, c.Manager.QueueDepths(), "every key handled")
	})
}
