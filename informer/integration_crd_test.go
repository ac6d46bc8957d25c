package informer

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/rest"
)

// TestCh08_Integration_CRDDeletionLeavesNoGhosts runs a dynamic informer of a custom resource
// with 10,000 objects (2,500 under -race) over HTTP and deletes the CRD. Its watch gets every
// DELETED, so the cache ends empty. When the deletion overflowed the watcher's queue, the
// informer saw about 1,000 DELETED, then an ERROR; its relist got 404 (the resource was no
// longer served), and the rest stayed in the cache for good.
func TestCh08_Integration_CRDDeletionLeavesNoGhosts(t *testing.T) {
	const n = bulkObjects
	srv := apiserver.NewTestServer(t, apiserver.Options{})
	client, err := rest.RESTClientFor(&rest.Config{Host: srv.URL()})
	require.NoError(t, err)
	ctx := context.Background()
	var crd map[string]any
	require.NoError(t, json.Unmarshal([]byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
		"metadata":{"name":"widgets.example.com"},
		"spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"widgets","singular":"widget","kind":"Widget","listKind":"WidgetList"},
		"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}`), &crd))
	_, err = srv.Create(ctx, "customresourcedefinitions", "", &api.Unstructured{Object: crd})
	require.NoError(t, err)
	gvr := api.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	eventually(t, "the resource served", func() bool {
		_, err := srv.List(ctx, "widgets.example.com", "default", api.ListOptions{})
		return err == nil
	})
	for i := range n {
		_, err := srv.Create(ctx, "widgets.example.com", "default", &api.Unstructured{Object: map[string]any{
			"apiVersion": "example.com/v1", "kind": "Widget", "metadata": map[string]any{"name": fmt.Sprintf("w%05d", i), "namespace": "default"}}})
		require.NoError(t, err)
	}

	f := NewDynamicSharedInformerFactory(NewRESTSource(client), 0)
	gi, err := f.ForResource(gvr)
	require.NoError(t, err)
	inf := gi.Informer()
	runCtx, cancel := context.WithCancel(ctx)
	defer func() {
		cancel()
		f.Shutdown()
	}()
	f.StartWithContext(runCtx)
	f.WaitForCacheSyncWithContext(withTimeout(t, 30*time.Second))
	require.Len(t, inf.GetStore().List(), n)

	_, err = srv.Delete(ctx, "customresourcedefinitions", "", "widgets.example.com", nil)
	require.NoError(t, err)
	require.Eventually(t, func() bool { return len(inf.GetStore().List()) == 0 }, 30*time.Second, 10*time.Millisecond,
		"no ghost objects: the cache ends empty")
}

// TestCh08_Integration_CRDDeletionWatchBroken breaks the informer's watch in the middle of a
// CRD deletion: its watch is closed, or closed after a compaction so that it must re-list.
// The CRD's objects are deleted in the background while the CRD is Terminating and its
// resource stays served, so the informer re-watches (or re-lists) and learns every delete it
// missed: only the object a finalizer holds stays, and when it goes the cache is empty.
// When the deletion was one request that unserved the resource at its end, the broken watch
// could not recover (404) and about half the objects stayed in the cache as ghosts.
func TestCh08_Integration_CRDDeletionWatchBroken(t *testing.T) {
	const n = 3000
	tests := []struct {
		name    string
		compact bool // compact the history first: the informer must re-list
	}{
		{"watch closed", false},
		{"watch closed after a compaction", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// Small watch queues keep the deletion close behind the informer: the break is
			// in the middle of it.
			srv := apiserver.NewTestServer(t, apiserver.Options{WatchBufferSize: 100})
			client, err := rest.RESTClientFor(&rest.Config{Host: srv.URL()})
			require.NoError(t, err)
			ctx := context.Background()
			var crd map[string]any
			require.NoError(t, json.Unmarshal([]byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
		"metadata":{"name":"widgets.example.com"},
		"spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"widgets","singular":"widget","kind":"Widget","listKind":"WidgetList"},
		"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}`), &crd))
			_, err = srv.Create(ctx, "customresourcedefinitions", "", &api.Unstructured{Object: crd})
			require.NoError(t, err)
			eventually(t, "the resource served", func() bool {
				_, err := srv.List(ctx, "widgets.example.com", "default", api.ListOptions{})
				return err == nil
			})
			widget := func(name string, finalizers ...any) *api.Unstructured {
				meta := map[string]any{"name": name, "namespace": "default"}
				if len(finalizers) > 0 {
					meta["finalizers"] = finalizers
				}
				return &api.Unstructured{Object: map[string]any{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": meta}}
			}
			for i := range n {
				_, err := srv.Create(ctx, "widgets.example.com", "default", widget(fmt.Sprintf("w%05d", i)))
				require.NoError(t, err)
			}
			_, err = srv.Create(ctx, "widgets.example.com", "default", widget("held", "example.com/hold"))
			require.NoError(t, err)

			f := NewDynamicSharedInformerFactory(NewRESTSource(client), 0)
			gi, err := f.ForResource(api.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"})
			require.NoError(t, err)
			inf := gi.Informer()
			runCtx, cancel := context.WithCancel(ctx)
			defer func() {
				cancel()
				f.Shutdown()
			}()
			f.StartWithContext(runCtx)
			f.WaitForCacheSyncWithContext(withTimeout(t, 30*time.Second))
			cached := func() int { return len(inf.GetStore().List()) }
			require.Equal(t, n+1, cached())

			// The informer's watch is slowed down, so the deletion waits for it.
			srv.DelayEvents(100 * time.Microsecond)
			deleted := make(chan error, 1)
			go func() {
				_, err := srv.Delete(ctx, "customresourcedefinitions", "", "widgets.example.com", nil)
				deleted <- err
			}()
			require.Eventually(t, func() bool { return cached() <= n/2 }, 30*time.Second, time.Millisecond, "half the objects gone from the cache")
			if tc.compact {
				srv.CompactAll()
			}
			srv.CloseAllWatches()
			srv.DelayEvents(0)
			require.NoError(t, <-deleted)
			// The informer must be watching when the resource goes: a relist after that would
			// get a 404 and keep its cache as it is, on the real server too.
			watching := func() bool {
				return slices.ContainsFunc(srv.Watchers(), func(w apiserver.WatcherInfo) bool { return w.Resource == "widgets.example.com" })
			}
			require.Eventually(t, func() bool { return cached() == 1 && watching() }, 30*time.Second, 5*time.Millisecond,
				"every delete reaches the cache: only the held object stays")
			_, ok, err := inf.GetStore().GetByKey("default/held")
			require.NoError(t, err)
			require.True(t, ok)

			held, err := srv.Get(ctx, "widgets.example.com", "default", "held")
			require.NoError(t, err, "the resource is served while its CRD waits")
			u := held.(*api.Unstructured)
			u.SetFinalizers(nil)
			_, err = srv.Update(ctx, "widgets.example.com", "default", u)
			require.NoError(t, err)
			require.Eventually(t, func() bool { return cached() == 0 }, 30*time.Second, 5*time.Millisecond, "no ghost: the cache ends empty")
			eventually(t, "the CRD gone", func() bool {
				_, err := srv.Get(ctx, "customresourcedefinitions", "", "widgets.example.com")
				return api.IsNotFound(err)
			})
		})
	}
}
