package daemonset_test

import (
	"bytes"
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
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/controllers"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
	"github.com/informer-lab/informer-lab/internal/trace"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

var (
	writeOps = regexp.MustCompile(`component=daemonset op=(create|delete|update) `)
	rvAttr   = regexp.MustCompile(` rv=\S*`)
	msgAttr  = regexp.MustCompile(`^msg="[^"]*" `)
	podName  = regexp.MustCompile(`key=default/agent-[a-z0-9]{5}\b`)
)

// renderWrites keeps the controller's successful writes from a plain trace, without
// resourceVersions or the random suffixes of generated pod names; the writes of one sync
// are sorted, since the order of nodes within a sync is not what the trace shows.
func renderWrites(log string) string {
	var out []string
	for _, l := range strings.Split(log, "\n") {
		if writeOps.MatchString(l) && strings.HasSuffix(l, "err=<nil>") {
			l = rvAttr.ReplaceAllString(l, "")
			l = msgAttr.ReplaceAllString(l, "")
			l = podName.ReplaceAllString(l, "key=default/agent-xxxxx")
			out = append(out, strings.TrimSuffix(l, " err=<nil>"))
		}
	}
	return strings.Join(out, "\n") + "\n"
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, string(want), got)
}

// dsScenario: three nodes, the DaemonSet, every pod made ready; a template change rolled
// with maxUnavailable 1; then node-c is deleted.
func dsScenario(t *testing.T, c *cluster.Cluster, fault func(step int)) {
	for _, n := range []string{"node-a", "node-b", "node-c"} {
		createNode(t, c, n, nil)
	}
	c.Create(t, app.DaemonSets, "default", agentDS(nil, nil))
	step := 0
	until := func(cond func() bool) {
		c.Eventually(t, 120*time.Second, func() bool {
			fault(step)
			step++
			readyAll(t, c)
			return cond()
		})
	}
	until(func() bool { return dsStatus(t, c, "numberAvailable") == 3 })
	patchDS(t, c, `{"spec":{"template":{"spec":{"containers":[{"name":"agent","image":"agent:2"}]}}}}`)
	until(func() bool {
		return dsStatus(t, c, "updatedNumberScheduled") == 3 && dsStatus(t, c, "numberAvailable") == 3 && len(c.List(t, app.Pods, "default")) == 3
	})
	require.NoError(t, c.Client.Resource(app.Nodes).Delete(context.Background(), "node-c", api.DeleteOptions{}))
	until(func() bool {
		return len(c.List(t, app.Pods, "default")) == 2 && dsStatus(t, c, "desiredNumberScheduled") == 2
	})
}

// TestCh14_DaemonSet_GoldenTrace: the writes the controller makes for the scenario.
func TestCh14_DaemonSet_GoldenTrace(t *testing.T) {
	var buf bytes.Buffer
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"daemonset"}, Logger: trace.NewPlainLogger(&buf)})
		dsScenario(t, c, func(int) {})
		c.Manager.Stop()
	})
	golden(t, "daemonset", renderWrites(buf.String()))
}

// TestCh14_DaemonSet_Chaos: the scenario with dropped events, closed watches, compacted
// history and a manager restart ends as the fault-free run does.
func TestCh14_DaemonSet_Chaos(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"daemonset"}})
		fault := func(step int) {
			switch step % 4 {
			case 0:
				c.Server.DropNextEvents(apiserver.DropRule{Count: 2})
			case 1:
				c.Server.CloseAllWatches()
			case 2:
				c.Server.CompactAll()
				c.Server.CloseAllWatches()
			case 3:
				if step == 3 {
					c.Manager.Stop()
					m, err := controllers.Start(context.Background(), controllers.Options{Config: c.Config, Controllers: []string{"daemonset"}})
					require.NoError(t, err)
					c.Manager = m
					t.Cleanup(m.Stop)
				}
			}
		}
		dsScenario(t, c, fault)
		c.Server.CompactAll()
		c.Server.CloseAllWatches()
		c.Eventually(t, 60*time.Second, func() bool {
			readyAll(t, c)
			// The status write that counts the updated pods can follow the one that counts
			// them available: wait for both.
			return dsStatus(t, c, "numberAvailable") == 2 && dsStatus(t, c, "updatedNumberScheduled") == 2 &&
				len(c.List(t, app.Pods, "default")) == 2
		})
		require.Equal(t, []string{"node-a", "node-b"}, nodesWithPods(t, c))
		for _, pods := range podsByNode(t, c) {
			require.Len(t, pods, 1)
		}
		ds := c.Get(t, app.DaemonSets, "default", "agent")
		st := app.NestedMap(ds.Object, "status")
		for f, want := range map[string]int64{"desiredNumberScheduled": 2, "currentNumberScheduled": 2, "numberReady": 2, "updatedNumberScheduled": 2, "numberMisscheduled": 0} {
			n, _ := app.NestedInt64(st, f)
			require.Equal(t, want, n, f)
		}
		require.Len(t, c.List(t, app.ControllerRevisions, "default"), 2)
	})
}
