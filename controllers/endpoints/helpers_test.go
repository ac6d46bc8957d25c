package endpoints_test

import (
	"bytes"
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
)

// The kubelet is not part of these tests: setPodStatus plays it, through the status
// subresource, and nodes are plain Node objects.

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

// syncBuffer is a bytes.Buffer the controllers' goroutines can write while the test reads.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
