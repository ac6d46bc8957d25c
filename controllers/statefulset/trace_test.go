package statefulset_test

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

	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/controllers"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
	"github.com/informer-lab/informer-lab/internal/trace"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

var (
	writeOps = regexp.MustCompile(`component=statefulset op=(create|delete|update) `)
	rvAttr   = regexp.MustCompile(` rv=\S*`)
	msgAttr  = regexp.MustCompile(`^msg="[^"]*" `)
)

// renderWrites keeps the controller's successful writes from a plain trace, without
// resourceVersions. Syncs, status writes and writes refused because the cache was a step
// behind (AlreadyExists, NotFound, Conflict) depend on how the goroutines interleave; the
// writes that change the cluster, and their order, do not.
func renderWrites(log string) string {
	var out []string
	for _, l := range strings.Split(log, "\n") {
		if writeOps.MatchString(l) && strings.HasSuffix(l, "err=<nil>") {
			l = rvAttr.ReplaceAllString(l, "")
			l = strings.TrimSuffix(msgAttr.ReplaceAllString(l, ""), " err=<nil>")
			out = append(out, l)
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

// orderedScenario: web of 3 with a claim template (claims deleted with the set), every pod
// made Running and Ready as soon as it exists, then scaled down to 1.
func orderedScenario(t *testing.T, c *cluster.Cluster, fault func(step int)) {
	c.Create(t, app.StatefulSets, "default", webSet(3, map[string]any{
		"volumeClaimTemplates":                 []any{claimTemplate("www")},
		"persistentVolumeClaimRetentionPolicy": map[string]any{"whenDeleted": "Delete", "whenScaled": "Retain"},
	}))
	step := 0
	c.Eventually(t, 120*time.Second, func() bool {
		fault(step)
		step++
		readyAll(t, c, "default")
		return setStatus(t, c, "readyReplicas") == 3
	})
	patchSet(t, c, `{"spec":{"replicas":1}}`)
	c.Eventually(t, 120*time.Second, func() bool {
		fault(step)
		step++
		return len(podNames(t, c, "default")) == 1 && setStatus(t, c, "replicas") == 1
	})
}

// TestCh14_StatefulSet_GoldenTrace: the writes the controller makes for the ordered
// scenario, in order, with their causes.
func TestCh14_StatefulSet_GoldenTrace(t *testing.T) {
	var buf bytes.Buffer
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"statefulset"}, Logger: trace.NewPlainLogger(&buf)})
		orderedScenario(t, c, func(int) {})
		c.Manager.Stop()
	})
	golden(t, "statefulset", renderWrites(buf.String()))
}

// TestCh14_StatefulSet_Chaos: the same scenario with events dropped, every watch closed,
// history compacted (the informers relist after a 410) and the manager restarted midway
// ends in the same state as without faults.
func TestCh14_StatefulSet_Chaos(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"statefulset"}})
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
					m, err := controllers.Start(context.Background(), controllers.Options{Config: c.Config, Controllers: []string{"statefulset"}})
					require.NoError(t, err)
					c.Manager = m
					t.Cleanup(m.Stop)
				}
			}
		}
		orderedScenario(t, c, fault)
		// settle without faults: the final state is the fault-free one
		c.Server.CompactAll()
		c.Server.CloseAllWatches()
		c.Eventually(t, 60*time.Second, func() bool { return setStatus(t, c, "readyReplicas") == 1 })
		require.Equal(t, []string{"web-0"}, podNames(t, c, "default"))
		require.Equal(t, []string{"www-web-0", "www-web-1", "www-web-2"}, names(t, c, app.PersistentVolumeClaims, "default"))
		require.Len(t, c.List(t, app.ControllerRevisions, "default"), 1)
		s := c.Get(t, app.StatefulSets, "default", "web")
		st := app.NestedMap(s.Object, "status")
		require.EqualValues(t, 1, st["replicas"])
		require.EqualValues(t, 1, st["currentReplicas"])
		require.EqualValues(t, 1, st["updatedReplicas"])
		require.Equal(t, st["currentRevision"], st["updateRevision"])
		for _, n := range []string{"www-web-0", "www-web-1", "www-web-2"} {
			ref := app.GetControllerOf(c.Get(t, app.PersistentVolumeClaims, "default", n))
			require.NotNil(t, ref, n)
			require.Equal(t, "StatefulSet", ref.Kind, n)
		}
	})
}
