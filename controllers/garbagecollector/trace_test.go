package garbagecollector_test

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/controllers"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
	"github.com/informer-lab/informer-lab/internal/trace"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// syncBuffer is a buffer the controllers' goroutines write to.
type syncBuffer = cluster.TraceBuffer

func newSyncBuffer() *syncBuffer { return &syncBuffer{} }

var (
	uidRE = regexp.MustCompile(`uid: [0-9a-f-]{36}`)
	rvRE  = regexp.MustCompile(` rv=\d+`)
)

// writes keeps the collector's writes from a trace, UIDs and resourceVersions masked, each
// distinct write once: the order of the writes follows from causality (a dependent goes
// before its foreground owner is finalized), so it is the same on every run, whatever the
// workers interleave. A write repeated because an item was queued again before the
// informer showed the first one's effect (harmless: the server changes nothing) is
// dropped.
func writes(log string) string {
	var out []string
	seen := map[string]bool{}
	sc := bufio.NewScanner(strings.NewReader(log))
	for sc.Scan() {
		l := sc.Text()
		if !strings.Contains(l, "component=garbage-collector-controller") {
			continue
		}
		if !strings.Contains(l, " op=delete ") && !strings.Contains(l, " op=remove-finalizer ") && !strings.Contains(l, " op=remove-owner-refs ") {
			continue
		}
		l = rvRE.ReplaceAllString(uidRE.ReplaceAllString(l, "uid: <uid>"), " rv=<rv>")
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n") + "\n"
}

// TestCh14_GC_GoldenTrace: the collector's writes for a foreground deletion of the chain
// Deployment → ReplicaSet → Pod and an orphan deletion of a second Deployment, against
// testdata/gc.golden (-update rewrites it).
func TestCh14_GC_GoldenTrace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		buf := newSyncBuffer()
		c := cluster.Start(t, cluster.Options{Controllers: []string{"garbagecollector"}, Logger: trace.NewPlainLogger(buf)})
		chain(t, c, 1)
		other := c.Create(t, app.Deployments, "default", deployment("keep"))
		c.Create(t, app.ReplicaSets, "default", replicaSet("keep-1", other))
		c.Settle()
		del(t, c, app.Deployments, "default", "web", api.DeletePropagationForeground)
		c.Eventually(t, 30*time.Second, gone(t, c, app.Deployments, "default", "web"))
		del(t, c, app.Deployments, "default", "keep", api.DeletePropagationOrphan)
		c.Eventually(t, 30*time.Second, gone(t, c, app.Deployments, "default", "keep"))
		got := writes(buf.String())
		const file = "testdata/gc.golden"
		if *update {
			require.NoError(t, os.WriteFile(file, []byte(got), 0o644))
		}
		want, err := os.ReadFile(file)
		require.NoError(t, err)
		assert.Equal(t, string(want), got)
	})
}

// TestCh14_GC_Chaos: chains are deleted in the background while the server drops events,
// closes every watch, compacts its history (410 on resume) and the manager restarts
// midway; the collector converges to the same end: every owned object collected, the
// unowned ones kept.
func TestCh14_GC_Chaos(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"garbagecollector"}})
		const n = 5
		for i := range n {
			d := c.Create(t, app.Deployments, "default", deployment(fmt.Sprintf("d%d", i)))
			rs := c.Create(t, app.ReplicaSets, "default", replicaSet(fmt.Sprintf("d%d-rs", i), d))
			for j := range 3 {
				c.Create(t, app.Pods, "default", pod(fmt.Sprintf("d%d-p%d", i, j), app.NewControllerRef(rs)))
			}
		}
		c.Create(t, app.Pods, "default", pod("bystander"))
		c.Settle()
		// The collector misses the deletes of two owners and of a ReplicaSet...
		c.Server.DropNextEvents(apiserver.DropRule{Count: 1, Key: "default/d0", Type: watch.Deleted})
		c.Server.DropNextEvents(apiserver.DropRule{Count: 1, Key: "default/d1", Type: watch.Deleted})
		c.Server.DropNextEvents(apiserver.DropRule{Count: 1, Key: "default/d2-rs", Type: watch.Deleted})
		for i := range 3 {
			del(t, c, app.Deployments, "default", fmt.Sprintf("d%d", i), "")
		}
		c.Settle()
		// ...its watches are cut and their history compacted (410, relist), and it restarts.
		c.Server.CompactAll()
		c.Server.CloseAllWatches()
		c.Manager.Stop()
		for i := 3; i < n; i++ {
			del(t, c, app.Deployments, "default", fmt.Sprintf("d%d", i), "")
		}
		m, err := controllers.Start(context.Background(), controllers.Options{Config: c.Config, Controllers: []string{"garbagecollector"}})
		require.NoError(t, err)
		t.Cleanup(m.Stop)
		c.Eventually(t, 5*time.Minute, func() bool {
			return len(c.List(t, app.ReplicaSets, "default")) == 0 && len(c.List(t, app.Pods, "default")) == 1
		})
		assert.Equal(t, []string{"bystander"}, podNames(t, c))
		assert.Empty(t, c.List(t, app.Deployments, "default"))
	})
}
