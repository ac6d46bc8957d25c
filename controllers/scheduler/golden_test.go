package scheduler_test

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

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
	"github.com/informer-lab/informer-lab/internal/trace"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

type syncBuffer = cluster.TraceBuffer

var rvAttr = regexp.MustCompile(` rv=\S*`)

// TestCh14_Scheduler_GoldenUnschedulable: the scheduler's hops for a pod no node fits,
// then fits once a node is labelled: FailedScheduling, PodScheduled=False, the bind and the
// Scheduled event; testdata/unschedulable.golden (-update rewrites it).
func TestCh14_Scheduler_GoldenUnschedulable(t *testing.T) {
	var buf syncBuffer
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"kubelet", "scheduler", "nodelifecycle"}, Nodes: 2,
			Logger: trace.NewPlainLogger(&buf)})
		c.Eventually(t, 10*time.Second, func() bool {
			nodes := c.List(t, app.Nodes, "")
			for _, n := range nodes {
				if taints, _ := app.Nested(n.Object, "spec", "taints"); taints != nil {
					return false
				}
			}
			return len(nodes) == 2
		})
		c.Create(t, app.Pods, "default", pod("ssd", map[string]any{"nodeSelector": map[string]any{"disk": "ssd"}}))
		c.Eventually(t, 10*time.Second, func() bool { return condition(c.Get(t, app.Pods, "default", "ssd"), "PodScheduled") != nil })
		_, err := c.Client.Resource(app.Nodes).Patch(context.Background(), "sim-node-1", api.MergePatchType,
			[]byte(`{"metadata":{"labels":{"disk":"ssd"}}}`), api.PatchOptions{})
		require.NoError(t, err)
		c.Eventually(t, 10*time.Second, func() bool { return app.IsPodReady(c.Get(t, app.Pods, "default", "ssd")) })
	})
	var lines []string
	for _, l := range strings.Split(buf.String(), "\n") {
		if strings.Contains(l, "component=scheduler") && strings.Contains(l, " key=default/ssd ") {
			lines = append(lines, rvAttr.ReplaceAllString(l, ""))
		}
	}
	got := strings.Join(lines, "\n") + "\n"
	path := filepath.Join("testdata", "unschedulable.golden")
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, string(want), got)
}
