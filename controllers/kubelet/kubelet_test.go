package kubelet_test

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

// boundPod is a pod already bound to node (no scheduler needed).
func boundPod(name, node string, ann map[string]any, restart string) map[string]any {
	meta := map[string]any{"name": name}
	if ann != nil {
		meta["annotations"] = ann
	}
	spec := map[string]any{"containers": []any{map[string]any{"name": "c", "image": "nginx"}}}
	if node != "" {
		spec["nodeName"] = node
	}
	if restart != "" {
		spec["restartPolicy"] = restart
	}
	return map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec}
}

func containerState(pod *api.Unstructured) map[string]any {
	cs, _ := app.Nested(pod.Object, "status", "containerStatuses")
	list, _ := cs.([]any)
	if len(list) == 0 {
		return nil
	}
	m, _ := list[0].(map[string]any)
	return m
}

// TestCh14_Kubelet_PodRunsAndIsDeletedGracefully: a bound pod becomes Running and Ready with
// an IP of its node's CIDR; a delete marks it, the kubelet stops it after the grace period
// and deletes it.
func TestCh14_Kubelet_PodRunsAndIsDeletedGracefully(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"kubelet"}, Nodes: 2})
		c.Eventually(t, 5*time.Second, func() bool { return c.Get(t, app.Nodes, "", "sim-node-1") != nil })
		c.Create(t, app.Pods, "default", boundPod("web", "sim-node-1", nil, ""))
		c.Eventually(t, 10*time.Second, func() bool { return app.IsPodReady(c.Get(t, app.Pods, "default", "web")) })
		pod := c.Get(t, app.Pods, "default", "web")
		require.Equal(t, "Running", app.PodPhase(pod))
		require.Equal(t, "10.244.1.2", app.NestedString(pod.Object, "status", "podIP"))
		require.Equal(t, "172.18.0.3", app.NestedString(pod.Object, "status", "hostIP"))
		require.Equal(t, true, containerState(pod)["ready"])

		require.NoError(t, c.Client.Resource(app.Pods).Namespace("default").Delete(context.Background(), "web", api.DeleteOptions{}))
		pod = c.Get(t, app.Pods, "default", "web")
		require.NotNil(t, pod, "a bound pod is deleted gracefully")
		require.NotNil(t, pod.GetDeletionTimestamp())
		require.Equal(t, int64(30), *pod.GetDeletionGracePeriodSeconds())
		time.Sleep(29 * time.Second)
		synctest.Wait()
		require.NotNil(t, c.Get(t, app.Pods, "default", "web"), "still terminating within the grace period")
		c.Eventually(t, 5*time.Second, func() bool { return c.Get(t, app.Pods, "default", "web") == nil })
	})
}
