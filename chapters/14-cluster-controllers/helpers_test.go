package ch14

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// namingPodControl creates pods named <replicaset>-1, -2, … in creation order, so traces
// and assertions name them; with dropAdds it first tells the server to lose the ADDED event
// of the pod it is about to create, so the informer's cache lags behind the server.
type namingPodControl struct {
	real     PodControl
	srv      *apiserver.Server
	n        atomic.Int64
	dropAdds atomic.Bool
	creates  atomic.Int64
}

func (p *namingPodControl) CreatePod(ctx context.Context, pod *api.Unstructured) (*api.Unstructured, error) {
	owner := strings.TrimSuffix(pod.GetGenerateName(), "-")
	pod.SetName(fmt.Sprintf("%s-%d", owner, p.n.Add(1)))
	if p.dropAdds.Load() {
		p.srv.DropNextEvents(apiserver.DropRule{Count: 1, Key: pod.GetNamespace() + "/" + pod.GetName()})
	}
	p.creates.Add(1)
	return p.real.CreatePod(ctx, pod)
}

func (p *namingPodControl) DeletePod(ctx context.Context, namespace, name string) error {
	return p.real.DeletePod(ctx, namespace, name)
}

// startRS runs the chapter's ReplicaSet controller against c as the manager runs a cluster
// controller: build it from a fresh context, start the factory, wait for the caches, run two
// workers; the cleanup stops it all before the server closes.
func startRS(t *testing.T, c *cluster.Cluster, logger *slog.Logger) (*ReplicaSetController, *namingPodControl) {
	t.Helper()
	rsc, pc, stop := startRSStoppable(t, c, logger, nil)
	t.Cleanup(stop)
	return rsc, pc
}

// startRSStoppable is startRS with the stop in the caller's hands: a restart of the
// controller is a stop and a fresh start (new caches, new queue, no expectations). A restart
// passes the pod control of the first start, so pod names keep counting up.
func startRSStoppable(t *testing.T, c *cluster.Cluster, logger *slog.Logger, pc *namingPodControl) (*ReplicaSetController, *namingPodControl, func()) {
	t.Helper()
	cc, err := app.NewControllerContext(c.Config, logger)
	require.NoError(t, err)
	if pc == nil {
		pc = &namingPodControl{real: clientPodControl{cc.Client}, srv: c.Server}
	}
	rsc, err := newReplicaSetController(cc, pc)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cc.InformerFactory.StartWithContext(ctx)
	for typ, ok := range cc.InformerFactory.WaitForCacheSyncWithContext(ctx).Synced {
		require.True(t, ok, "%v did not sync", typ)
	}
	done := make(chan struct{})
	go func() { rsc.Run(ctx, 2); close(done) }()
	var once sync.Once
	return rsc, pc, func() {
		once.Do(func() {
			cancel()
			<-done
			cc.InformerFactory.Shutdown()
		})
	}
}

// replicaSet is what `kubectl create deployment web --image=nginx --replicas=N` makes its
// Deployment controller create: a ReplicaSet named web-<hash>, here web-rs.
func replicaSet(name string, replicas int) map[string]any {
	labels := map[string]any{"app": "web"}
	return map[string]any{
		"apiVersion": "apps/v1", "kind": "ReplicaSet",
		"metadata": map[string]any{"name": name, "labels": labels},
		"spec": map[string]any{
			"replicas": int64(replicas),
			"selector": map[string]any{"matchLabels": labels},
			"template": map[string]any{
				"metadata": map[string]any{"labels": labels},
				"spec":     map[string]any{"containers": []any{map[string]any{"name": "nginx", "image": "nginx"}}},
			},
		},
	}
}

// podNames lists the names of the pods in namespace default, sorted.
func podNames(t *testing.T, c *cluster.Cluster) []string {
	t.Helper()
	var out []string
	for _, p := range c.List(t, app.Pods, "default") {
		out = append(out, p.GetName())
	}
	slices.Sort(out)
	return out
}

// scale sets spec.replicas of the ReplicaSet, as kubectl scale does.
func scale(t *testing.T, c *cluster.Cluster, name string, replicas int) {
	t.Helper()
	patch := fmt.Appendf(nil, `{"spec":{"replicas":%d}}`, replicas)
	_, err := c.Client.Resource(app.ReplicaSets).Namespace("default").Patch(context.Background(), name, api.MergePatchType, patch, api.PatchOptions{})
	require.NoError(t, err)
}

// markRunning plays the kubelet for one pod: scheduled on node-1, Running, and Ready or not.
func markRunning(t *testing.T, c *cluster.Cluster, name string, ready bool) {
	t.Helper()
	pods := c.Client.Resource(app.Pods).Namespace("default")
	pod := c.Get(t, app.Pods, "default", name)
	require.NotNil(t, pod)
	status := "False"
	if ready {
		status = "True"
	}
	pod.Object["status"] = map[string]any{
		"phase":      "Running",
		"conditions": []any{map[string]any{"type": "Ready", "status": status}},
	}
	_, err := pods.UpdateStatus(context.Background(), pod, api.UpdateOptions{})
	require.NoError(t, err)
}

// hopRecorder keeps the chapter controller's hops as lines "op key attrs…" (no rv: the
// order of parallel creates decides it), for golden traces.
type hopRecorder struct {
	mu    sync.Mutex
	lines []string
}

func (h *hopRecorder) logger() *slog.Logger {
	return slog.New(trace.NewTap(func(r *trace.Record) {
		if r.Component != Component {
			return
		}
		var b bytes.Buffer
		fmt.Fprintf(&b, "%-16s %s", r.Op, r.Key)
		for _, a := range r.Attrs {
			fmt.Fprintf(&b, " %s=%v", a.Key, a.Value)
		}
		h.mu.Lock()
		h.lines = append(h.lines, b.String())
		h.mu.Unlock()
	}))
}

// take returns the lines recorded since the last take, keeping only the ops given; a run of
// lines with the same op (the parallel creates of one batch, the parallel deletes) is sorted.
func (h *hopRecorder) take(ops ...string) []string {
	h.mu.Lock()
	lines := h.lines
	h.lines = nil
	h.mu.Unlock()
	var out []string
	start := 0
	for _, l := range lines {
		if !slices.Contains(ops, strings.Fields(l)[0]) {
			continue
		}
		if len(out) > start && strings.Fields(out[start])[0] != strings.Fields(l)[0] {
			slices.Sort(out[start:])
			start = len(out)
		}
		out = append(out, l)
	}
	slices.Sort(out[start:])
	return out
}
