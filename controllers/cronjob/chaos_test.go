package cronjob_test

import (
	"context"
	"slices"
	"strings"
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
// restarts; every finished Job is marked Complete. Every activation made exactly one Job;
// at the end the history holds two finished Jobs and the 01:00 one, active, and
// lastScheduleTime is 01:00. Which two finished Jobs remain depends on what the
// controller's cache had seen when it cleaned up: a dropped completion hides a Job from
// the history limit until the informer relists, upstream as here.
func TestCh14_CronJob_Chaos(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := &hops{}
		c := cluster.Start(t, cluster.Options{Controllers: []string{"cronjob"}, Logger: h.logger()})
		restart := func() {
			c.Manager.Stop()
			m, err := controllers.Start(context.Background(), controllers.Options{Config: c.Config, Controllers: []string{"cronjob"}, Logger: h.logger()})
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
		// The wait names the 01:00 Job: a status still listing 00:55 as active, read before the
		// 01:00 activation, also has one active Job beside three in the history.
		c.Eventually(t, time.Minute, func() bool {
			return len(jobsOf(t, c, "chaos")) == 3 && slices.Equal(activeNames(cronStatus(t, c, "chaos")), []string{jobName("chaos", at("01:00"))})
		})
		// Every activation made its Job: created, or found already there (a create the
		// restart cancelled may still have reached the server), never another name.
		var made []string
		h.mu.Lock()
		for _, r := range h.recs {
			if err := r.Text("err"); r.Is("cronjob-controller", "create-job") && (err == "<nil>" || strings.Contains(err, "already exists")) {
				if !slices.Contains(made, r.Text("job")) {
					made = append(made, r.Text("job"))
				}
			}
		}
		h.mu.Unlock()
		var want []string
		for i := range 12 {
			want = append(want, jobName("chaos", time.Date(2000, 1, 1, 0, 5*(i+1), 0, 0, time.UTC)))
		}
		require.Equal(t, want, made)
		js := jobsOf(t, c, "chaos")
		require.Equal(t, jobName("chaos", at("01:00")), js[2].GetName())
		for _, j := range js[:2] {
			require.NotNil(t, app.NestedMap(j.Object, "status")["completionTime"], j.GetName())
		}
		st := cronStatus(t, c, "chaos")
		require.Equal(t, []string{jobName("chaos", at("01:00"))}, activeNames(st))
		require.Equal(t, "2000-01-01T01:00:00Z", st["lastScheduleTime"])
	})
}
