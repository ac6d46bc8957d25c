package kubelet_test

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

// writes keeps the write hops of the scheduler and the kubelet about key, without their
// resourceVersions (the nodes' heartbeats interleave with them), the scheduler's first: it
// logs its bind once the call has returned, and by then the kubelet, woken by the bound pod,
// may already have logged its start. Within each component the order is the writes'.
func writes(log, key string) string {
	var out, kubelet []string
	for _, line := range strings.Split(log, "\n") {
		if !strings.Contains(line, " key="+key+" ") {
			continue
		}
		if !strings.Contains(line, "component=scheduler") && !strings.Contains(line, "component=kubelet") {
			continue
		}
		if strings.Contains(line, " op=sync ") || strings.Contains(line, " op=event ") {
			continue // reads, and the event write that races the kubelet's first sync
		}
		line = rvAttr.ReplaceAllString(line, "")
		if strings.Contains(line, "component=kubelet") {
			kubelet = append(kubelet, line)
		} else {
			out = append(out, line)
		}
	}
	return strings.Join(append(out, kubelet...), "\n") + "\n"
}

// TestCh14_Kubelet_GoldenPodPath: a pod's path through the scheduler and its kubelet,
// scheduled → running → ready → deleted gracefully (stop after the grace period, the final
// delete), as the trace shows it; testdata/pod-path.golden (-update rewrites it).
func TestCh14_Kubelet_GoldenPodPath(t *testing.T) {
	var buf syncBuffer
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"kubelet", "scheduler", "nodelifecycle"}, Nodes: 1,
			Logger: trace.NewPlainLogger(&buf)})
		c.Eventually(t, 10*time.Second, func() bool {
			n := c.Get(t, app.Nodes, "", "sim-node-0")
			taints, _ := app.Nested(n.Object, "spec", "taints")
			return n != nil && taints == nil
		})
		c.Create(t, app.Pods, "default", boundPod("web", "", nil, ""))
		c.Eventually(t, 10*time.Second, func() bool { return app.IsPodReady(c.Get(t, app.Pods, "default", "web")) })
		require.NoError(t, c.Client.Resource(app.Pods).Namespace("default").Delete(context.Background(), "web", api.DeleteOptions{}))
		c.Eventually(t, time.Minute, func() bool { return c.Get(t, app.Pods, "default", "web") == nil })
	})
	got := writes(buf.String(), "default/web")
	path := filepath.Join("testdata", "pod-path.golden")
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, string(want), got)
}
