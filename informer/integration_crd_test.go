package informer

import (
	"context"
	"encoding/json"
	"fmt"
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
