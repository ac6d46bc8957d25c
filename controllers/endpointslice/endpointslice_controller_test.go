package endpointslice_test

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
)

// TestCh14_EndpointSlice_ReadyPods: a Service's slice lists its pods with IPs, with their
// conditions, node, zone, pod reference and the named port resolved; it follows readiness
// and deletion.
func TestCh14_EndpointSlice_ReadyPods(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"endpointslice"}})
		createNode(t, c, "n1", "zone-a")
		svc := c.Create(t, app.Services, "default", webService("web", nil))
		for i, ip := range []string{"10.0.0.1", "10.0.0.2", "10.0.0.3", ""} {
			name := fmt.Sprintf("web-%d", i)
			createPod(t, c, "default", name, "n1", map[string]any{"app": "web"})
			setPodStatus(t, c, "default", name, ip, i < 2)
		}
		createPod(t, c, "default", "other", "n1", map[string]any{"app": "other"})
		setPodStatus(t, c, "default", "other", "10.0.0.9", true)
		want := map[string]string{"10.0.0.1": "true/true/false", "10.0.0.2": "true/true/false", "10.0.0.3": "false/false/false"}
		c.Eventually(t, 10*time.Second, func() bool { return fmt.Sprint(endpointsOf(t, c, "default", "web")) == fmt.Sprint(want) })

		ss := slicesOf(t, c, "default", "web")
		require.Len(t, ss, 1)
		s := ss[0]
		require.Equal(t, "web-", s.GetGenerateName())
		require.Equal(t, map[string]string{"kubernetes.io/service-name": "web", "tier": "front",
			"endpointslice.kubernetes.io/managed-by": "endpointslice-controller.k8s.io"}, s.GetLabels())
		require.Equal(t, "IPv4", s.Object["addressType"])
		ref := app.GetControllerOf(&s)
		require.NotNil(t, ref)
		require.Equal(t, svc.GetUID(), ref.UID)
		require.Equal(t, "Service", ref.Kind)
		require.Equal(t, []any{map[string]any{"name": "http", "port": int64(8080), "protocol": "TCP"}}, s.Object["ports"])
		ep := s.Object["endpoints"].([]any)[0].(map[string]any)
		require.Equal(t, "n1", ep["nodeName"])
		require.Equal(t, "zone-a", ep["zone"])
		tr := ep["targetRef"].(map[string]any)
		require.Equal(t, "Pod", tr["kind"])
		require.Equal(t, "web-0", tr["name"])
		require.NotEmpty(t, s.GetAnnotations()["endpoints.kubernetes.io/last-change-trigger-time"])

		setPodStatus(t, c, "default", "web-2", "10.0.0.3", true)
		want["10.0.0.3"] = "true/true/false"
		c.Eventually(t, 10*time.Second, func() bool { return fmt.Sprint(endpointsOf(t, c, "default", "web")) == fmt.Sprint(want) })
		require.NoError(t, c.Client.Resource(app.Pods).Namespace("default").Delete(context.Background(), "web-0", api.DeleteOptions{GracePeriodSeconds: new(int64)}))
		delete(want, "10.0.0.1")
		c.Eventually(t, 10*time.Second, func() bool { return fmt.Sprint(endpointsOf(t, c, "default", "web")) == fmt.Sprint(want) })
		require.Len(t, slicesOf(t, c, "default", "web"), 1, "updated in place")
	})
}

// TestCh14_EndpointSlice_Terminating: a pod being deleted (held here by a finalizer) stays
// in the slice as terminating, serving but not ready; gone, it leaves the slice.
func TestCh14_EndpointSlice_Terminating(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"endpointslice"}})
		createNode(t, c, "n1", "")
		c.Create(t, app.Services, "default", webService("web", nil))
		c.Create(t, app.Pods, "default", map[string]any{"apiVersion": "v1", "kind": "Pod",
			"metadata": map[string]any{"name": "web-0", "labels": map[string]any{"app": "web"}, "finalizers": []any{"example.com/hold"}},
			"spec": map[string]any{"nodeName": "n1", "containers": []any{map[string]any{"name": "c", "image": "nginx",
				"ports": []any{map[string]any{"name": "http", "containerPort": int64(8080)}}}}}})
		setPodStatus(t, c, "default", "web-0", "10.0.0.1", true)
		c.Eventually(t, 10*time.Second, func() bool { return fmt.Sprint(endpointsOf(t, c, "default", "web")) == "map[10.0.0.1:true/true/false]" })
		ctx := context.Background()
		pods := c.Client.Resource(app.Pods).Namespace("default")
		require.NoError(t, pods.Delete(ctx, "web-0", api.DeleteOptions{}))
		c.Eventually(t, 10*time.Second, func() bool { return fmt.Sprint(endpointsOf(t, c, "default", "web")) == "map[10.0.0.1:false/true/true]" })
		_, err := pods.Patch(ctx, "web-0", api.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), api.PatchOptions{})
		require.NoError(t, err)
		// A bound pod waits for its kubelet's final delete, which this test plays.
		zero := int64(0)
		require.NoError(t, pods.Delete(ctx, "web-0", api.DeleteOptions{GracePeriodSeconds: &zero}))
		c.Eventually(t, 10*time.Second, func() bool { return len(endpointsOf(t, c, "default", "web")) == 0 })
		require.Len(t, slicesOf(t, c, "default", "web"), 1, "the placeholder")
	})
}
