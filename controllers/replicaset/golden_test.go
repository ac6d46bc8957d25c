package replicaset_test

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
	"github.com/informer-lab/informer-lab/internal/trace"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/*.golden")

var podName = regexp.MustCompile(`default/web-\w{5}\b`)

// TestCh14_ReplicaSet_GoldenTrace: the replicaset controller's writes for a ReplicaSet of 3
// scaled to 1, each distinct write once in the order it first happened (repeats of a status
// write, and conflicts from a stale cache, depend on scheduling and are left out).
func TestCh14_ReplicaSet_GoldenTrace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		var lines []string
		seen := map[string]bool{}
		tap := slog.New(trace.NewTap(func(r *trace.Record) {
			if (r.Component != "replicaset" && r.Component != "replicaset-controller") || r.Op == "sync" || r.Op == "synced" {
				return
			}
			line := r.Op + " " + r.Key
			for _, a := range []string{"cause", "reason", "err"} {
				v := r.Text(a)
				if a == "err" && (strings.Contains(v, "the object has been modified") || strings.Contains(v, "already exists")) {
					return
				}
				if v != "" && v != "<nil>" {
					line += fmt.Sprintf(" %s=%q", a, v)
				}
			}
			line = podName.ReplaceAllString(line, "default/web-xxxxx")
			mu.Lock()
			defer mu.Unlock()
			if !seen[line] {
				seen[line] = true
				lines = append(lines, line)
			}
		}))
		c := cluster.Start(t, cluster.Options{Controllers: []string{"replicaset"}, Logger: tap})
		rs := c.Create(t, app.ReplicaSets, "default", rsObject("web", 3))
		c.Eventually(t, 30*time.Second, func() bool { return len(podsOf(t, c, rs.GetUID())) == 3 })
		readyAll(t, c, rs.GetUID())
		c.Eventually(t, 30*time.Second, func() bool {
			return nested(c.Get(t, app.ReplicaSets, "default", "web"), "status", "availableReplicas") == 3
		})
		// the recorder names an event after its object and the time: let the clock move, so
		// the delete events do not collide with the create events of the same instant
		time.Sleep(time.Second)
		cur := c.Get(t, app.ReplicaSets, "default", "web")
		app.NestedMap(cur.Object, "spec")["replicas"] = int64(1)
		_, err := c.Client.Resource(app.ReplicaSets).Namespace("default").Update(context.Background(), cur, api.UpdateOptions{})
		require.NoError(t, err)
		c.Eventually(t, 30*time.Second, func() bool {
			return nested(c.Get(t, app.ReplicaSets, "default", "web"), "status", "replicas") == 1
		})
		c.Settle()
		mu.Lock()
		got := strings.Join(lines, "\n") + "\n"
		mu.Unlock()
		const path = "testdata/replicaset.golden"
		if *updateGolden {
			require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
			return
		}
		want, err := os.ReadFile(path)
		require.NoError(t, err, "run with -update to create it")
		if d := cmp.Diff(string(want), got); d != "" {
			t.Errorf("%s differs (-want +got); rerun with -update to accept:\n%s", path, d)
		}
	})
}
