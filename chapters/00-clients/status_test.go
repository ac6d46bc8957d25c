package ch00_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/client/dynamic"
)

// TestCh00_StatusSubresourceRules checks the three rules of the status subresource through
// the dynamic client, on a built-in kind (pods) and on a custom kind registered at run time
// (widgets), against the simulated server:
//
//	PUT on the object ignores status; PUT on …/status changes only status;
//	generation counts spec changes only (not status, not metadata).
func TestCh00_StatusSubresourceRules(t *testing.T) {
	kinds := []struct {
		name       string
		gvr        api.GroupVersionResource
		obj        *api.Unstructured
		specField  []string
		statusPath []string
		specValues [2]any // initial, changed
	}{
		{
			name: "pods", gvr: podsGVR,
			obj: &api.Unstructured{Object: map[string]any{
				"apiVersion": "v1", "kind": "Pod", "metadata": map[string]any{"name": "p"},
				"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "nginx:1.27"}}},
			}},
			// A pod's spec is immutable but for a few fields; activeDeadlineSeconds may shrink.
			specField:  []string{"spec", "activeDeadlineSeconds"},
			statusPath: []string{"status", "phase"},
			specValues: [2]any{int64(600), int64(300)},
		},
		{
			name: "widgets (custom resource)", gvr: widgetsGVR,
			obj:        widget("w", 1),
			specField:  []string{"spec", "size"},
			statusPath: []string{"status", "phase"},
			specValues: [2]any{int64(1), int64(2)},
		},
	}
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			ctx := context.Background()
			srv, cfg := startLab(apiserver.Options{})
			defer srv.Close()
			require.NoError(t, srv.Register(widgetsResource))
			dc, err := dynamic.NewForConfig(cfg)
			require.NoError(t, err)
			ri := dc.Resource(k.gvr).Namespace("demo")
			set := func(u *api.Unstructured, v any, path []string) *api.Unstructured {
				u = u.DeepCopy()
				require.NoError(t, api.SetNestedField(u.Object, v, path...))
				return u
			}
			get := func(u *api.Unstructured, path []string) any {
				m, _, err := api.NestedMap(u.Object, path[:len(path)-1]...)
				require.NoError(t, err)
				return m[path[len(path)-1]]
			}
			state := func(u *api.Unstructured) string {
				return fmt.Sprintf("spec=%v status=%v generation=%d", get(u, k.specField), get(u, k.statusPath), u.GetGeneration())
			}

			obj, err := ri.Create(ctx, set(k.obj, k.specValues[0], k.specField), api.CreateOptions{})
			require.NoError(t, err)
			require.Equal(t, int64(1), obj.GetGeneration(), "a new object starts at generation 1")
			rv := obj.GetResourceVersion()
			initialStatus := get(obj, k.statusPath) // pods start Pending, widgets with none

			// 1. PUT on the object with only a status change: nothing changes, not even the RV.
			got, err := ri.Update(ctx, set(obj, "Running", k.statusPath), api.UpdateOptions{})
			require.NoError(t, err)
			assert.Equal(t, fmt.Sprintf("spec=%v status=%v generation=1", k.specValues[0], initialStatus), state(got), "PUT ignores status")
			assert.Equal(t, rv, got.GetResourceVersion(), "a no-op update keeps the resourceVersion")

			// 2. PUT on /status with a status change and a spec change: only status changes.
			withBoth := set(set(got, "Running", k.statusPath), k.specValues[1], k.specField)
			got, err = ri.UpdateStatus(ctx, withBoth, api.UpdateOptions{})
			require.NoError(t, err)
			assert.Equal(t, fmt.Sprintf("spec=%v status=Running generation=1", k.specValues[0]), state(got), "PUT …/status changes only status")
			assert.NotEqual(t, rv, got.GetResourceVersion(), "a status write is a write")

			// 3. PUT on the object with a metadata-only change: generation stays.
			labelled := got.DeepCopy()
			labelled.SetLabels(map[string]string{"tier": "frontend"})
			got, err = ri.Update(ctx, labelled, api.UpdateOptions{})
			require.NoError(t, err)
			assert.Equal(t, map[string]string{"tier": "frontend"}, got.GetLabels())
			assert.Equal(t, fmt.Sprintf("spec=%v status=Running generation=1", k.specValues[0]), state(got), "metadata changes leave generation alone")

			// 4. PUT on the object with a spec change: spec changes, generation bumps, status kept.
			got, err = ri.Update(ctx, set(got, k.specValues[1], k.specField), api.UpdateOptions{})
			require.NoError(t, err)
			assert.Equal(t, fmt.Sprintf("spec=%v status=Running generation=2", k.specValues[1]), state(got), "a spec change bumps generation")

			// The server's stored copy agrees with what the client was told.
			stored, err := ri.Get(ctx, got.GetName(), api.GetOptions{})
			require.NoError(t, err)
			assert.Equal(t, state(got), state(stored))
		})
	}
}
