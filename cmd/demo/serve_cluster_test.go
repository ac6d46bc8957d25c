package main

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/client/dynamic"
	"github.com/informer-lab/informer-lab/clientcmd"
	"github.com/informer-lab/informer-lab/controllers"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/internal/dashboard"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// TestDemo_ServeControllerFlags: --controllers takes kube-controller-manager's syntax and
// --nodes a count; a mistake is a usage error (exit 2) naming the flag, before anything listens.
func TestDemo_ServeControllerFlags(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--controllers", "no-such-controller"}, `--controllers: unknown controller "no-such-controller"`},
		{[]string{"--controllers", "*,-no-such-controller"}, `unknown controller "no-such-controller"`},
		{[]string{"--nodes", "-1"}, "--nodes must be between 0 and 1000, got -1"},
		{[]string{"--nodes", "1001"}, "--nodes must be between 0 and 1000"},
		{[]string{"--ui", "nonsense"}, "--ui must be host:port"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), append([]string{"serve", "--listen", "127.0.0.1:0", "--kubeconfig", t.TempDir() + "/kc"}, tc.args...), nil, &stdout, &stderr)
			assert.Equal(t, 2, code)
			assert.Contains(t, stderr.String(), tc.want)
		})
	}
	names, err := parseControllers("none")
	require.NoError(t, err)
	assert.Empty(t, names)
	all, err := parseControllers("*")
	require.NoError(t, err)
	want, err := controllers.Select([]string{"*"})
	require.NoError(t, err)
	assert.Equal(t, want, all)
}

// TestDemo_ServeHelpNamesControllers: demo serve -h documents --controllers, --nodes and --ui.
func TestDemo_ServeHelpNamesControllers(t *testing.T) {
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run(context.Background(), []string{"serve", "-h"}, nil, &stdout, &stderr))
	for _, s := range []string{"-controllers", `"-name"`, "none", "-nodes", "kubelet", "-ui", "queue depth"} {
		assert.Contains(t, stdout.String(), s)
	}
}

// TestDemo_ServeEnvtestLike: --controllers=none --nodes 0 is the apiserver alone, and says so.
func TestDemo_ServeEnvtestLike(t *testing.T) {
	ready, stop := startServe(t, "--controllers=none", "--nodes=0")
	assert.Nil(t, ready.manager)
	out := stop()
	assert.Contains(t, out, "controllers none: the apiserver alone")
	assert.Contains(t, out, "nodes      0 simulated")
}

// TestDemo_ServeDashboard: --ui serves the dashboard beside the server; /stats carries the
// server's counters and a row per running controller, and the fault buttons reach the server.
func TestDemo_ServeDashboard(t *testing.T) {
	ready, stop := startServe(t, "--controllers=*", "--nodes=3", "--ui", "127.0.0.1:0", "--token", "t0k3n")
	nodes := func() int {
		l, err := ready.server.List(t.Context(), "nodes", "", api.ListOptions{})
		require.NoError(t, err)
		return len(l.(*api.NodeList).Items)
	}
	require.Eventually(t, func() bool { return nodes() == 3 }, 10*time.Second, 10*time.Millisecond, "the kubelets register 3 nodes")
	require.NotEmpty(t, ready.ui)
	resp, err := http.Get(ready.ui + "stats")
	require.NoError(t, err)
	var st dashboard.Stats
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&st))
	resp.Body.Close()
	assert.NotEmpty(t, st.ServerRV)
	want, err := controllers.Select(nil)
	require.NoError(t, err)
	var got []string
	for _, c := range st.Controllers {
		got = append(got, c.Name)
	}
	assert.Subset(t, got, want, "a row per running controller")

	rv := ready.server.ResourceVersion()
	resp, err = http.Post(ready.ui+"actions/create-pod", "application/json", nil)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Greater(t, ready.server.ResourceVersion(), rv)
	out := stop()
	assert.Contains(t, out, "dashboard  "+ready.ui)
	assert.Contains(t, out, "nodes      3 simulated")
}

// TestDemo_ControllerTraceKeepsControllerHops: the controllers' logger passes their own hops
// (each write with its cause) and drops their informers' hops; the counter sees the same.
func TestDemo_ControllerTraceKeepsControllerHops(t *testing.T) {
	var buf bytes.Buffer
	hops := newControllerHops([]string{"replicaset"})
	l := slog.New(newControllerTrace([]string{"replicaset"}, fanout{newTap(hops), trace.NewPlainLogger(&buf).Handler()}))
	trace.Hop(l, "reflector", "watch-event", "default/web-1", "7")
	trace.Hop(l, "replicaset", "sync", "default/web", "8")
	trace.Hop(l, "replicaset", "create", "default/web-x", "9", slog.String("cause", "2 of 3 replicas missing"))
	l.With(trace.KeyComponent, "workqueue").Debug("add")
	assert.Equal(t, "msg=\"replicaset sync\" component=replicaset op=sync key=default/web rv=8\n"+
		"msg=\"replicaset create\" component=replicaset op=create key=default/web-x rv=9 cause=\"2 of 3 replicas missing\"\n",
		buf.String())
	assert.Equal(t, int64(2), hops.hops["replicaset"].Load())
	assert.Equal(t, int64(1), hops.writes["replicaset"].Load())
}

// TestDemo_ServeControllersUnderRBAC: with --authorization=RBAC (a random admin token, https)
// the controllers still write, because they use the kubeconfig's admin credentials: a
// ReplicaSet created through the kubeconfig gets its pods, and the dashboard counts the
// replicaset controller's hops and writes.
func TestDemo_ServeControllersUnderRBAC(t *testing.T) {
	ready, stop := startServe(t, "--authorization=RBAC", "--controllers=replicaset", "--nodes=0", "--seed-pods=0", "--ui", "127.0.0.1:0")
	require.NotNil(t, ready.manager)
	assert.Equal(t, []string{"replicaset"}, ready.manager.Names())
	cfg, err := clientcmd.BuildConfigFromKubeconfig(ready.kubeconfig)
	require.NoError(t, err)
	require.NotEmpty(t, cfg.BearerToken, "RBAC made a token")
	dc, err := dynamic.NewForConfig(cfg)
	require.NoError(t, err)
	labels := map[string]any{"app": "web"}
	rs := &api.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "ReplicaSet",
		"metadata": map[string]any{"name": "web"},
		"spec": map[string]any{"replicas": int64(2), "selector": map[string]any{"matchLabels": labels},
			"template": map[string]any{"metadata": map[string]any{"labels": labels},
				"spec": map[string]any{"containers": []any{map[string]any{"name": "nginx", "image": "nginx"}}}}},
	}}
	_, err = dc.Resource(app.ReplicaSets).Namespace("default").Create(context.Background(), rs, api.CreateOptions{})
	require.NoError(t, err)
	pods := dc.Resource(app.Pods).Namespace("default")
	require.Eventually(t, func() bool {
		l, err := pods.List(context.Background(), api.ListOptions{})
		return err == nil && len(l.Items) == 2
	}, 10*time.Second, 20*time.Millisecond, "the replicaset controller creates 2 pods")

	require.Eventually(t, func() bool {
		resp, err := http.Get(ready.ui + "stats")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		var st dashboard.Stats
		if json.NewDecoder(resp.Body).Decode(&st) != nil || len(st.Controllers) != 1 {
			return false
		}
		c := st.Controllers[0]
		return c.Name == "replicaset" && c.Writes >= 2 && c.Hops > c.Writes
	}, 10*time.Second, 20*time.Millisecond, "the dashboard counts the controller's hops and writes")
	out := stop()
	assert.Contains(t, out, "controllers replicaset\n")
	assert.Contains(t, out, "nodes      0 simulated")
}

// TestDemo_ServeNodesNeedTheKubelet: --nodes without the kubelet controller registers no node,
// and serve says so rather than claiming nodes that are not there.
func TestDemo_ServeNodesNeedTheKubelet(t *testing.T) {
	_, stop := startServe(t, "--controllers=replicaset", "--nodes=2")
	assert.Contains(t, stop(), "nodes      none: --nodes 2 needs the kubelet controller")
}

// An interrupt that arrives while the controllers' caches are still syncing (a script that
// stops `demo serve` as soon as /readyz answers) is a clean stop, not a failure: the
// start-up benchmark interrupts every process at that moment.
func TestDemo_ServeInterruptedDuringControllerStartIsClean(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out := newLineBuffer()
	kc := filepath.Join(t.TempDir(), "kubeconfig")
	err := cmdServe(ctx, []string{"--listen", "127.0.0.1:0", "--kubeconfig", kc}, out, nil)
	require.NoError(t, err, out.String())
	require.Contains(t, out.String(), "stopped")
}
