package job_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/controllers"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
)

// TestCh14_Job_Chaos: pods finish one by one while the server drops events, closes every
// watch, compacts its history (so informers relist after a 410) and the controller
// manager restarts. The Job still ends Complete with exactly its completions counted, no
// pod left holding the tracking finalizer, and nothing uncounted.
func TestCh14_Job_Chaos(t *testing.T) {
	faults := []struct {
		name   string
		inject func(c *cluster.Cluster, restart func())
	}{
		{"drop pod events", func(c *cluster.Cluster, _ func()) { c.Server.DropNextEvents(apiserver.DropRule{Count: 3}) }},
		{"close watches", func(c *cluster.Cluster, _ func()) { c.Server.CloseAllWatches() }},
		{"compact and close", func(c *cluster.Cluster, _ func()) { c.Server.CompactAll(); c.Server.CloseAllWatches() }},
		{"restart the manager", func(_ *cluster.Cluster, restart func()) { restart() }},
		{"drop, then relist", func(c *cluster.Cluster, _ func()) {
			c.Server.DropNextEvents(apiserver.DropRule{Count: 2})
			c.Server.CompactAll()
			c.Server.CloseAllWatches()
		}},
	}
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"job"}})
		restart := func() {
			c.Manager.Stop()
			m, err := controllers.Start(context.Background(), controllers.Options{Config: c.Config, Controllers: []string{"job"}})
			require.NoError(t, err)
			c.Manager = m
			t.Cleanup(m.Stop)
		}
		const completions = 7
		c.Create(t, app.Jobs, ns, jobObject("chaos", map[string]any{"completions": int64(completions), "parallelism": int64(2)}))
		for i := range completions {
			var pods []string
			c.Eventually(t, 5*time.Minute, func() bool {
				pods = nil
				for _, p := range activePods(t, c, "chaos") {
					pods = append(pods, p.GetName())
				}
				return len(pods) > 0
			}, "step %d", i)
			f := faults[i%len(faults)]
			f.inject(c, restart)
			p := c.Get(t, app.Pods, ns, pods[0])
			require.NotNil(t, p)
			finishPod(t, c, *p, 0)
			c.Settle()
		}
		c.Eventually(t, 10*time.Minute, func() bool { return condition(jobStatus(t, c, "chaos"), "Complete") != nil })
		st := jobStatus(t, c, "chaos")
		require.EqualValues(t, completions, statusInt(st, "succeeded"))
		require.EqualValues(t, 0, statusInt(st, "failed"))
		require.EqualValues(t, 0, statusInt(st, "active"))
		require.Equal(t, map[string]any{}, st["uncountedTerminatedPods"])
		succeeded := 0
		for _, p := range podsOf(t, c, "chaos") {
			require.Empty(t, p.GetFinalizers(), p.GetName())
			if app.PodPhase(&p) == "Succeeded" {
				succeeded++
			}
		}
		require.Equal(t, completions, succeeded)
	})
}
