package replicaset_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
)

// TestCh14_ReplicaSet_CreateScaleStatus: a ReplicaSet of 3 gets 3 pods; ready pods show in
// status; scaling up and down creates and deletes pods.
func TestCh14_ReplicaSet_CreateScaleStatus(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"replicaset"}})
		rs := c.Create(t, app.ReplicaSets, "default", rsObject("web", 3))
		c.Eventually(t, 30*time.Second, func() bool { return len(podsOf(t, c, rs.GetUID())) == 3 })
		for _, p := range podsOf(t, c, rs.GetUID()) {
			require.Equal(t, "web-", p.GetGenerateName())
			require.Equal(t, "web", p.GetLabels()["app"])
		}
		readyAll(t, c, rs.GetUID())
		c.Eventually(t, 30*time.Second, func() bool {
			cur := c.Get(t, app.ReplicaSets, "default", "web")
			return nested(cur, "status", "readyReplicas") == 3 && nested(cur, "status", "availableReplicas") == 3 &&
				nested(cur, "status", "fullyLabeledReplicas") == 3 && nested(cur, "status", "observedGeneration") == cur.GetGeneration()
		})
		for _, want := range []int64{5, 1} {
			cur := c.Get(t, app.ReplicaSets, "default", "web")
			cur.Object["spec"].(map[string]any)["replicas"] = want
			_, err := c.Client.Resource(app.ReplicaSets).Namespace("default").Update(t.Context(), cur, api.UpdateOptions{})
			require.NoError(t, err)
			c.Eventually(t, 30*time.Second, func() bool {
				cur := c.Get(t, app.ReplicaSets, "default", "web")
				return len(podsOf(t, c, rs.GetUID())) == int(want) && nested(cur, "status", "replicas") == want
			})
		}
		// a surplus goes in the order of ActivePods: the unready new pods before the ready one
	})
}
