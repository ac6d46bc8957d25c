package podautoscaler_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
)

// start runs the HPA controller against a server that serves the simulated metrics, with a
// Deployment "web" of replicas and as many ready pods requesting 100m of cpu. The
// Deployment controller does not run: the pods stay as they are, the HPA reads them.
func start(t *testing.T, replicas int, opts ...func(*cluster.Options)) *cluster.Cluster {
	t.Helper()
	o := cluster.Options{Controllers: []string{"podautoscaler"}, Server: apiserver.Options{DebugFaults: true}}
	for _, f := range opts {
		f(&o)
	}
	c := cluster.Start(t, o)
	tmpl := map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "web"}},
		"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "nginx",
			"resources": map[string]any{"requests": map[string]any{"cpu": "100m"}}}}}}
	c.Create(t, app.Deployments, "default", map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "web"},
		"spec": map[string]any{"replicas": int64(replicas), "selector": map[string]any{"matchLabels": map[string]any{"app": "web"}}, "template": tmpl}})
	for i := range replicas {
		name := fmt.Sprintf("web-%d", i)
		c.Create(t, app.Pods, "default", map[string]any{"apiVersion": "v1", "kind": "Pod",
			"metadata": map[string]any{"name": name, "labels": map[string]any{"app": "web"}}, "spec": tmpl["spec"]})
		setPodReady(t, c, name)
	}
	return c
}

// setPodReady plays the kubelet: Running, started now, Ready.
func setPodReady(t *testing.T, c *cluster.Cluster, name string) {
	t.Helper()
	ctx := context.Background()
	pods := c.Client.Resource(app.Pods).Namespace("default")
	pod, err := pods.Get(ctx, name, api.GetOptions{})
	require.NoError(t, err)
	now := time.Now().UTC().Format(time.RFC3339)
	pod.Object["status"] = map[string]any{"phase": "Running", "startTime": now, "podIP": "10.0.0.1",
		"conditions": []any{map[string]any{"type": "Ready", "status": "True", "lastTransitionTime": now}}}
	_, err = pods.UpdateStatus(ctx, pod, api.UpdateOptions{})
	require.NoError(t, err)
}

func cpu(t *testing.T, c *cluster.Cluster, percent int64) {
	t.Helper()
	require.NoError(t, c.Server.SetMetric(apiserver.SimulatedMetric{Namespace: "default", Metric: "cpu", Utilization: &percent}))
}

func hpaV2(spec map[string]any) map[string]any {
	base := map[string]any{"scaleTargetRef": map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"},
		"minReplicas": int64(1), "maxReplicas": int64(10),
		"metrics": []any{map[string]any{"type": "Resource", "resource": map[string]any{"name": "cpu",
			"target": map[string]any{"type": "Utilization", "averageUtilization": int64(50)}}}}}
	for k, v := range spec {
		base[k] = v
	}
	return map[string]any{"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "metadata": map[string]any{"name": "web"}, "spec": base}
}

func replicasOf(t *testing.T, c *cluster.Cluster) int64 {
	t.Helper()
	n, _ := app.NestedInt64(c.Get(t, app.Deployments, "default", "web").Object, "spec", "replicas")
	return n
}

// conditions summarises the HPA's conditions: type=status/reason.
func conditions(t *testing.T, c *cluster.Cluster) map[string]string {
	t.Helper()
	out := map[string]string{}
	h := c.Get(t, app.HorizontalPodAutoscalers, "default", "web")
	list, _ := app.Nested(h.Object, "status", "conditions")
	for _, x := range asList(list) {
		m := x.(map[string]any)
		out[m["type"].(string)] = m["status"].(string) + "/" + m["reason"].(string)
	}
	return out
}

var autoscalingV1 = api.GroupVersionResource{Group: "autoscaling", Version: "v1", Resource: "horizontalpodautoscalers"}

func asList(v any) []any { l, _ := v.([]any); return l }

// events lists the messages of the HPA's events of a reason.
func events(t *testing.T, c *cluster.Cluster, reason string) []string {
	t.Helper()
	var out []string
	for _, e := range c.List(t, api.GroupVersionResource{Version: "v1", Resource: "events"}, "default") {
		if e.Object["reason"] == reason {
			out = append(out, e.Object["message"].(string))
		}
	}
	return out
}

type syncBuffer = cluster.TraceBuffer
