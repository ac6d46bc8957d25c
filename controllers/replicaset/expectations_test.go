package replicaset_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/controllers/replicaset"
	"github.com/informer-lab/informer-lab/harness/cluster"
)

func countPods(t *testing.T, c *cluster.Cluster) int {
	t.Helper()
	return len(c.List(t, app.Pods, "default"))
}

// TestCh14_ReplicaSet_ExpectationsHoldWhileInformerLags: while the pod informer lags behind
// the controller's own creates, a second sync creates nothing; once the events arrive the
// expectations are met; and a record that never is met expires after ExpectationsTimeout.
func TestCh14_ReplicaSet_ExpectationsHoldWhileInformerLags(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{})
		cc, err := app.NewControllerContext(c.Config, nil)
		require.NoError(t, err)
		rsc, err := replicaset.New(cc)
		require.NoError(t, err)
		exp := rsc.(*replicaset.Controller).Expectations()
		ctx, cancel := context.WithCancel(t.Context())
		defer func() { cancel(); cc.InformerFactory.Shutdown(); replicaset.ShutDown(rsc) }()
		cc.InformerFactory.StartWithContext(ctx)
		c.Eventually(t, 10*time.Second, func() bool {
			return replicaset.Synced(rsc)
		})
		obj := map[string]any{
			"apiVersion": "apps/v1", "kind": "ReplicaSet",
			"metadata": map[string]any{"name": "web"},
			"spec": map[string]any{
				"replicas": int64(3),
				"selector": map[string]any{"matchLabels": map[string]any{"app": "web"}},
				"template": map[string]any{
					"metadata": map[string]any{"labels": map[string]any{"app": "web"}},
					"spec":     map[string]any{"containers": []any{map[string]any{"name": "c", "image": "nginx"}}},
				},
			},
		}
		c.Create(t, app.ReplicaSets, "default", obj)
		c.Eventually(t, 10*time.Second, func() bool { return replicaset.Cached(rsc, "default/web") })

		c.Server.DelayEvents(time.Minute) // the pod events reach the informer a minute late
		require.NoError(t, replicaset.Sync(rsc, ctx, "default/web"))
		require.Equal(t, 3, countPods(t, c))
		add, _, ok := exp.GetExpectations("default/web")
		require.True(t, ok)
		require.Equal(t, int64(3), add)
		require.False(t, exp.SatisfiedExpectations("default/web"))
		// the cache still shows no pod, yet a second sync creates none
		require.Zero(t, replicaset.CachedPods(rsc))
		require.NoError(t, replicaset.Sync(rsc, ctx, "default/web"))
		require.Equal(t, 3, countPods(t, c))
		c.Server.DelayEvents(0)
		c.Eventually(t, 5*time.Minute, func() bool { return exp.SatisfiedExpectations("default/web") })
		add, _, _ = exp.GetExpectations("default/web")
		require.Equal(t, int64(0), add)
		require.NoError(t, replicaset.Sync(rsc, ctx, "default/web"))
		require.Equal(t, 3, countPods(t, c))

		// a record never met expires after ExpectationsTimeout
		exp.ExpectCreations("default/other", 2)
		require.False(t, exp.SatisfiedExpectations("default/other"))
		time.Sleep(app.ExpectationsTimeout + time.Second)
		require.True(t, exp.SatisfiedExpectations("default/other"))
	})
}
