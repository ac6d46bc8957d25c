package namespace_test

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
)

// TestCh14_Namespace_BulkDeleteWatcher deletes a namespace of 10,000 ConfigMaps (2,500 under
// -race) with the controller running, while a client watches them. The controller empties the
// namespace by DeleteCollection; the server commits the DELETED events no faster than the
// reading watcher takes them, so it gets every one and no ERROR (with 1,000-slot queues
// filled under one lock hold, it got about 1,600, then an ERROR).
func TestCh14_Namespace_BulkDeleteWatcher(t *testing.T) {
	const n = bulkObjects
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		c := cluster.Start(t, cluster.Options{Controllers: []string{"namespace"}})
		c.Create(t, app.Namespaces, "", named("v1", "Namespace", "big"))
		for i := range n {
			_, err := c.Server.Create(ctx, "configmaps", "big", &api.Unstructured{Object: named("v1", "ConfigMap", fmt.Sprintf("c%05d", i))})
			require.NoError(t, err)
		}
		w, err := c.Client.Resource(configMaps).Namespace("big").Watch(ctx, api.ListOptions{ResourceVersion: fmt.Sprint(c.Server.ResourceVersion())})
		require.NoError(t, err)
		defer w.Stop()
		require.NoError(t, c.Client.Resource(app.Namespaces).Delete(ctx, "big", api.DeleteOptions{}))
		counts := map[watch.EventType]int{}
		for counts[watch.Deleted] < n {
			ev, ok := <-w.ResultChan()
			require.True(t, ok, "the watch ended after %d DELETED", counts[watch.Deleted])
			require.NotEqual(t, watch.Error, ev.Type, "after %d DELETED", counts[watch.Deleted])
			counts[ev.Type]++
		}
		assert.Equal(t, map[watch.EventType]int{watch.Deleted: n}, counts)
		c.Eventually(t, time.Minute, func() bool { return c.Get(t, app.Namespaces, "", "big") == nil })
	})
}
