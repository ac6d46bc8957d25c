package disruption_test

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

// TestCh14_Disruption_EvictionHonoursBudget: with minAvailable 2 of 3 ready pods, one
// eviction goes through and the next is refused with 429 until a new pod is ready; the
// evicted pod leaves disruptedPods once it is gone.
func TestCh14_Disruption_EvictionHonoursBudget(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"disruption"}})
		for i := range 3 {
			ownedPod(t, c, fmt.Sprintf("web-%d", i), fmt.Sprintf("10.0.0.%d", i+1), map[string]any{"app": "web"}, nil)
		}
		c.Create(t, app.PodDisruptionBudgets, "default", budget("web", map[string]any{"minAvailable": int64(2)}))
		waitStatus(t, c, "web", "healthy=3 desired=2 expected=3 allowed=1 gen=1 disrupted=0 True/SufficientPods")
		require.NoError(t, evict(c, "web-0"))
		waitStatus(t, c, "web", "healthy=2 desired=2 expected=2 allowed=0 gen=1 disrupted=0 False/InsufficientPods")
		err := evict(c, "web-1")
		require.True(t, api.IsTooManyRequests(err), "%v", err)
		require.Contains(t, err.Error(), "Cannot evict pod as it would violate the pod's disruption budget.")
		require.NotNil(t, c.Get(t, app.Pods, "default", "web-1"))

		ownedPod(t, c, "web-3", "10.0.0.4", map[string]any{"app": "web"}, nil)
		waitStatus(t, c, "web", "healthy=3 desired=2 expected=3 allowed=1 gen=1 disrupted=0 True/SufficientPods")
		require.NoError(t, evict(c, "web-1"))
	})
}

// TestCh14_Disruption_Counts: how each kind of budget counts, against the scales of the
// pods' controllers.
func TestCh14_Disruption_Counts(t *testing.T) {
	deployment := map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "web"},
		"spec": map[string]any{"replicas": int64(4), "selector": map[string]any{"matchLabels": map[string]any{"app": "web"}},
			"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "web"}},
				"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "nginx"}}}}}}
	tests := []struct {
		name   string
		spec   map[string]any
		owner  string // "", "deployment", "replicationcontroller"
		want   string
		events []string
	}{
		{"minAvailable int counts the pods", map[string]any{"minAvailable": int64(1)}, "",
			"healthy=3 desired=1 expected=3 allowed=2 gen=1 disrupted=0 True/SufficientPods", nil},
		{"maxUnavailable percent uses the Deployment's scale", map[string]any{"maxUnavailable": "25%"}, "deployment",
			"healthy=3 desired=3 expected=4 allowed=0 gen=1 disrupted=0 False/InsufficientPods", nil},
		{"minAvailable percent rounds up", map[string]any{"minAvailable": "50%"}, "deployment",
			"healthy=3 desired=2 expected=4 allowed=1 gen=1 disrupted=0 True/SufficientPods", nil},
		{"maxUnavailable int through the scale subresource", map[string]any{"maxUnavailable": int64(2)}, "replicationcontroller",
			"healthy=3 desired=3 expected=5 allowed=0 gen=1 disrupted=0 False/InsufficientPods", nil},
		{"percent with unmanaged pods", map[string]any{"minAvailable": "50%"}, "",
			"healthy=3 desired=0 expected=0 allowed=0 gen=1 disrupted=0 False/InsufficientPods", []string{"UnmanagedPods"}},
		{"a controller that cannot be found fails safe", map[string]any{"maxUnavailable": int64(1)}, "missing",
			"healthy=0 desired=0 expected=0 allowed=0 gen=<nil> disrupted=0 False/SyncFailed", []string{"CalculateExpectedPodCountFailed"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				c := cluster.Start(t, cluster.Options{Controllers: []string{"disruption"}})
				var owner *api.Unstructured
				switch tc.owner {
				case "deployment":
					d := c.Create(t, app.Deployments, "default", deployment)
					ref := app.NewControllerRef(d)
					owner = c.Create(t, app.ReplicaSets, "default", map[string]any{"apiVersion": "apps/v1", "kind": "ReplicaSet",
						"metadata": map[string]any{"name": "web-1", "ownerReferences": []any{map[string]any{"apiVersion": ref.APIVersion, "kind": ref.Kind, "name": ref.Name, "uid": ref.UID, "controller": true}}},
						"spec":     map[string]any{"replicas": int64(3), "selector": deployment["spec"].(map[string]any)["selector"], "template": deployment["spec"].(map[string]any)["template"]}})
				case "replicationcontroller":
					owner = c.Create(t, api.GroupVersionResource{Version: "v1", Resource: "replicationcontrollers"}, "default", map[string]any{
						"apiVersion": "v1", "kind": "ReplicationController", "metadata": map[string]any{"name": "web"},
						"spec": map[string]any{"replicas": int64(5), "selector": map[string]any{"app": "web"}, "template": deployment["spec"].(map[string]any)["template"]}})
				case "missing":
					owner = &api.Unstructured{Object: map[string]any{"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": map[string]any{"name": "gone", "uid": "no-such-uid"}}}
				}
				for i := range 3 {
					ownedPod(t, c, fmt.Sprintf("web-%d", i), fmt.Sprintf("10.0.0.%d", i+1), map[string]any{"app": "web"}, owner)
				}
				// The controller's pod cache holds the pods before the budget arrives: a budget
				// synced over an empty cache succeeds once (observedGeneration 1) before the
				// pods' missing owner makes it fail safe, upstream as here.
				c.Settle()
				c.Create(t, app.PodDisruptionBudgets, "default", budget("web", tc.spec))
				waitStatus(t, c, "web", tc.want)
				var reasons []string
				for _, e := range c.List(t, api.GroupVersionResource{Version: "v1", Resource: "events"}, "default") {
					if e.Object["type"] == "Warning" {
						reasons = append(reasons, e.Object["reason"].(string))
					}
				}
				for _, want := range tc.events {
					require.Contains(t, reasons, want)
				}
				if len(tc.events) == 0 {
					require.Empty(t, reasons)
				}
			})
		})
	}
}

// TestCh14_Disruption_StaleDisruptionTarget: a pod marked for eviction that was not deleted
// has its DisruptionTarget condition set back to False after two minutes; the kubelet's own
// is left alone.
func TestCh14_Disruption_StaleDisruptionTarget(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"disruption"}})
		start := time.Now()
		for name, reason := range map[string]string{"marked": "EvictionByEvictionAPI", "kubelet": "TerminationByKubelet"} {
			ownedPod(t, c, name, "10.0.0.1", map[string]any{"app": "web"}, nil)
			pods := c.Client.Resource(app.Pods).Namespace("default")
			pod, err := pods.Get(context.Background(), name, api.GetOptions{})
			require.NoError(t, err)
			st := pod.Object["status"].(map[string]any)
			st["conditions"] = append(st["conditions"].([]any), map[string]any{"type": "DisruptionTarget", "status": "True",
				"reason": reason, "lastTransitionTime": time.Now().UTC().Format(time.RFC3339)})
			_, err = pods.UpdateStatus(context.Background(), pod, api.UpdateOptions{})
			require.NoError(t, err)
		}
		status := func(name string) string {
			return app.PodConditionStatus(c.Get(t, app.Pods, "default", name), "DisruptionTarget")
		}
		c.Eventually(t, 5*time.Minute, func() bool { return status("marked") == "False" })
		require.GreaterOrEqual(t, time.Since(start), 2*time.Minute)
		require.Equal(t, "True", status("kubelet"))
	})
}
