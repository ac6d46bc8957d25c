package chaos

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/harness/cluster"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/rest"
)

const widgetCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
	"metadata":{"name":"widgets.example.com"},
	"spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"widgets","singular":"widget","kind":"Widget","listKind":"WidgetList"},
	"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}`

// TestChaos_BulkDeleteLeavesNoGhosts runs a dynamic informer over thousands of custom
// objects and deletes them in bulk, by deleting their CRD or their namespace (emptied by the
// namespace controller's DeleteCollection), under the server's faults. The informer's cache
// ends empty: no ghost.
//
// During a namespace deletion every watch is closed halfway, a stream is cut mid-event and
// DELETED events are dropped; the informer re-watches, and a forced relist (a 410, as the
// chaos suite's quiescence does) clears what was dropped. During a CRD deletion the watchers
// are slowed down (every event delayed): the deletion waits for them rather than overflowing
// their queues. A watch broken during a CRD deletion is not tested: the deletion is one
// request here, so the re-watch finds the resource gone (404) and cannot learn the rest.
func TestChaos_BulkDeleteLeavesNoGhosts(t *testing.T) {
	const n = 3000
	widgets := api.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	crds := api.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	namespaces := api.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	tests := []struct {
		name   string
		faults func(s *apiserver.Server)
		delete func(c *cluster.Cluster) error
		breaks bool // close every watch halfway, then force a relist once the namespace is gone
	}{
		{"CRD deletion", func(s *apiserver.Server) {
			s.DelayEvents(20 * time.Millisecond)
		}, func(c *cluster.Cluster) error {
			return c.Client.Resource(crds).Delete(context.Background(), "widgets.example.com", api.DeleteOptions{})
		}, false},
		{"namespace deletion", func(s *apiserver.Server) {
			s.DropNextEvents(apiserver.DropRule{Count: 200, Type: watch.Deleted})
			s.CutNextEvent(0)
			s.CloseNextWatches(2)
			s.DelayEvents(time.Millisecond)
		}, func(c *cluster.Cluster) error {
			return c.Client.Resource(namespaces).Delete(context.Background(), "big", api.DeleteOptions{})
		}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ctx := context.Background()
				c := cluster.Start(t, cluster.Options{Controllers: []string{"namespace"}})
				c.Create(t, namespaces, "", map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "big"}})
				var crd map[string]any
				require.NoError(t, json.Unmarshal([]byte(widgetCRD), &crd))
				c.Create(t, crds, "", crd)
				c.Eventually(t, time.Minute, func() bool {
					_, err := c.Server.List(ctx, "widgets.example.com", "big", api.ListOptions{})
					return err == nil
				})
				for i := range n {
					_, err := c.Server.Create(ctx, "widgets.example.com", "big", &api.Unstructured{Object: map[string]any{
						"apiVersion": "example.com/v1", "kind": "Widget", "metadata": map[string]any{"name": fmt.Sprintf("w%05d", i)}}})
					require.NoError(t, err)
				}
				client, err := rest.RESTClientFor(c.Config)
				require.NoError(t, err)
				f := informer.NewDynamicSharedInformerFactory(informer.NewRESTSource(client), 0)
				gi, err := f.ForResource(widgets)
				require.NoError(t, err)
				inf := gi.Informer()
				runCtx, cancel := context.WithCancel(ctx)
				defer func() {
					cancel()
					f.Shutdown()
				}()
				f.StartWithContext(runCtx)
				cached := func() int { return len(inf.GetStore().List()) }
				c.Eventually(t, time.Minute, func() bool { return cached() == n }, "the cache synced")

				tc.faults(c.Server)
				deleted := make(chan error, 1)
				go func() { deleted <- tc.delete(c) }()
				if tc.breaks {
					c.Eventually(t, 10*time.Minute, func() bool { return cached() <= n/2 }, "half the objects gone from the cache")
					c.Server.CloseAllWatches()
				}
				require.NoError(t, <-deleted)
				if tc.breaks {
					c.Eventually(t, 10*time.Minute, func() bool { return c.Get(t, namespaces, "", "big") == nil }, "the namespace gone")
					c.Server.ClearFaults()
					c.Server.CompactAll()
					c.Server.CloseAllWatches()
				}
				c.Eventually(t, 10*time.Minute, func() bool { return cached() == 0 }, "no ghost: the cache ends empty")
				cancel()
				f.Shutdown()
			})
		})
	}
}
