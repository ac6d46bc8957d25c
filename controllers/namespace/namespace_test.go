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
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
)

var (
	configMaps = api.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	secrets    = api.GroupVersionResource{Version: "v1", Resource: "secrets"}
)

func named(apiVersion, kind, name string) map[string]any {
	return map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": map[string]any{"name": name}}
}

func conditions(ns *api.Unstructured) map[string]map[string]any {
	out := map[string]map[string]any{}
	raw, _ := app.Nested(ns.Object, "status", "conditions")
	list, _ := raw.([]any)
	for _, c := range list {
		m := c.(map[string]any)
		out[m["type"].(string)] = m
	}
	return out
}

// TestCh14_Namespace_DeletesContent: a namespace with many objects of several kinds is
// emptied and then goes; without the controller it stays Terminating with its finalizer,
// as on a real server without kube-controller-manager.
func TestCh14_Namespace_DeletesContent(t *testing.T) {
	for _, withController := range []bool{true, false} {
		t.Run(fmt.Sprintf("controller=%v", withController), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				o := cluster.Options{}
				if withController {
					o.Controllers = []string{"namespace"}
				}
				c := cluster.Start(t, o)
				c.Create(t, app.Namespaces, "", named("v1", "Namespace", "busy"))
				for i := range 50 {
					c.Create(t, configMaps, "busy", named("v1", "ConfigMap", fmt.Sprintf("cm-%d", i)))
					c.Create(t, secrets, "busy", named("v1", "Secret", fmt.Sprintf("s-%d", i)))
				}
				require.NoError(t, c.Client.Resource(app.Namespaces).Delete(context.Background(), "busy", api.DeleteOptions{}))
				ns := c.Get(t, app.Namespaces, "", "busy")
				require.NotNil(t, ns, "the server only marks it")
				phase, _, _ := api.NestedString(ns.Object, "status", "phase")
				assert.Equal(t, "Terminating", phase)
				if !withController {
					time.Sleep(time.Minute)
					c.Settle()
					ns = c.Get(t, app.Namespaces, "", "busy")
					require.NotNil(t, ns)
					fin, _ := app.Nested(ns.Object, "spec", "finalizers")
					assert.Equal(t, []any{"kubernetes"}, fin)
					assert.Len(t, c.List(t, configMaps, "busy"), 50)
					return
				}
				c.Eventually(t, time.Minute, func() bool { return c.Get(t, app.Namespaces, "", "busy") == nil })
				assert.Empty(t, c.List(t, configMaps, "busy"))
				assert.Empty(t, c.List(t, secrets, "busy"))
			})
		})
	}
}

// TestCh14_Namespace_FinalizersRemaining: content held by a finalizer keeps the namespace,
// with the conditions upstream writes, until the finalizer goes.
func TestCh14_Namespace_FinalizersRemaining(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"namespace"}})
		c.Create(t, app.Namespaces, "", named("v1", "Namespace", "held"))
		cm := named("v1", "ConfigMap", "held")
		cm["metadata"].(map[string]any)["finalizers"] = []any{"example.com/hold"}
		c.Create(t, configMaps, "held", cm)
		c.Create(t, configMaps, "held", named("v1", "ConfigMap", "free"))
		require.NoError(t, c.Client.Resource(app.Namespaces).Delete(context.Background(), "held", api.DeleteOptions{}))
		c.Eventually(t, time.Minute, func() bool {
			ns := c.Get(t, app.Namespaces, "", "held")
			return ns != nil && conditions(ns)["NamespaceFinalizersRemaining"]["status"] == "True"
		})
		conds := conditions(c.Get(t, app.Namespaces, "", "held"))
		assert.Equal(t, "Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances", conds["NamespaceFinalizersRemaining"]["message"])
		assert.Equal(t, "Some resources are remaining: configmaps. has 1 resource instances", conds["NamespaceContentRemaining"]["message"])
		assert.Equal(t, "False", conds["NamespaceDeletionDiscoveryFailure"]["status"])
		assert.Equal(t, "All content successfully deleted, may be waiting on finalization", conds["NamespaceDeletionContentFailure"]["message"])
		assert.Nil(t, c.Get(t, configMaps, "held", "free"))
		_, err := c.Client.Resource(configMaps).Namespace("held").Patch(context.Background(), "held", api.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), api.PatchOptions{})
		require.NoError(t, err)
		c.Eventually(t, time.Minute, func() bool { return c.Get(t, app.Namespaces, "", "held") == nil })
	})
}
