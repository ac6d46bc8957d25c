package cronjob_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
)

// TestCh14_CronJob_WithJobAndTTL: the CronJob, Job and TTL-after-finished controllers
// together. The scheduled Job gets a pod; once the pod succeeds the Job completes, the
// CronJob records lastSuccessfulTime and drops it from status.active, and a minute later
// the Job is deleted by its ttl.
func TestCh14_CronJob_WithJobAndTTL(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"cronjob", "job", "ttl-after-finished"}})
		obj := cronJobObject("nightly", "0 0 * * *", nil)
		app.NestedMap(obj, "spec", "jobTemplate", "spec")["ttlSecondsAfterFinished"] = int64(60)
		c.Create(t, app.CronJobs, ns, obj)
		advance(c, 24*time.Hour)
		name := jobName("nightly", time.Date(2000, 1, 2, 0, 0, 0, 0, time.UTC))
		require.Equal(t, []string{name}, names(jobsOf(t, c, "nightly")))
		var pod *api.Unstructured
		c.Eventually(t, 10*time.Second, func() bool {
			for _, p := range c.List(t, app.Pods, ns) {
				if p.GetLabels()["job-name"] == name {
					pod = &p
					return true
				}
			}
			return false
		})
		done := time.Now().UTC().Format(time.RFC3339)
		p := pod.DeepCopy()
		p.Object["status"] = map[string]any{"phase": "Succeeded", "containerStatuses": []any{map[string]any{
			"name": "c", "image": "busybox", "imageID": "", "ready": false, "restartCount": int64(0),
			"state": map[string]any{"terminated": map[string]any{"exitCode": int64(0), "startedAt": done, "finishedAt": done}}}}}
		_, err := c.Client.Resource(app.Pods).Namespace(ns).UpdateStatus(context.Background(), p, api.UpdateOptions{})
		require.NoError(t, err)
		c.Eventually(t, 10*time.Second, func() bool {
			st := cronStatus(t, c, "nightly")
			return len(activeNames(st)) == 0 && st["lastSuccessfulTime"] != nil
		})
		finishedAt := time.Now()
		require.Equal(t, "2000-01-02T00:00:00Z", cronStatus(t, c, "nightly")["lastScheduleTime"])
		c.Eventually(t, 5*time.Minute, func() bool {
			j := c.Get(t, app.Jobs, ns, name)
			return j == nil || j.GetDeletionTimestamp() != nil
		})
		require.Equal(t, 60*time.Second, time.Since(finishedAt).Truncate(time.Second))
	})
}
