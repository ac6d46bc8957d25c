package replicaset_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
)

// TestCh14_ReplicaSet_MinReadySeconds: a ready pod counts as available only after
// minReadySeconds, and the controller looks again by itself when that time comes.
func TestCh14_ReplicaSet_MinReadySeconds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"replicaset"}})
		obj := rsObject("web", 2)
		app.NestedMap(obj, "spec")["minReadySeconds"] = int64(10)
		rs := c.Create(t, app.ReplicaSets, "default", obj)
		c.Eventually(t, 30*time.Second, func() bool { return len(podsOf(t, c, rs.GetUID())) == 2 })
		readyAll(t, c, rs.GetUID())
		readyAt := time.Now()
		c.Eventually(t, 30*time.Second, func() bool {
			return nested(c.Get(t, app.ReplicaSets, "default", "web"), "status", "readyReplicas") == 2
		})
		require.Zero(t, nested(c.Get(t, app.ReplicaSets, "default", "web"), "status", "availableReplicas"))
		c.Eventually(t, 30*time.Second, func() bool {
			return nested(c.Get(t, app.ReplicaSets, "default", "web"), "status", "availableReplicas") == 2
		})
		require.GreaterOrEqual(t, time.Since(readyAt), 10*time.Second)
		require.LessOrEqual(t, time.Since(readyAt), 13*time.Second)
	})
}

// TestCh14_ReplicaSet_TerminatingPodsAreReplaced: a pod that is being deleted gracefully
// (deletionTimestamp set, still there) no longer counts: it is replaced at once and shows
// in status.terminatingReplicas.
func TestCh14_ReplicaSet_TerminatingPodsAreReplaced(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"replicaset"}})
		rs := c.Create(t, app.ReplicaSets, "default", rsObject("web", 2))
		c.Eventually(t, 30*time.Second, func() bool { return len(podsOf(t, c, rs.GetUID())) == 2 })
		victim := podsOf(t, c, rs.GetUID())[0]
		// a finalizer keeps the deleted pod around, as a kubelet's grace period would
		_, err := c.Client.Resource(app.Pods).Namespace("default").Patch(context.Background(), victim.GetName(), api.MergePatchType,
			[]byte(`{"metadata":{"finalizers":["example.com/hold"]}}`), api.PatchOptions{})
		require.NoError(t, err)
		require.NoError(t, c.Client.Resource(app.Pods).Namespace("default").Delete(context.Background(), victim.GetName(), api.DeleteOptions{}))
		c.Eventually(t, 30*time.Second, func() bool {
			cur := c.Get(t, app.ReplicaSets, "default", "web")
			return len(podsOf(t, c, rs.GetUID())) == 2 && nested(cur, "status", "terminatingReplicas") == 1 && nested(cur, "status", "replicas") == 2
		})
		require.Len(t, c.List(t, app.Pods, "default"), 3)
		_, err = c.Client.Resource(app.Pods).Namespace("default").Patch(context.Background(), victim.GetName(), api.MergePatchType,
			[]byte(`{"metadata":{"finalizers":null}}`), api.PatchOptions{})
		require.NoError(t, err)
		c.Eventually(t, 30*time.Second, func() bool {
			return nested(c.Get(t, app.ReplicaSets, "default", "web"), "status", "terminatingReplicas") == 0
		})
	})
}
