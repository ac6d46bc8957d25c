package kubelet_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/controllers/kubelet"
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
// an IP of its node's CIDR; a delete marks it, and the kubelet stops a container that ignores
// SIGTERM (stop-seconds beyond the grace period) at the end of the grace period, then
// deletes the pod. One that stops at once (the default, 1 s) goes in a second.
func TestCh14_Kubelet_PodRunsAndIsDeletedGracefully(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"kubelet"}, Nodes: 2})
		c.Eventually(t, 5*time.Second, func() bool { return c.Get(t, app.Nodes, "", "sim-node-1") != nil })
		c.Create(t, app.Pods, "default", boundPod("quick", "sim-node-1", nil, ""))
		c.Eventually(t, 10*time.Second, func() bool { return app.IsPodReady(c.Get(t, app.Pods, "default", "quick")) })
		require.NoError(t, c.Client.Resource(app.Pods).Namespace("default").Delete(context.Background(), "quick", api.DeleteOptions{}))
		require.NotNil(t, c.Get(t, app.Pods, "default", "quick"), "a bound pod is deleted gracefully")
		time.Sleep(2 * time.Second)
		synctest.Wait()
		require.Nil(t, c.Get(t, app.Pods, "default", "quick"), "gone a second after the delete")

		c.Create(t, app.Pods, "default", boundPod("web", "sim-node-1", map[string]any{kubelet.StopSecondsAnnotation: "600"}, ""))
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

// TestCh14_Kubelet_ScriptedExit: a pod of restartPolicy Never whose container runs 5 s and
// exits 2 (the annotations a Job's template sets) ends Failed with a terminated state; with
// exit 0 it ends Succeeded; kubectl logs' source, the status, records the one start.
func TestCh14_Kubelet_ScriptedExit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"kubelet"}, Nodes: 1})
		c.Eventually(t, 5*time.Second, func() bool { return c.Get(t, app.Nodes, "", "sim-node-0") != nil })
		for name, code := range map[string]string{"fails": "2", "works": "0"} {
			c.Create(t, app.Pods, "default", boundPod(name, "sim-node-0",
				map[string]any{"sim.informer-lab.dev/run-seconds": "5", "sim.informer-lab.dev/exit-code": code}, "Never"))
		}
		c.Eventually(t, 5*time.Second, func() bool { return app.IsPodReady(c.Get(t, app.Pods, "default", "fails")) })
		started := time.Now()
		c.Eventually(t, 10*time.Second, func() bool {
			return app.PodPhase(c.Get(t, app.Pods, "default", "fails")) == "Failed" && app.PodPhase(c.Get(t, app.Pods, "default", "works")) == "Succeeded"
		})
		assert.InDelta(t, 5, time.Since(started).Seconds(), 1.5)
		st := containerState(c.Get(t, app.Pods, "default", "fails"))
		code, _ := app.NestedInt64(st, "state", "terminated", "exitCode")
		assert.Equal(t, int64(2), code)
		assert.Equal(t, "Error", app.NestedString(st, "state", "terminated", "reason"))
		assert.Equal(t, int64(0), st["restartCount"])
		assert.Equal(t, "False", app.PodConditionStatus(c.Get(t, app.Pods, "default", "works"), "Ready"))
		// A terminated pod is deleted at once, with no kubelet step.
		require.NoError(t, c.Client.Resource(app.Pods).Namespace("default").Delete(context.Background(), "works", api.DeleteOptions{}))
		assert.Nil(t, c.Get(t, app.Pods, "default", "works"))
	})
}
