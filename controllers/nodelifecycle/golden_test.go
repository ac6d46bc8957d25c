package nodelifecycle_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
	"github.com/informer-lab/informer-lab/internal/trace"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

type syncBuffer = cluster.TraceBuffer

var rvAttr = regexp.MustCompile(` rv=\S*`)

// TestCh14_Nodes_GoldenFailure: the node lifecycle controller's writes when a node fails
// and comes back (Unknown, the pod not Ready, the unreachable taints, the eviction, the
// taints lifted), each with its cause; testdata/node-failure.golden (-update rewrites it).
func TestCh14_Nodes_GoldenFailure(t *testing.T) {
	var buf syncBuffer
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"kubelet", "scheduler", "nodelifecycle"}, Nodes: 1,
			Logger: trace.NewPlainLogger(&buf)})
		c.Eventually(t, 10*time.Second, func() bool { return nodeReady(c, t, "sim-node-0") == "True" && len(taintKeys(c, t, "sim-node-0")) == 0 })
		c.Create(t, app.Pods, "default", map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": map[string]any{"name": "web"},
			"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "nginx"}}}})
		c.Eventually(t, 10*time.Second, func() bool { return app.IsPodReady(c.Get(t, app.Pods, "default", "web")) })
		require.NoError(t, c.Server.FailNode(context.Background(), "sim-node-0", time.Hour))
		c.Eventually(t, 7*time.Minute, func() bool { return c.Get(t, app.Pods, "default", "web").GetDeletionTimestamp() != nil })
		require.NoError(t, c.Server.FailNode(context.Background(), "sim-node-0", 0))
		c.Eventually(t, time.Minute, func() bool { return c.Get(t, app.Pods, "default", "web") == nil })
		// the taints may go after the pod: the trace ends with them either way
		c.Eventually(t, time.Minute, func() bool { return len(taintKeys(c, t, "sim-node-0")) == 0 })
	})
	var lines []string
	started := false
	for _, l := range strings.Split(buf.String(), "\n") {
		if !strings.Contains(l, "component=nodelifecycle") || strings.Contains(l, " op=sync ") {
			continue
		}
		if strings.Contains(l, "op=update-status") || strings.Contains(l, "op=delete") {
			started = true
		}
		if started { // from the failure on: the not-ready taint lifted at start is not part of it
			lines = append(lines, rvAttr.ReplaceAllString(l, ""))
		}
	}
	got := strings.Join(lines, "\n") + "\n"
	path := filepath.Join("testdata", "node-failure.golden")
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, string(want), got)
}
