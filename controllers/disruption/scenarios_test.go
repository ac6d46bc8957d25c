package disruption_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/controllers"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
	"github.com/informer-lab/informer-lab/internal/trace"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// TestCh14_Disruption_GoldenTrace: the controller's status writes for a fixed scenario, one
// step at a time: a budget over three pods, one deleted, a new pod.
func TestCh14_Disruption_GoldenTrace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var buf syncBuffer
		c := cluster.Start(t, cluster.Options{Controllers: []string{"disruption"}, Logger: trace.NewPlainLogger(&buf)})
		// one write at a time, each seen by the controller before the next
		step := func(i int) {
			name := fmt.Sprintf("web-%d", i)
			c.Create(t, app.Pods, "default", map[string]any{"apiVersion": "v1", "kind": "Pod",
				"metadata": map[string]any{"name": name, "labels": map[string]any{"app": "web"}},
				"spec":     map[string]any{"containers": []any{map[string]any{"name": "c", "image": "nginx"}}}})
			c.Settle()
			setPodStatus(t, c, "default", name, fmt.Sprintf("10.0.0.%d", i+1), true)
			c.Settle()
		}
		for i := range 3 {
			step(i)
		}
		c.Create(t, app.PodDisruptionBudgets, "default", budget("web", map[string]any{"minAvailable": int64(2)}))
		c.Settle()
		// a plain delete: an eviction is three writes in one request, and where the controller
		// syncs between them varies from run to run
		require.NoError(t, c.Client.Resource(app.Pods).Namespace("default").Delete(context.Background(), "web-0", api.DeleteOptions{GracePeriodSeconds: new(int64)}))
		c.Settle()
		step(3)
		var b strings.Builder
		for _, l := range strings.Split(buf.String(), "\n") {
			if strings.Contains(l, "component=disruption ") && strings.Contains(l, " op=update-status ") {
				b.WriteString(l[strings.Index(l, "component="):] + "\n")
			}
		}
		const path = "testdata/disruption.golden"
		if *update {
			require.NoError(t, os.MkdirAll("testdata", 0o755))
			require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
			return
		}
		want, err := os.ReadFile(path)
		require.NoError(t, err, "run with -update to write it")
		require.Equal(t, string(want), b.String())
	})
}

// TestCh14_Disruption_Chaos: dropped events, closed watches, a compaction and a restart of
// the controller converge to the same status.
func TestCh14_Disruption_Chaos(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"disruption"}})
		c.Create(t, app.PodDisruptionBudgets, "default", budget("web", map[string]any{"minAvailable": int64(2)}))
		for i := range 6 {
			switch i {
			case 2:
				c.Server.DropNextEvents(apiserver.DropRule{Count: 3})
			case 3:
				c.Server.CloseAllWatches()
				c.Server.CompactAll()
			case 4:
				c.Manager.Stop()
				m, err := controllers.Start(context.Background(), controllers.Options{Config: c.Config, Controllers: []string{"disruption"}})
				require.NoError(t, err)
				t.Cleanup(m.Stop)
			}
			ownedPod(t, c, fmt.Sprintf("web-%d", i), fmt.Sprintf("10.0.0.%d", i+1), map[string]any{"app": "web"}, nil)
		}
		c.Server.CloseAllWatches()
		c.Server.CompactAll()
		waitStatus(t, c, "web", "healthy=6 desired=2 expected=6 allowed=4 gen=1 disrupted=0 True/SufficientPods")
	})
}
