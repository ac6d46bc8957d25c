package cluster_test

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

// TestCh14_ClusterInProcess: the server answers through the in-process transport inside a
// synctest bubble, and a shared informer of the controllers' context syncs over it.
func TestCh14_ClusterInProcess(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{})
		cm := api.GroupVersionResource{Version: "v1", Resource: "configmaps"}
		c.Create(t, cm, "default", map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "a"}})
		cc, err := app.NewControllerContext(c.Config, nil)
		require.NoError(t, err)
		inf := cc.Informer(cm)
		ctx, cancel := context.WithCancel(t.Context())
		cc.InformerFactory.StartWithContext(ctx)
		c.Eventually(t, 10*time.Second, inf.HasSynced)
		_, exists, err := inf.GetIndexer().GetByKey("default/a")
		require.NoError(t, err)
		require.True(t, exists)
		c.Create(t, cm, "default", map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "b"}})
		c.Eventually(t, 10*time.Second, func() bool { _, ok, _ := inf.GetIndexer().GetByKey("default/b"); return ok })
		cancel()
		cc.InformerFactory.Shutdown()
	})
}
