package ttlafterfinished_test

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

	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/controllers"
	"github.com/informer-lab/informer-lab/harness/cluster"
	"github.com/informer-lab/informer-lab/internal/trace"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

var rvAttr = regexp.MustCompile(` rv=\S*`)

// TestCh14_TTLAfterFinished_GoldenTrace: the controller's writes for a Job that finished
// with a ttl of 30 s, each with its cause; testdata/ttl.golden (-update rewrites it).
func TestCh14_TTLAfterFinished_GoldenTrace(t *testing.T) {
	var buf cluster.TraceBuffer
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"ttl-after-finished"}, Logger: trace.NewPlainLogger(&buf)})
		finishedJob(t, c, "done", 30, "Complete")
		c.Eventually(t, 5*time.Minute, func() bool { return gone(t, c, "done") })
	})
	var lines []string
	for _, l := range strings.Split(buf.String(), "\n") {
		if strings.Contains(l, "component=ttl-after-finished") && strings.Contains(l, "cause=") {
			lines = append(lines, rvAttr.ReplaceAllString(l, ""))
		}
	}
	got := strings.Join(lines, "\n") + "\n"
	path := filepath.Join("testdata", "ttl.golden")
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, string(want), got)
}

// TestCh14_TTLAfterFinished_ChaosConverges: dropped events, closed watches, a compaction
// (410 on the rewatch) and a restart of the manager between the Jobs' finish and their
// expiry; every Job with a ttl still goes, at its time or just after, and the one without
// stays.
func TestCh14_TTLAfterFinished_ChaosConverges(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		names := []string{"ttl-after-finished"}
		c := cluster.Start(t, cluster.Options{Controllers: names})
		c.Server.DropNextEvents(apiserver.DropRule{Count: 2})
		finishedJob(t, c, "a", 20, "Complete")
		finishedJob(t, c, "b", 40, "Failed")
		finishedJob(t, c, "kept", -1, "Complete")
		c.Server.CloseAllWatches()
		c.Server.CompactAll()
		c.Manager.Stop()
		m, err := controllers.Start(context.Background(), controllers.Options{Config: c.Config, Controllers: names})
		require.NoError(t, err)
		t.Cleanup(m.Stop)
		c.Server.CloseAllWatches()
		c.Eventually(t, 5*time.Minute, func() bool { return gone(t, c, "a") && gone(t, c, "b") })
		time.Sleep(10 * time.Minute) // virtual
		c.Settle()
		require.False(t, gone(t, c, "kept"))
	})
}
