package chaos

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
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
// In both, watchers are slowed down (every event delayed), so the deletion waits for them
// rather than overflowing their queues; every watch is closed halfway, a stream is cut
// mid-event, the next re-watches are closed at once and DELETED events are dropped. The
// informer re-watches, and a forced relist (a 410, as the chaos suite's quiescence does)
// clears what was dropped. A CRD's objects are deleted in the background while the CRD is
// Terminating and its resource still served, so the informer can re-watch and re-list in
// the middle of it; one object held by a finalizer keeps the CRD Terminating until the test
// lets it go, so the relist happens while the resource is served, whatever the timing.
func TestChaos_BulkDeleteLeavesNoGhosts(t *testing.T) {
	const n = 3000
	widgets := api.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	crds := api.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	namespaces := api.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	tests := []struct {
		name   string
		faults func(s *apiserver.Server)
		delete func(c *cluster.Cluster) error
		// done reports that the deletion has done all it can: the namespace is gone, or
		// only the held object is left.
		done func(t *testing.T, c *cluster.Cluster) bool
		held bool // one more object, held by a finalizer until the end
	}{
		{"CRD deletion", func(s *apiserver.Server) {
			s.DropNextEvents(apiserver.DropRule{Count: 200, Type: watch.Deleted})
			s.CutNextEvent(0)
			s.CloseNextWatches(2)
			s.DelayEvents(20 * time.Millisecond)
		}, func(c *cluster.Cluster) error {
			return c.Client.Resource(crds).Delete(context.Background(), "widgets.example.com", api.DeleteOptions{})
		}, func(t *testing.T, c *cluster.Cluster) bool {
			return len(c.List(t, widgets, "big")) == 1
		}, true},
		{"namespace deletion", func(s *apiserver.Server) {
			s.DropNextEvents(apiserver.DropRule{Count: 200, Type: watch.Deleted})
			s.CutNextEvent(0)
			s.CloseNextWatches(2)
			s.DelayEvents(time.Millisecond)
		}, func(c *cluster.Cluster) error {
			return c.Client.Resource(namespaces).Delete(context.Background(), "big", api.DeleteOptions{})
		}, func(t *testing.T, c *cluster.Cluster) bool {
			return c.Get(t, namespaces, "", "big") == nil
		}, false},
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
				widget := func(name string) map[string]any {
					return map[string]any{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": map[string]any{"name": name}}
				}
				for i := range n {
					_, err := c.Server.Create(ctx, "widgets.example.com", "big", &api.Unstructured{Object: widget(fmt.Sprintf("w%05d", i))})
					require.NoError(t, err)
				}
				total := n
				if tc.held {
					obj := widget("held")
					obj["metadata"].(map[string]any)["finalizers"] = []any{"example.com/hold"}
					c.Create(t, widgets, "big", obj)
					total++
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
				c.Eventually(t, time.Minute, func() bool { return cached() == total }, "the cache synced")

				tc.faults(c.Server)
				deleted := make(chan error, 1)
				go func() { deleted <- tc.delete(c) }()
				c.Eventually(t, 10*time.Minute, func() bool { return cached() <= n/2 }, "half the objects gone from the cache")
				c.Server.CloseAllWatches()
				require.NoError(t, <-deleted)
				c.Eventually(t, 10*time.Minute, func() bool { return tc.done(t, c) }, "the deletion done")
				c.Server.ClearFaults()
				c.Server.CompactAll()
				c.Server.CloseAllWatches()
				if tc.held {
					// The informer must be watching when the resource goes: a relist after that
					// would get a 404 and keep its cache as it is, on the real server too.
					watching := func() bool {
						return slices.ContainsFunc(c.Server.Watchers(), func(w apiserver.WatcherInfo) bool { return w.Resource == "widgets.example.com" })
					}
					c.Eventually(t, 10*time.Minute, func() bool { return cached() == 1 && watching() }, "only the held object cached, and watched")
					held := c.Get(t, widgets, "big", "held")
					require.NotNil(t, held, "served while its CRD is Terminating")
					held.SetFinalizers(nil)
					_, err := c.Client.Resource(widgets).Namespace("big").Update(ctx, held, api.UpdateOptions{})
					require.NoError(t, err)
					c.Eventually(t, 10*time.Minute, func() bool { return c.Get(t, crds, "", "widgets.example.com") == nil }, "the CRD gone")
				}
				c.Eventually(t, 10*time.Minute, func() bool { return cached() == 0 }, "no ghost: the cache ends empty")
				cancel()
				f.Shutdown()
			})
		})
	}
}
