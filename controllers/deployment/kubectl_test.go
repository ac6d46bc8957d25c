package deployment_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/client/dynamic"
	"github.com/informer-lab/informer-lab/controllers"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/internal/inproc"
	"github.com/informer-lab/informer-lab/rest"
)

// TestCh14_Deployment_RealKubectl runs the real kubectl against a listening server with the
// deployment and replicaset controllers: create, rollout status, set image, rollout undo,
// scale. A stand-in kubelet marks every new pod Running and Ready. It needs kubectl on PATH.
func TestCh14_Deployment_RealKubectl(t *testing.T) {
	kubectl, err := exec.LookPath("kubectl")
	if err != nil {
		t.Skip("kubectl is not on PATH")
	}
	srv := apiserver.New(apiserver.Options{})
	_, err = srv.Start("127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	kc := filepath.Join(t.TempDir(), "kubeconfig")
	require.NoError(t, os.WriteFile(kc, srv.Kubeconfig(), 0o600))

	cfg := &rest.Config{Host: "http://inproc.local", Transport: inproc.Transport(srv.Handler()), UserAgent: "kubectl-test"}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m, err := controllers.Start(ctx, controllers.Options{Config: cfg, Controllers: []string{"deployment", "replicaset"}})
	require.NoError(t, err)
	defer m.Stop()
	dc, err := dynamic.NewForConfig(cfg)
	require.NoError(t, err)
	kubeletDone := make(chan struct{})
	go func() { defer close(kubeletDone); fakeKubelet(ctx, dc) }()
	defer func() { cancel(); <-kubeletDone }()

	run := func(args ...string) string {
		t.Helper()
		cctx, ccancel := context.WithTimeout(ctx, 60*time.Second)
		defer ccancel()
		out, err := exec.CommandContext(cctx, kubectl, append([]string{"--kubeconfig", kc, "-n", "default"}, args...)...).CombinedOutput()
		require.NoError(t, err, "kubectl %s: %s", strings.Join(args, " "), out)
		return string(out)
	}
	run("create", "deployment", "web", "--image=nginx:1", "--replicas=3")
	require.Contains(t, run("rollout", "status", "deployment/web", "--timeout=60s"), `deployment "web" successfully rolled out`)
	run("set", "image", "deployment/web", "nginx=nginx:2")
	require.Contains(t, run("rollout", "status", "deployment/web", "--timeout=60s"), "successfully rolled out")
	hist := run("rollout", "history", "deployment/web")
	require.Contains(t, hist, "1 ")
	require.Contains(t, hist, "2 ")
	require.Contains(t, run("rollout", "undo", "deployment/web"), "rolled back")
	require.Contains(t, run("rollout", "status", "deployment/web", "--timeout=60s"), "successfully rolled out")
	require.Equal(t, "nginx:1", run("get", "deployment/web", "-o", "jsonpath={.spec.template.spec.containers[0].image}"))
	run("scale", "deployment/web", "--replicas=5")
	require.Contains(t, run("rollout", "status", "deployment/web", "--timeout=60s"), "successfully rolled out")
	require.Equal(t, "5 5 5", run("get", "deployment/web", "-o", "jsonpath={.status.readyReplicas} {.status.updatedReplicas} {.status.availableReplicas}"))
	require.Equal(t, "3", run("get", "deployment/web", "-o", `jsonpath={.metadata.annotations.deployment\.kubernetes\.io/revision}`))

	// pause: a template change waits; resume rolls it out
	run("rollout", "pause", "deployment/web")
	run("set", "image", "deployment/web", "nginx=nginx:3")
	require.Len(t, strings.Fields(run("get", "rs", "-o", "name")), 2, "paused: no new ReplicaSet")
	run("rollout", "resume", "deployment/web")
	require.Contains(t, run("rollout", "status", "deployment/web", "--timeout=60s"), "successfully rolled out")
	require.Len(t, strings.Fields(run("get", "rs", "-o", "name")), 3)
	// rollout restart stamps the template: another ReplicaSet, and undo to a chosen revision
	run("rollout", "restart", "deployment/web")
	require.Contains(t, run("rollout", "status", "deployment/web", "--timeout=60s"), "successfully rolled out")
	require.Contains(t, run("rollout", "undo", "deployment/web", "--to-revision=4"), "rolled back")
	require.Contains(t, run("rollout", "status", "deployment/web", "--timeout=60s"), "successfully rolled out")
	require.Equal(t, "nginx:3", run("get", "deployment/web", "-o", "jsonpath={.spec.template.spec.containers[0].image}"))
}

// fakeKubelet marks every pod it sees Running and Ready, until ctx ends.
func fakeKubelet(ctx context.Context, dc *dynamic.DynamicClient) {
	pods := dc.Resource(app.Pods).Namespace("default")
	for ctx.Err() == nil {
		w, err := pods.Watch(ctx, api.ListOptions{})
		if err != nil {
			return
		}
		for ev := range w.ResultChan() {
			p, ok := ev.Object.(*api.Unstructured)
			if !ok || ev.Type != watch.Added || app.IsPodReady(p) {
				continue
			}
			p = p.DeepCopy()
			p.Object["status"] = map[string]any{"phase": "Running", "conditions": []any{map[string]any{
				"type": "Ready", "status": "True", "lastTransitionTime": time.Now().UTC().Format(time.RFC3339)}}}
			_, _ = pods.UpdateStatus(ctx, p, api.UpdateOptions{})
		}
		w.Stop()
	}
}
