package endpointslice_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
)

// The kubelet is not part of these tests: setPodStatus plays it, through the status
// subresource, and nodes are plain Node objects.

func createNode(t *testing.T, c *cluster.Cluster, name, zone string) {
	t.Helper()
	l := map[string]any{"kubernetes.io/hostname": name}
	if zone != "" {
		l["topology.kubernetes.io/zone"] = zone
	}
	c.Create(t, app.Nodes, "", map[string]any{"apiVersion": "v1", "kind": "Node", "metadata": map[string]any{"name": name, "labels": l}})
}

func createPod(t *testing.T, c *cluster.Cluster, ns, name, node string, lbls map[string]any) *api.Unstructured {
	t.Helper()
	return c.Create(t, app.Pods, ns, map[string]any{"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"name": name, "labels": lbls},
		"spec": map[string]any{"nodeName": node, "containers": []any{map[string]any{"name": "c", "image": "nginx",
			"ports": []any{map[string]any{"name": "http", "containerPort": int64(8080)}}}}}})
}

// setPodStatus gives the pod an IP (none when ip is "") and a Ready condition.
func setPodStatus(t *testing.T, c *cluster.Cluster, ns, name, ip string, ready bool) {
	t.Helper()
	ctx := context.Background()
	pods := c.Client.Resource(app.Pods).Namespace(ns)
	pod, err := pods.Get(ctx, name, api.GetOptions{})
	require.NoError(t, err)
	status := map[string]any{"phase": "Running"}
	if ip != "" {
		status["podIP"] = ip
		status["podIPs"] = []any{map[string]any{"ip": ip}}
	}
	r := "False"
	if ready {
		r = "True"
	}
	status["conditions"] = []any{map[string]any{"type": "Ready", "status": r,
		"lastTransitionTime": time.Now().UTC().Format(time.RFC3339)}}
	pod.Object["status"] = status
	_, err = pods.UpdateStatus(ctx, pod, api.UpdateOptions{})
	require.NoError(t, err)
}

func webService(name string, extra map[string]any) map[string]any {
	spec := map[string]any{"selector": map[string]any{"app": name},
		"ports": []any{map[string]any{"name": "http", "port": int64(80), "targetPort": "http"}}}
	for k, v := range extra {
		spec[k] = v
	}
	return map[string]any{"apiVersion": "v1", "kind": "Service", "metadata": map[string]any{"name": name, "labels": map[string]any{"tier": "front"}}, "spec": spec}
}

// slicesOf lists the managed slices of a Service.
func slicesOf(t *testing.T, c *cluster.Cluster, ns, svc string) []api.Unstructured {
	t.Helper()
	var out []api.Unstructured
	for _, s := range c.List(t, app.EndpointSlices, ns) {
		if s.GetLabels()["kubernetes.io/service-name"] == svc {
			out = append(out, s)
		}
	}
	return out
}

// readyAddresses summarises a Service's slices: address → "ready/serving/terminating".
func endpointsOf(t *testing.T, c *cluster.Cluster, ns, svc string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, s := range slicesOf(t, c, ns, svc) {
		eps, _ := s.Object["endpoints"].([]any)
		for _, e := range eps {
			m := e.(map[string]any)
			cond := m["conditions"].(map[string]any)
			addr := m["addresses"].([]any)[0].(string)
			out[addr] = fmt.Sprintf("%v/%v/%v", cond["ready"], cond["serving"], cond["terminating"])
		}
	}
	return out
}

type syncBuffer = cluster.TraceBuffer

// bulkReadyPods creates n ready pods through the server's Go API (no HTTP, no JSON): the
// capacity tests need a thousand of them.
func bulkReadyPods(t *testing.T, c *cluster.Cluster, prefix, app_ string, n int, ip func(int) string) {
	t.Helper()
	ctx := context.Background()
	now := time.Now().UTC().Format(time.RFC3339)
	for i := range n {
		pod := &api.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Pod",
			"metadata": map[string]any{"name": fmt.Sprintf("%s-%04d", prefix, i), "namespace": "default", "labels": map[string]any{"app": app_}},
			"spec": map[string]any{"nodeName": "n1", "containers": []any{map[string]any{"name": "c", "image": "nginx",
				"ports": []any{map[string]any{"name": "http", "containerPort": int64(8080)}}}}}}}
		created, err := c.Server.Create(ctx, "pods", "default", pod)
		require.NoError(t, err)
		u := pod // the Go API answers with typed objects: the unstructured one, at the new version
		u.SetResourceVersion(created.(interface{ GetResourceVersion() string }).GetResourceVersion())
		u.Object["status"] = map[string]any{"phase": "Running", "podIP": ip(i), "podIPs": []any{map[string]any{"ip": ip(i)}},
			"conditions": []any{map[string]any{"type": "Ready", "status": "True", "lastTransitionTime": now}}}
		_, err = c.Server.UpdateStatus(ctx, "pods", "default", u)
		require.NoError(t, err)
	}
}
