package podautoscaler_test

import (
	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/controllers/app"
)

// TestCh14_HPA_ScaleUpOnCPU: 90 % of request against a 50 % target doubles two replicas
// to four (ceil(2 × 1.8)), with upstream's event, status and conditions.
func TestCh14_HPA_ScaleUpOnCPU(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := start(t, 2)
		cpu(t, c, 90)
		c.Create(t, app.HorizontalPodAutoscalers, "default", hpaV2(nil))
		c.Eventually(t, 30*time.Second, func() bool { return replicasOf(t, c) == 4 })
		require.Equal(t, []string{"New size: 4; reason: cpu resource utilization (percentage of request) above target"}, events(t, c, "SuccessfulRescale"))
		c.Eventually(t, 30*time.Second, func() bool {
			st := app.NestedMap(c.Get(t, app.HorizontalPodAutoscalers, "default", "web").Object, "status")
			return st["desiredReplicas"] == int64(4) && st["currentReplicas"] == int64(4)
		})
		h := c.Get(t, app.HorizontalPodAutoscalers, "default", "web")
		cur := asList(app.NestedMap(h.Object, "status")["currentMetrics"])[0].(map[string]any)["resource"].(map[string]any)["current"].(map[string]any)
		require.Equal(t, int64(90), cur["averageUtilization"])
		require.Equal(t, "90m", cur["averageValue"])
		require.NotEmpty(t, app.NestedString(h.Object, "status", "lastScaleTime"))
		require.Equal(t, map[string]string{"AbleToScale": "True/ReadyForNewScale", "ScalingActive": "True/ValidMetricFound",
			"ScalingLimited": "False/DesiredWithinRange"}, conditions(t, c))
	})
}

// TestCh14_HPA_ToleranceAndDownscaleStabilization: a ratio within 0.1 changes nothing; a
// drop is held for the 300 s window (the highest recent recommendation wins), then applied,
// down to minReplicas.
func TestCh14_HPA_ToleranceAndDownscaleStabilization(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := start(t, 4)
		cpu(t, c, 54)
		c.Create(t, app.HorizontalPodAutoscalers, "default", hpaV2(map[string]any{"minReplicas": int64(2)}))
		c.Eventually(t, 30*time.Second, func() bool { return conditions(t, c)["ScalingActive"] == "True/ValidMetricFound" })
		require.EqualValues(t, 4, replicasOf(t, c), "54 % of a 50 % target is within tolerance")
		cpu(t, c, 10)
		began := time.Now()
		c.Eventually(t, 60*time.Second, func() bool { return conditions(t, c)["AbleToScale"] == "True/ScaleDownStabilized" })
		require.EqualValues(t, 4, replicasOf(t, c))
		c.Eventually(t, 10*time.Minute, func() bool { return replicasOf(t, c) == 2 })
		require.GreaterOrEqual(t, time.Since(began), 5*time.Minute)
		require.Equal(t, "True/TooFewReplicas", conditions(t, c)["ScalingLimited"])
		require.Contains(t, events(t, c, "SuccessfulRescale"), "New size: 2; reason: All metrics below target")
	})
}

// TestCh14_HPA_Limits: maxReplicas clamps (TooManyReplicas); without behavior a scale-up is
// at most max(2 × current, 4) a step (ScaleUpLimit); with the default behavior at most 100 %
// or 4 pods per 15 s.
func TestCh14_HPA_Limits(t *testing.T) {
	tests := []struct {
		name      string
		spec      map[string]any
		want      int64
		condition string
	}{
		{"maxReplicas", map[string]any{"maxReplicas": int64(3)}, 3, "True/TooManyReplicas"},
		{"no behavior: max(2 × current, 4)", map[string]any{"maxReplicas": int64(50)}, 4, "True/ScaleUpLimit"},
		{"default behavior: 100 % or 4 pods", map[string]any{"maxReplicas": int64(50), "behavior": map[string]any{}}, 6, "True/ScaleUpLimit"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				c := start(t, 2)
				cpu(t, c, 500)
				c.Create(t, app.HorizontalPodAutoscalers, "default", hpaV2(tc.spec))
				c.Eventually(t, 30*time.Second, func() bool { return replicasOf(t, c) != 2 })
				require.Equal(t, tc.want, replicasOf(t, c))
				c.Eventually(t, 10*time.Second, func() bool { return conditions(t, c)["ScalingLimited"] == tc.condition }, "%v", conditions(t, c))
			})
		})
	}
}

// TestCh14_HPA_Failures: without metrics the HPA is not active (FailedGetResourceMetric);
// a target that does not exist cannot be scaled (FailedGetScale); autoscaling/v1 HPAs work
// the same.
func TestCh14_HPA_Failures(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := start(t, 2)
		c.Create(t, app.HorizontalPodAutoscalers, "default", hpaV2(nil))
		c.Eventually(t, 30*time.Second, func() bool {
			return conditions(t, c)["ScalingActive"] == "False/FailedGetResourceMetric"
		})
		require.NotEmpty(t, events(t, c, "FailedGetResourceMetric"))

		missing := hpaV2(map[string]any{"scaleTargetRef": map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "name": "nope"}})
		missing["metadata"] = map[string]any{"name": "nope"}
		c.Create(t, app.HorizontalPodAutoscalers, "default", missing)
		c.Eventually(t, 30*time.Second, func() bool { return len(events(t, c, "FailedGetScale")) > 0 })

		cpu(t, c, 100)
		c.Create(t, autoscalingV1, "default", map[string]any{"apiVersion": "autoscaling/v1", "kind": "HorizontalPodAutoscaler",
			"metadata": map[string]any{"name": "v1"}, "spec": map[string]any{"scaleTargetRef": map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"},
				"maxReplicas": int64(10), "targetCPUUtilizationPercentage": int64(50)}})
		c.Eventually(t, 30*time.Second, func() bool { return replicasOf(t, c) == 4 })
	})
}

// TestCh14_HPA_Targets: ReplicaSets and StatefulSets are scaled through their scale
// subresource as Deployments are.
func TestCh14_HPA_Targets(t *testing.T) {
	for _, tc := range []struct {
		kind string
		gvr  api.GroupVersionResource
	}{{"ReplicaSet", app.ReplicaSets}, {"StatefulSet", app.StatefulSets}} {
		t.Run(tc.kind, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				c := start(t, 2)
				dep := c.Get(t, app.Deployments, "default", "web")
				spec := app.NestedMap(dep.Object, "spec")
				obj := map[string]any{"apiVersion": "apps/v1", "kind": tc.kind, "metadata": map[string]any{"name": "target"},
					"spec": map[string]any{"replicas": int64(2), "selector": spec["selector"], "template": spec["template"]}}
				if tc.kind == "StatefulSet" {
					obj["spec"].(map[string]any)["serviceName"] = "web"
				}
				c.Create(t, tc.gvr, "default", obj)
				cpu(t, c, 90)
				c.Create(t, app.HorizontalPodAutoscalers, "default", hpaV2(map[string]any{
					"scaleTargetRef": map[string]any{"apiVersion": "apps/v1", "kind": tc.kind, "name": "target"}}))
				c.Eventually(t, 30*time.Second, func() bool {
					n, _ := app.NestedInt64(c.Get(t, tc.gvr, "default", "target").Object, "spec", "replicas")
					return n == 4
				})
			})
		})
	}
}

// TestCh14_HPA_PodsMetric: a Pods metric with an average-value target: 20 per pod against
// 10 doubles the replicas; currentMetrics shows the average.
func TestCh14_HPA_PodsMetric(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := start(t, 2)
		require.NoError(t, c.Server.SetMetric(apiserver.SimulatedMetric{Namespace: "default", Metric: "requests_per_second", Value: "20"}))
		c.Create(t, app.HorizontalPodAutoscalers, "default", hpaV2(map[string]any{"metrics": []any{map[string]any{"type": "Pods",
			"pods": map[string]any{"metric": map[string]any{"name": "requests_per_second"}, "target": map[string]any{"type": "AverageValue", "averageValue": "10"}}}}}))
		c.Eventually(t, 30*time.Second, func() bool { return replicasOf(t, c) == 4 })
		require.Equal(t, []string{"New size: 4; reason: pods metric requests_per_second above target"}, events(t, c, "SuccessfulRescale"))
		c.Eventually(t, 30*time.Second, func() bool {
			h := c.Get(t, app.HorizontalPodAutoscalers, "default", "web")
			ms := asList(app.NestedMap(h.Object, "status")["currentMetrics"])
			return len(ms) == 1 && app.NestedString(ms[0].(map[string]any), "pods", "current", "averageValue") == "20"
		})
	})
}
