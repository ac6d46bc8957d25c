package serviceaccount_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
	"github.com/informer-lab/informer-lab/internal/trace"
)

func nsObj(name string) map[string]any {
	return map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": name}}
}

// TestCh14_ServiceAccount_DefaultInEveryNamespace: every namespace, those of the server's
// start and new ones, gets its default account; a deleted one comes back.
func TestCh14_ServiceAccount_DefaultInEveryNamespace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"serviceaccount"}})
		c.Create(t, app.Namespaces, "", nsObj("team-a"))
		for _, ns := range []string{"default", "kube-system", "team-a"} {
			c.Eventually(t, 10*time.Second, func() bool { return c.Get(t, app.ServiceAccounts, ns, "default") != nil }, ns)
		}
		old := c.Get(t, app.ServiceAccounts, "team-a", "default")
		require.NoError(t, c.Client.Resource(app.ServiceAccounts).Namespace("team-a").Delete(context.Background(), "default", api.DeleteOptions{}))
		c.Eventually(t, 10*time.Second, func() bool {
			sa := c.Get(t, app.ServiceAccounts, "team-a", "default")
			return sa != nil && sa.GetUID() != old.GetUID()
		})
	})
}

// TestCh14_ServiceAccount_NoneInTerminatingNamespace: once a namespace is terminating, its
// deleted default account is not created again, and the controller does not even try.
func TestCh14_ServiceAccount_NoneInTerminatingNamespace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var buf syncBuffer
		c := cluster.Start(t, cluster.Options{Controllers: []string{"serviceaccount"}, Logger: trace.NewPlainLogger(&buf)})
		c.Create(t, app.Namespaces, "", nsObj("going"))
		c.Eventually(t, 10*time.Second, func() bool { return c.Get(t, app.ServiceAccounts, "going", "default") != nil })
		// a finalizer keeps the namespace terminating
		cm := api.GroupVersionResource{Version: "v1", Resource: "configmaps"}
		c.Create(t, cm, "going", map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": "held", "finalizers": []any{"example.com/hold"}}})
		ctx := context.Background()
		require.NoError(t, c.Client.Resource(app.Namespaces).Delete(ctx, "going", api.DeleteOptions{}))
		c.Eventually(t, 10*time.Second, func() bool {
			return app.NestedString(c.Get(t, app.Namespaces, "", "going").Object, "status", "phase") == "Terminating"
		})
		buf.Reset()
		_ = c.Client.Resource(app.ServiceAccounts).Namespace("going").Delete(ctx, "default", api.DeleteOptions{})
		c.Eventually(t, 10*time.Second, func() bool { return c.Get(t, app.ServiceAccounts, "going", "default") == nil })
		// an update of the terminating namespace queues it again
		_, err := c.Client.Resource(app.Namespaces).Patch(ctx, "going", api.MergePatchType, []byte(`{"metadata":{"labels":{"touched":"yes"}}}`), api.PatchOptions{})
		require.NoError(t, err)
		time.Sleep(30 * time.Second)
		c.Settle()
		require.Nil(t, c.Get(t, app.ServiceAccounts, "going", "default"))
		require.NotContains(t, buf.String(), "op=create key=going/default")
	})
}

type syncBuffer = cluster.TraceBuffer

// TestCh14_ServiceAccount_StrictServer: on a server that refuses pods until their
// namespace's default account exists (StrictServiceAccounts, as a real kube-apiserver), the
// controller is what lets a new namespace run pods.
func TestCh14_ServiceAccount_StrictServer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"serviceaccount"}, Server: apiserver.Options{StrictServiceAccounts: true}})
		c.Create(t, app.Namespaces, "", nsObj("team-b"))
		c.Eventually(t, 10*time.Second, func() bool { return c.Get(t, app.ServiceAccounts, "team-b", "default") != nil })
		c.Create(t, app.Pods, "team-b", map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": map[string]any{"name": "p"},
			"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "nginx"}}}})
		require.Equal(t, "default", app.NestedString(c.Get(t, app.Pods, "team-b", "p").Object, "spec", "serviceAccountName"))
	})
}
