package deployment_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/controllers/deployment"
)

// TestCh14_Deployment_AdoptsOrphanReplicaSet: a ReplicaSet left by an orphaning delete
// (same labels, no owner) is adopted by a new Deployment of the same template, which then
// uses it as its new ReplicaSet instead of creating another.
func TestCh14_Deployment_AdoptsOrphanReplicaSet(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := startCluster(t)
		d := deployObject("web", "nginx", 2)
		tmpl := app.NestedMap(d, "spec", "template")
		hash := deployment.ComputeHash(tmpl, nil) // not the server-defaulted one: any name will do
		c.Create(t, app.ReplicaSets, "default", map[string]any{
			"apiVersion": "apps/v1", "kind": "ReplicaSet",
			"metadata": map[string]any{"name": "web-orphan", "labels": map[string]any{"app": "web", "pod-template-hash": hash}},
			"spec": map[string]any{
				"replicas": int64(2),
				"selector": map[string]any{"matchLabels": map[string]any{"app": "web", "pod-template-hash": hash}},
				"template": map[string]any{
					"metadata": map[string]any{"labels": map[string]any{"app": "web", "pod-template-hash": hash}},
					"spec":     app.NestedMap(tmpl, "spec"),
				},
			},
		})
		c.Eventually(t, 30*time.Second, func() bool { return len(activePods(t, c)) == 2 })
		c.Create(t, app.Deployments, "default", d)
		c.Eventually(t, 30*time.Second, func() bool { readyAll(t, c); return rolledOut(t, c, "web") })
		rss := c.List(t, app.ReplicaSets, "default")
		require.Len(t, rss, 1, "no second ReplicaSet")
		require.Equal(t, "web-orphan", rss[0].GetName())
		ref := app.GetControllerOf(&rss[0])
		require.NotNil(t, ref)
		require.Equal(t, getDeploy(t, c, "web").GetUID(), ref.UID)
		require.Equal(t, "1", rss[0].GetAnnotations()[deployment.RevisionAnnotation])
		require.Len(t, activePods(t, c), 2)
	})
}
