package cronjob_test

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

// TestCh14_CronJob_Chaos: a CronJob fires every five minutes for an hour while the server
// drops events, closes watches, compacts (informers relist after a 410) and the manager
// restarts; every finished Job is marked Complete. At the end the history holds exactly
// the last two, the last activation is active, and lastScheduleTime is 01:00.
func TestCh14_CronJob_Chaos(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"cronjob"}})
		restart := func() {
			c.Manager.Stop()
			m, err := controllers.Start(context.Background(), controllers.Options{Config: c.Config, Controllers: []string{"cronjob"}})
			require.NoError(t, err)
			c.Manager = m
			t.Cleanup(m.Stop)
		}
		faults := []func(){
			func() { c.Server.DropNextEvents(apiserver.DropRule{Count: 2}) },
			c.Server.CloseAllWatches,
			func() { c.Server.CompactAll(); c.Server.CloseAllWatches() },
			restart,
		}
		c.Create(t, app.CronJobs, ns, cronJobObject("chaos", "*/5 * * * *", map[string]any{"successfulJobsHistoryLimit": int64(2)}))
		for i := range 12 {
			faults[i%len(faults)]()
			advance(c, 5*time.Minute-time.Second)
			for _, j := range jobsOf(t, c, "chaos") {
				if j.GetName() != jobName("chaos", time.Date(2000, 1, 1, 0, 5*(i+1), 0, 0, time.UTC)) {
					if done, _ := app.Nested(j.Object, "status", "completionTime"); done == nil {
						finishJob(t, c, j, true)
					}
				}
			}
		}
		// Let every informer relist and every controller settle.
		c.Server.CompactAll()
		c.Server.CloseAllWatches()
		c.Eventually(t, time.Minute, func() bool {
			return len(jobsOf(t, c, "chaos")) == 3 && len(activeNames(cronStatus(t, c, "chaos"))) == 1
		})
		require.Equal(t, []string{jobName("chaos", at("00:50")), jobName("chaos", at("00:55")), jobName("chaos", at("01:00"))}, names(jobsOf(t, c, "chaos")))
		st := cronStatus(t, c, "chaos")
		require.Equal(t, []string{jobName("chaos", at("01:00"))}, activeNames(st))
		require.Equal(t, "2000-01-01T01:00:00Z", st["lastScheduleTime"])
	})
}
