package garbagecollector_test

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

var configMaps = api.GroupVersionResource{Version: "v1", Resource: "configmaps"}

// obj builds a JSON-shaped object owned by owners.
func obj(apiVersion, kind, name string, owners ...api.OwnerReference) map[string]any {
	md := map[string]any{"name": name}
	if len(owners) > 0 {
		refs := []any{}
		for _, o := range owners {
			r := map[string]any{"apiVersion": o.APIVersion, "kind": o.Kind, "name": o.Name, "uid": o.UID}
			if o.Controller != nil {
				r["controller"] = *o.Controller
			}
			if o.BlockOwnerDeletion != nil {
				r["blockOwnerDeletion"] = *o.BlockOwnerDeletion
			}
			refs = append(refs, r)
		}
		md["ownerReferences"] = refs
	}
	return map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": md}
}

func deployment(name string) map[string]any {
	o := obj("apps/v1", "Deployment", name)
	o["spec"] = map[string]any{"selector": map[string]any{"matchLabels": map[string]any{"app": name}},
		"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": name}},
			"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "nginx"}}}}}
	return o
}

func replicaSet(name string, owner *api.Unstructured) map[string]any {
	o := obj("apps/v1", "ReplicaSet", name, app.NewControllerRef(owner))
	o["spec"] = map[string]any{"selector": map[string]any{"matchLabels": map[string]any{"app": name}},
		"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": name}},
			"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "nginx"}}}}}
	return o
}

func pod(name string, owners ...api.OwnerReference) map[string]any {
	o := obj("v1", "Pod", name, owners...)
	o["spec"] = map[string]any{"containers": []any{map[string]any{"name": "c", "image": "nginx"}}}
	return o
}

func del(t *testing.T, c *cluster.Cluster, gvr api.GroupVersionResource, ns, name, policy string) {
	t.Helper()
	opts := api.DeleteOptions{}
	if policy != "" {
		opts.PropagationPolicy = &policy
	}
	require.NoError(t, c.Client.Resource(gvr).Namespace(ns).Delete(context.Background(), name, opts))
}

func gone(t *testing.T, c *cluster.Cluster, gvr api.GroupVersionResource, ns, name string) func() bool {
	return func() bool { return c.Get(t, gvr, ns, name) == nil }
}

// chain creates a Deployment, a ReplicaSet it controls and n pods the ReplicaSet controls.
func chain(t *testing.T, c *cluster.Cluster, n int) (*api.Unstructured, *api.Unstructured) {
	d := c.Create(t, app.Deployments, "default", deployment("web"))
	rs := c.Create(t, app.ReplicaSets, "default", replicaSet("web-1", d))
	for i := range n {
		c.Create(t, app.Pods, "default", pod("web-1-"+string(rune('a'+i)), app.NewControllerRef(rs)))
	}
	return d, rs
}

func podNames(t *testing.T, c *cluster.Cluster) []string {
	var out []string
	for _, p := range c.List(t, app.Pods, "default") {
		out = append(out, p.GetName())
	}
	return out
}

// TestCh14_GC_Propagation: the three policies on the chain Deployment → ReplicaSet → Pods,
// as kubectl delete --cascade=background|foreground|orphan does.
func TestCh14_GC_Propagation(t *testing.T) {
	cases := []struct {
		policy string
		check  func(t *testing.T, c *cluster.Cluster, d, rs *api.Unstructured)
	}{
		{api.DeletePropagationBackground, func(t *testing.T, c *cluster.Cluster, d, rs *api.Unstructured) {
			require.Nil(t, c.Get(t, app.Deployments, "default", "web"), "background: the owner goes at once")
			c.Eventually(t, 30*time.Second, func() bool { return len(podNames(t, c)) == 0 && c.Get(t, app.ReplicaSets, "default", "web-1") == nil })
		}},
		{api.DeletePropagationForeground, func(t *testing.T, c *cluster.Cluster, d, rs *api.Unstructured) {
			got := c.Get(t, app.Deployments, "default", "web")
			require.NotNil(t, got, "foreground: the owner stays until its dependents are gone")
			require.Contains(t, got.GetFinalizers(), api.FinalizerDeleteDependents)
			c.Eventually(t, 30*time.Second, gone(t, c, app.Deployments, "default", "web"))
			require.Empty(t, podNames(t, c))
			require.Nil(t, c.Get(t, app.ReplicaSets, "default", "web-1"))
		}},
		{api.DeletePropagationOrphan, func(t *testing.T, c *cluster.Cluster, d, rs *api.Unstructured) {
			c.Eventually(t, 30*time.Second, gone(t, c, app.Deployments, "default", "web"))
			got := c.Get(t, app.ReplicaSets, "default", "web-1")
			require.NotNil(t, got, "orphan: the dependent lives on")
			require.Empty(t, got.GetOwnerReferences())
			require.Len(t, podNames(t, c), 3, "the ReplicaSet's own dependents are untouched")
		}},
	}
	for _, tc := range cases {
		t.Run(tc.policy, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				c := cluster.Start(t, cluster.Options{Controllers: []string{"garbagecollector"}})
				d, rs := chain(t, c, 3)
				c.Settle()
				del(t, c, app.Deployments, "default", "web", tc.policy)
				tc.check(t, c, d, rs)
			})
		})
	}
}

// TestCh14_GC_ForegroundBlockOwnerDeletion: a foreground owner waits only for the dependents
// whose reference blocks it; a non-blocking dependent is still collected.
func TestCh14_GC_ForegroundBlockOwnerDeletion(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"garbagecollector"}})
		owner := c.Create(t, configMaps, "default", obj("v1", "ConfigMap", "owner"))
		f := false
		ref := app.NewControllerRef(owner)
		ref.BlockOwnerDeletion = &f
		// A finalizer keeps the blocking dependent after its delete, so the owner waits.
		blocking := obj("v1", "ConfigMap", "blocking", app.NewControllerRef(owner))
		blocking["metadata"].(map[string]any)["finalizers"] = []any{"example.com/hold"}
		c.Create(t, configMaps, "default", blocking)
		c.Create(t, configMaps, "default", obj("v1", "ConfigMap", "free", ref))
		c.Settle()
		del(t, c, configMaps, "default", "owner", api.DeletePropagationForeground)
		c.Eventually(t, 30*time.Second, gone(t, c, configMaps, "default", "free"))
		c.Eventually(t, 30*time.Second, func() bool {
			b := c.Get(t, configMaps, "default", "blocking")
			return b != nil && b.GetDeletionTimestamp() != nil
		})
		time.Sleep(10 * time.Second)
		c.Settle()
		require.NotNil(t, c.Get(t, configMaps, "default", "owner"), "held by its blocking dependent")
		_, err := c.Client.Resource(configMaps).Namespace("default").Patch(context.Background(), "blocking", api.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), api.PatchOptions{})
		require.NoError(t, err)
		c.Eventually(t, 30*time.Second, gone(t, c, configMaps, "default", "owner"))
	})
}

// TestCh14_GC_DanglingOwner: a dependent whose owner never existed (or was replaced by an
// object of another UID) is collected; one with a live owner stays.
func TestCh14_GC_DanglingOwner(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"garbagecollector"}})
		live := c.Create(t, configMaps, "default", obj("v1", "ConfigMap", "live"))
		replaced := live.DeepCopy()
		replaced.SetUID("00000000-0000-0000-0000-00000000beef") // same name, another UID
		c.Create(t, configMaps, "default", obj("v1", "ConfigMap", "kept", app.NewControllerRef(live)))
		c.Create(t, configMaps, "default", obj("v1", "ConfigMap", "orphaned-by-uid", app.NewControllerRef(replaced)))
		c.Create(t, configMaps, "default", obj("v1", "ConfigMap", "never-owned", api.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: "ghost", UID: "00000000-0000-0000-0000-000000000001"}))
		c.Eventually(t, 30*time.Second, func() bool {
			return c.Get(t, configMaps, "default", "orphaned-by-uid") == nil && c.Get(t, configMaps, "default", "never-owned") == nil
		})
		require.NotNil(t, c.Get(t, configMaps, "default", "kept"))
		require.NotNil(t, c.Get(t, configMaps, "default", "live"))
	})
}

// TestCh14_GC_ClusterScopedOwner: a namespaced dependent of a cluster-scoped owner goes with
// it; a cluster-scoped object naming a namespaced owner is left alone.
func TestCh14_GC_ClusterScopedOwner(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"garbagecollector"}})
		crGVR := api.GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterroles"}
		cr := c.Create(t, crGVR, "", obj("rbac.authorization.k8s.io/v1", "ClusterRole", "owner-role"))
		cm := c.Create(t, configMaps, "default", obj("v1", "ConfigMap", "ns-owner"))
		c.Create(t, configMaps, "default", obj("v1", "ConfigMap", "dep", app.NewControllerRef(cr)))
		c.Create(t, crGVR, "", obj("rbac.authorization.k8s.io/v1", "ClusterRole", "bad-ref", app.NewControllerRef(cm)))
		c.Settle()
		del(t, c, crGVR, "", "owner-role", "")
		c.Eventually(t, 30*time.Second, gone(t, c, configMaps, "default", "dep"))
		del(t, c, configMaps, "default", "ns-owner", "")
		time.Sleep(30 * time.Second)
		c.Settle()
		require.NotNil(t, c.Get(t, crGVR, "", "bad-ref"), "a cluster-scoped object cannot be owned by a namespaced one")
	})
}

// TestCh14_GC_ClusterScopedDependentOfUnseenNamespacedOwner: a cluster-scoped object that
// names a namespaced owner the collector has not observed (it never existed, or its informer
// has not delivered it yet) makes a virtual owner without a namespace. Upstream's getObject
// refuses to look that owner up instead of taking the 404 as its absence, so the dependent
// stays. (Observed in the other order, the same objects made TestCh14_GC_ClusterScopedOwner
// flaky before getObject did the same.)
func TestCh14_GC_ClusterScopedDependentOfUnseenNamespacedOwner(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"garbagecollector"}})
		crGVR := api.GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterroles"}
		ghost := api.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: "never-created", UID: "00000000-0000-0000-0000-0000000000aa"}
		c.Create(t, crGVR, "", obj("rbac.authorization.k8s.io/v1", "ClusterRole", "names-a-ghost", ghost))
		time.Sleep(30 * time.Second)
		c.Settle()
		require.NotNil(t, c.Get(t, crGVR, "", "names-a-ghost"), "a cluster-scoped object cannot be owned by a namespaced one")
	})
}

// TestCh14_GC_OwnerInAnotherNamespace: an owner is looked for in its dependent's namespace.
// A dependent naming the UID of an owner observed in another namespace is reported with a
// Warning OwnerRefInvalidNamespace event and collected, its owner being absent where it
// looks.
func TestCh14_GC_OwnerInAnotherNamespace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"garbagecollector"}})
		c.Create(t, app.Namespaces, "", obj("v1", "Namespace", "other"))
		owner := c.Create(t, configMaps, "default", obj("v1", "ConfigMap", "owner"))
		c.Settle()
		c.Create(t, configMaps, "other", obj("v1", "ConfigMap", "dep", app.NewControllerRef(owner)))
		c.Eventually(t, 30*time.Second, gone(t, c, configMaps, "other", "dep"))
		require.NotNil(t, c.Get(t, configMaps, "default", "owner"))
		var reasons, messages []string
		for _, e := range c.List(t, app.Events, "other") {
			reasons = append(reasons, app.NestedString(e.Object, "reason"))
			messages = append(messages, app.NestedString(e.Object, "note"))
		}
		require.Contains(t, reasons, "OwnerRefInvalidNamespace")
		require.Contains(t, messages, `ownerRef [v1/ConfigMap, namespace: other, name: owner, uid: `+owner.GetUID()+`] does not exist in namespace "other"`)
	})
}

// TestCh14_GC_JobOrphansByDefault: a batch/v1 Job deleted without a propagation policy
// orphans its pods (the server adds the orphan finalizer, the collector strips the pods'
// references and then the finalizer); with Background its pods go.
func TestCh14_GC_JobOrphansByDefault(t *testing.T) {
	cases := []struct {
		policy   string
		wantPods int
	}{{"", 1}, {api.DeletePropagationBackground, 0}}
	for _, tc := range cases {
		t.Run("policy="+tc.policy, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				c := cluster.Start(t, cluster.Options{Controllers: []string{"garbagecollector"}})
				job := obj("batch/v1", "Job", "j")
				job["spec"] = map[string]any{"template": map[string]any{"spec": map[string]any{"restartPolicy": "Never",
					"containers": []any{map[string]any{"name": "c", "image": "busybox"}}}}}
				j := c.Create(t, app.Jobs, "default", job)
				c.Create(t, app.Pods, "default", pod("j-1", app.NewControllerRef(j)))
				c.Settle()
				del(t, c, app.Jobs, "default", "j", tc.policy)
				c.Eventually(t, 30*time.Second, func() bool {
					return c.Get(t, app.Jobs, "default", "j") == nil && len(podNames(t, c)) == tc.wantPods
				})
				if tc.wantPods == 1 {
					require.Empty(t, c.Get(t, app.Pods, "default", "j-1").GetOwnerReferences())
				}
			})
		})
	}
}
