package podautoscaler_test

import (
	"context"
	"flag"
	"os"
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

// TestCh14_HPA_GoldenTrace: the controller's writes over seven minutes of virtual time: a
// scale-up on 90 % cpu, then a drop to 10 % held for the stabilisation window, then the
// scale-down.
func TestCh14_HPA_GoldenTrace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var buf syncBuffer
		c := start(t, 2, func(o *cluster.Options) { o.Logger = trace.NewPlainLogger(&buf) })
		cpu(t, c, 90)
		c.Create(t, app.HorizontalPodAutoscalers, "default", hpaV2(nil))
		for i := range 28 { // 15 s a sync
			if i == 3 {
				cpu(t, c, 10)
			}
			time.Sleep(15 * time.Second)
			c.Settle()
		}
		var b strings.Builder
		for _, l := range strings.Split(buf.String(), "\n") {
			if strings.Contains(l, "component="+"horizontal-pod-autoscaler ") && !strings.Contains(l, " op=sync ") {
				b.WriteString(l[strings.Index(l, "component="):] + "\n")
			}
		}
		const path = "testdata/podautoscaler.golden"
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

// TestCh14_HPA_Chaos: dropped events, closed watches, a compaction and a restart of the
// controller (which forgets its recommendations) still end at the same scale.
func TestCh14_HPA_Chaos(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := start(t, 2)
		cpu(t, c, 90)
		c.Server.DropNextEvents(apiserver.DropRule{Count: 2})
		c.Create(t, app.HorizontalPodAutoscalers, "default", hpaV2(map[string]any{"maxReplicas": int64(4)}))
		c.Server.CloseAllWatches()
		c.Server.CompactAll()
		time.Sleep(5 * time.Second)
		c.Manager.Stop()
		m, err := controllers.Start(context.Background(), controllers.Options{Config: c.Config, Controllers: []string{"podautoscaler"}})
		require.NoError(t, err)
		t.Cleanup(m.Stop)
		c.Server.CloseAllWatches()
		c.Eventually(t, 2*time.Minute, func() bool { return replicasOf(t, c) == 4 })
		c.Eventually(t, time.Minute, func() bool {
			return conditions(t, c)["ScalingLimited"] == "True/TooManyReplicas" || conditions(t, c)["ScalingLimited"] == "False/DesiredWithinRange"
		})
	})
}
