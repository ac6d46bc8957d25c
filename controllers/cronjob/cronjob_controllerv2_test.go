package cronjob_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
)

// TestCh14_CronJob_FiresOnSchedule: an hourly CronJob makes one Job per hour, named by
// the scheduled minute, from its template, with the scheduled-timestamp annotation; with
// Allow they run side by side; a finished one leaves status.active.
func TestCh14_CronJob_FiresOnSchedule(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := &hops{}
		c := cluster.Start(t, cluster.Options{Controllers: []string{"cronjob"}, Logger: h.logger()})
		cj := c.Create(t, app.CronJobs, ns, cronJobObject("hourly", "0 * * * *", nil))
		advance(c, 59*time.Minute)
		require.Empty(t, jobsOf(t, c, "hourly"))
		advance(c, time.Minute)
		js := jobsOf(t, c, "hourly")
		require.Equal(t, []string{jobName("hourly", at("01:00"))}, names(js))
		j := js[0]
		require.Equal(t, "2000-01-01T01:00:00Z", j.GetAnnotations()["batch.kubernetes.io/cronjob-scheduled-timestamp"])
		require.Equal(t, "from-template", j.GetAnnotations()["note"])
		require.Equal(t, "hourly", j.GetLabels()["app"])
		require.Equal(t, cj.GetUID(), app.GetControllerOf(&j).UID)
		require.Equal(t, "busybox", app.NestedMap(j.Object, "spec", "template", "spec")["containers"].([]any)[0].(map[string]any)["image"])

		advance(c, 2*time.Hour+30*time.Minute)
		require.Equal(t, []string{jobName("hourly", at("01:00")), jobName("hourly", at("02:00")), jobName("hourly", at("03:00"))}, names(jobsOf(t, c, "hourly")))
		st := cronStatus(t, c, "hourly")
		require.Equal(t, "2000-01-01T03:00:00Z", st["lastScheduleTime"])
		require.Equal(t, names(jobsOf(t, c, "hourly")), activeNames(st))

		done := time.Now().UTC().Format(time.RFC3339)
		finishJob(t, c, jobsOf(t, c, "hourly")[0], true)
		c.Settle()
		st = cronStatus(t, c, "hourly")
		require.Equal(t, []string{jobName("hourly", at("02:00")), jobName("hourly", at("03:00"))}, activeNames(st))
		require.Equal(t, done, st["lastSuccessfulTime"])
		require.Equal(t, []string{"SuccessfulCreate", "SuccessfulCreate", "SuccessfulCreate", "SawCompletedJob"}, h.reasons("default/hourly"))
		evs := eventsAbout(t, c, "hourly")
		require.Contains(t, evs, "SuccessfulCreate: Created job "+jobName("hourly", at("01:00")))
		require.Contains(t, evs, "SawCompletedJob: Saw completed job: "+jobName("hourly", at("01:00"))+", condition: Complete")
	})
}

// TestCh14_CronJob_Forbid: while a Job is active, an activation is not started
// (JobAlreadyActive) and lastScheduleTime stays; so, as upstream, the skipped activation
// runs late, as soon as the active Job finishes.
func TestCh14_CronJob_Forbid(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := &hops{}
		c := cluster.Start(t, cluster.Options{Controllers: []string{"cronjob"}, Logger: h.logger()})
		c.Create(t, app.CronJobs, ns, cronJobObject("single", "*/10 * * * *", map[string]any{"concurrencyPolicy": "Forbid"}))
		advance(c, 10*time.Minute)
		require.Len(t, jobsOf(t, c, "single"), 1)
		advance(c, 10*time.Minute)
		require.Len(t, jobsOf(t, c, "single"), 1)
		require.Equal(t, []string{"SuccessfulCreate", "JobAlreadyActive"}, h.reasons("default/single"))
		advance(c, 5*time.Minute)
		finishJob(t, c, jobsOf(t, c, "single")[0], true)
		c.Settle()
		require.Equal(t, []string{jobName("single", at("00:10")), jobName("single", at("00:20"))}, names(jobsOf(t, c, "single")))
		require.Equal(t, []string{jobName("single", at("00:20"))}, activeNames(cronStatus(t, c, "single")))
		advance(c, 5*time.Minute)
		require.Len(t, jobsOf(t, c, "single"), 2)
		require.Equal(t, []string{"SuccessfulCreate", "JobAlreadyActive", "SawCompletedJob", "SuccessfulCreate", "JobAlreadyActive"}, h.reasons("default/single"))
	})
}

// TestCh14_CronJob_Replace: at the next activation the active Job is deleted and the new
// one takes its place.
func TestCh14_CronJob_Replace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := &hops{}
		c := cluster.Start(t, cluster.Options{Controllers: []string{"cronjob"}, Logger: h.logger()})
		c.Create(t, app.CronJobs, ns, cronJobObject("latest", "*/10 * * * *", map[string]any{"concurrencyPolicy": "Replace"}))
		advance(c, 20*time.Minute)
		require.Equal(t, []string{jobName("latest", at("00:20"))}, names(jobsOf(t, c, "latest")))
		require.Equal(t, []string{jobName("latest", at("00:20"))}, activeNames(cronStatus(t, c, "latest")))
		require.Equal(t, []string{"SuccessfulCreate", "SuccessfulDelete", "SuccessfulCreate"}, h.reasons("default/latest"))
	})
}

// TestCh14_CronJob_Suspend: a suspended CronJob starts nothing; resumed, it runs only the
// latest missed activation, not every one it missed.
func TestCh14_CronJob_Suspend(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"cronjob"}})
		c.Create(t, app.CronJobs, ns, cronJobObject("paused", "0 * * * *", map[string]any{"suspend": true}))
		advance(c, 5*time.Hour+30*time.Minute)
		require.Empty(t, jobsOf(t, c, "paused"))
		patchSpec(t, c, "paused", `{"spec":{"suspend":false}}`)
		c.Settle()
		require.Equal(t, []string{jobName("paused", at("05:00"))}, names(jobsOf(t, c, "paused")))
		advance(c, 30*time.Minute)
		require.Equal(t, []string{jobName("paused", at("05:00")), jobName("paused", at("06:00"))}, names(jobsOf(t, c, "paused")))
	})
}

// TestCh14_CronJob_StartingDeadline: an activation later than startingDeadlineSeconds is
// missed (MissSchedule) and the CronJob waits for the next one.
func TestCh14_CronJob_StartingDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := &hops{}
		c := cluster.Start(t, cluster.Options{Controllers: []string{"cronjob"}, Logger: h.logger()})
		c.Create(t, app.CronJobs, ns, cronJobObject("strict", "0 * * * *", map[string]any{"suspend": true, "startingDeadlineSeconds": int64(600)}))
		advance(c, 2*time.Hour+30*time.Minute)
		patchSpec(t, c, "strict", `{"spec":{"suspend":false}}`)
		c.Settle()
		require.Empty(t, jobsOf(t, c, "strict"))
		require.Nil(t, cronStatus(t, c, "strict")["lastScheduleTime"])
		advance(c, 30*time.Minute)
		require.Equal(t, []string{jobName("strict", at("03:00"))}, names(jobsOf(t, c, "strict")))
		// Resumed 5 minutes after an activation: still within the deadline.
		patchSpec(t, c, "strict", `{"spec":{"suspend":true}}`)
		advance(c, time.Hour+5*time.Minute)
		patchSpec(t, c, "strict", `{"spec":{"suspend":false}}`)
		c.Settle()
		require.Equal(t, []string{jobName("strict", at("03:00")), jobName("strict", at("04:00"))}, names(jobsOf(t, c, "strict")))
		require.NotContains(t, h.reasons("default/strict"), "MissSchedule") // the deadline hid the old ones
	})
}

// TestCh14_CronJob_TooManyMissed: more than 100 missed activations without a deadline
// warn TooManyMissedTimes, and the latest still runs.
func TestCh14_CronJob_TooManyMissed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := &hops{}
		c := cluster.Start(t, cluster.Options{Controllers: []string{"cronjob"}, Logger: h.logger()})
		c.Create(t, app.CronJobs, ns, cronJobObject("busy", "* * * * *", map[string]any{"suspend": true}))
		advance(c, 3*time.Hour+30*time.Second)
		patchSpec(t, c, "busy", `{"spec":{"suspend":false}}`)
		c.Settle()
		require.Equal(t, []string{jobName("busy", at("03:00"))}, names(jobsOf(t, c, "busy")))
		require.Equal(t, []string{"TooManyMissedTimes", "SuccessfulCreate"}, h.reasons("default/busy"))
	})
}

// TestCh14_CronJob_LateBeyondDeadline: resumed five minutes after an activation, with a
// 60 s deadline, that activation is not run; as upstream, the deadline keeps it out of
// consideration, so there is no MissSchedule event either. The next one runs. (An unknown
// spec.timeZone, the controller's UnknownTimeZone, is refused by the server's validation.)
func TestCh14_CronJob_LateBeyondDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := &hops{}
		c := cluster.Start(t, cluster.Options{Controllers: []string{"cronjob"}, Logger: h.logger()})
		c.Create(t, app.CronJobs, ns, cronJobObject("late", "0 * * * *", map[string]any{"startingDeadlineSeconds": int64(60), "suspend": true}))
		advance(c, time.Hour+5*time.Minute)
		patchSpec(t, c, "late", `{"spec":{"suspend":false}}`)
		c.Settle()
		require.Empty(t, jobsOf(t, c, "late"))
		require.Empty(t, h.reasons("default/late"))
		advance(c, time.Hour)
		require.Equal(t, []string{jobName("late", at("02:00"))}, names(jobsOf(t, c, "late")))
	})
}

// TestCh14_CronJob_TimeZone: the schedule is read in spec.timeZone; the annotation carries
// the scheduled time in that zone.
func TestCh14_CronJob_TimeZone(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"cronjob"}})
		c.Create(t, app.CronJobs, ns, cronJobObject("tokyo", "30 9 * * *", map[string]any{"timeZone": "Asia/Tokyo"}))
		c.Create(t, app.CronJobs, ns, cronJobObject("utc", "30 9 * * *", nil))
		advance(c, time.Hour)
		js := jobsOf(t, c, "tokyo")
		require.Equal(t, []string{jobName("tokyo", at("00:30"))}, names(js))
		require.Equal(t, "2000-01-01T09:30:00+09:00", js[0].GetAnnotations()["batch.kubernetes.io/cronjob-scheduled-timestamp"])
		require.Empty(t, jobsOf(t, c, "utc"))
		advance(c, 9*time.Hour)
		require.Equal(t, []string{jobName("utc", at("09:30"))}, names(jobsOf(t, c, "utc")))
	})
}

// TestCh14_CronJob_HistoryLimits: finished Jobs beyond the limits are deleted, oldest
// first, successful and failed counted apart.
func TestCh14_CronJob_HistoryLimits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"cronjob"}})
		c.Create(t, app.CronJobs, ns, cronJobObject("often", "* * * * *", map[string]any{"successfulJobsHistoryLimit": int64(2), "failedJobsHistoryLimit": int64(1)}))
		for i := range 6 {
			advance(c, time.Minute)
			active := activeNames(cronStatus(t, c, "often"))
			require.Len(t, active, 1, "minute %d", i+1)
			finishJob(t, c, *c.Get(t, app.Jobs, ns, active[0]), i%2 == 0) // minutes 1, 3, 5 succeed
			c.Settle()
		}
		require.Equal(t, []string{jobName("often", at("00:03")), jobName("often", at("00:05")), jobName("often", at("00:06"))}, names(jobsOf(t, c, "often")))
	})
}
