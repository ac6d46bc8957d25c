package job_test

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

// TestCh14_Job_BackoffLimitExceeded: every pod fails. Each replacement waits 10 s, then
// 20 s after the failure before it; the third failure is one more than backoffLimit 2, so
// the Job gets FailureTarget, then Failed, with reason BackoffLimitExceeded.
func TestCh14_Job_BackoffLimitExceeded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := &hops{}
		c := cluster.Start(t, cluster.Options{Controllers: []string{"job"}, Logger: h.logger()})
		c.Create(t, app.Jobs, ns, jobObject("flaky", map[string]any{"backoffLimit": int64(2)}))
		var delays []time.Duration
		var lastFailure time.Time
		seen := map[string]bool{}
		for range 3 {
			var pod api.Unstructured
			c.Eventually(t, 10*time.Minute, func() bool {
				for _, p := range activePods(t, c, "flaky") {
					if !seen[p.GetName()] {
						pod = p
						return true
					}
				}
				return false
			})
			seen[pod.GetName()] = true
			if !lastFailure.IsZero() {
				delays = append(delays, pod.GetCreationTimestamp().Sub(lastFailure))
			}
			lastFailure = time.Now()
			finishPod(t, c, pod, 1)
		}
		require.Equal(t, []time.Duration{10 * time.Second, 20 * time.Second}, delays)
		c.Eventually(t, time.Minute, func() bool { return condition(jobStatus(t, c, "flaky"), "Failed") != nil })
		st := jobStatus(t, c, "flaky")
		require.EqualValues(t, 3, statusInt(st, "failed"))
		require.EqualValues(t, 0, statusInt(st, "active"))
		require.Nil(t, st["completionTime"])
		for _, ty := range []string{"FailureTarget", "Failed"} {
			cond := condition(st, ty)
			require.Equal(t, "True", cond["status"], ty)
			require.Equal(t, "BackoffLimitExceeded", cond["reason"], ty)
			require.Equal(t, "Job has reached the specified backoff limit", cond["message"], ty)
		}
		require.Len(t, podsOf(t, c, "flaky"), 3)
		for _, p := range podsOf(t, c, "flaky") {
			require.Empty(t, p.GetFinalizers())
		}
		require.Equal(t, []string{"SuccessfulCreate", "SuccessfulCreate", "SuccessfulCreate", "BackoffLimitExceeded"}, h.reasons("job-controller", "default/flaky"))
		require.Contains(t, eventsFor(t, c, "flaky"), "BackoffLimitExceeded: Job has reached the specified backoff limit")
	})
}

// TestCh14_Job_BackoffCap: the delay doubles up to six minutes and stays there. Each
// replacement is absent a second before its time and present at it.
func TestCh14_Job_BackoffCap(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"job"}})
		c.Create(t, app.Jobs, ns, jobObject("cap", map[string]any{"backoffLimit": int64(10)}))
		c.Eventually(t, 10*time.Second, func() bool { return len(activePods(t, c, "cap")) == 1 })
		s := time.Second
		for _, delay := range []time.Duration{10 * s, 20 * s, 40 * s, 80 * s, 160 * s, 320 * s, 360 * s, 360 * s} {
			failed := activePods(t, c, "cap")
			require.Len(t, failed, 1)
			failedAt := time.Now()
			finishPod(t, c, failed[0], 1)
			time.Sleep(delay - time.Second)
			c.Settle()
			require.Empty(t, activePods(t, c, "cap"), "a second before the %v back-off ends", delay)
			time.Sleep(time.Second)
			c.Settle()
			next := activePods(t, c, "cap")
			require.Len(t, next, 1, "when the %v back-off ends", delay)
			require.Equal(t, delay, next[0].GetCreationTimestamp().Sub(failedAt))
		}
	})
}

// TestCh14_Job_ActiveDeadline: pods that run past activeDeadlineSeconds are deleted and the
// Job fails with DeadlineExceeded, on time.
func TestCh14_Job_ActiveDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := &hops{}
		c := cluster.Start(t, cluster.Options{Controllers: []string{"job"}, Logger: h.logger()})
		c.Create(t, app.Jobs, ns, jobObject("slow", map[string]any{"parallelism": int64(2), "completions": int64(4), "activeDeadlineSeconds": int64(30)}))
		c.Eventually(t, 10*time.Second, func() bool { return len(activePods(t, c, "slow")) == 2 })
		for _, p := range activePods(t, c, "slow") {
			runPod(t, c, p)
		}
		c.Eventually(t, 10*time.Second, func() bool { return statusInt(jobStatus(t, c, "slow"), "ready") == 2 })
		c.Eventually(t, time.Minute, func() bool { return condition(jobStatus(t, c, "slow"), "Failed") != nil })
		st := jobStatus(t, c, "slow")
		start, err := time.Parse(time.RFC3339, st["startTime"].(string))
		require.NoError(t, err)
		failed, err := time.Parse(time.RFC3339, condition(st, "Failed")["lastTransitionTime"].(string))
		require.NoError(t, err)
		// The deadline's sync marks the Job FailureTarget at exactly 30 s. Failed follows when
		// the pods are gone: in the same instant, or after the Job API back-off of one second
		// when that sync's cache had not yet shown the FailureTarget write (upstream's
		// consistency check requeues it the same way).
		target, err := time.Parse(time.RFC3339, condition(st, "FailureTarget")["lastTransitionTime"].(string))
		require.NoError(t, err)
		require.Equal(t, 30*time.Second, target.Sub(start))
		require.Contains(t, []time.Duration{30 * time.Second, 31 * time.Second}, failed.Sub(start))
		require.Equal(t, "DeadlineExceeded", condition(st, "Failed")["reason"])
		require.Equal(t, "Job was active longer than specified deadline", condition(st, "Failed")["message"])
		require.EqualValues(t, 2, statusInt(st, "failed"))
		require.EqualValues(t, 0, statusInt(st, "active"))
		require.EqualValues(t, 0, statusInt(st, "ready"))
		require.EqualValues(t, 0, statusInt(st, "terminating"))
		require.Empty(t, podsOf(t, c, "slow")) // deleted once their finalizers went
		reasons := h.reasons("job-controller", "default/slow")
		require.Equal(t, 2, count(reasons, "SuccessfulDelete"))
		require.Equal(t, "DeadlineExceeded", reasons[len(reasons)-1])
	})
}

// TestCh14_Job_SuspendResume: a Job created suspended has no pods and no startTime;
// resuming starts its pods; suspending again deletes them without counting them.
func TestCh14_Job_SuspendResume(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := &hops{}
		c := cluster.Start(t, cluster.Options{Controllers: []string{"job"}, Logger: h.logger()})
		c.Create(t, app.Jobs, ns, jobObject("later", map[string]any{"parallelism": int64(2), "completions": int64(2), "suspend": true}))
		c.Eventually(t, 10*time.Second, func() bool { return condition(jobStatus(t, c, "later"), "Suspended") != nil })
		st := jobStatus(t, c, "later")
		require.Equal(t, "True", condition(st, "Suspended")["status"])
		require.Equal(t, "JobSuspended", condition(st, "Suspended")["reason"])
		require.Nil(t, st["startTime"])
		require.Empty(t, podsOf(t, c, "later"))

		setSuspend := func(v bool) {
			_, err := c.Client.Resource(app.Jobs).Namespace(ns).Patch(context.Background(), "later", api.MergePatchType,
				[]byte(`{"spec":{"suspend":`+map[bool]string{true: "true", false: "false"}[v]+`}}`), api.PatchOptions{})
			require.NoError(t, err)
		}
		setSuspend(false)
		c.Eventually(t, 10*time.Second, func() bool { return len(activePods(t, c, "later")) == 2 })
		c.Eventually(t, 10*time.Second, func() bool { return condition(jobStatus(t, c, "later"), "Suspended")["status"] == "False" })
		st = jobStatus(t, c, "later")
		require.Equal(t, "JobResumed", condition(st, "Suspended")["reason"])
		require.NotNil(t, st["startTime"])

		setSuspend(true)
		c.Eventually(t, 10*time.Second, func() bool { return len(podsOf(t, c, "later")) == 0 })
		// A sync that ran while the pod cache still held a deleted pod writes active 1 after
		// the suspending sync's 0, as upstream's does; the next sync writes 0 again.
		c.Eventually(t, 10*time.Second, func() bool {
			st := jobStatus(t, c, "later")
			return condition(st, "Suspended")["status"] == "True" && statusInt(st, "active") == 0
		})
		st = jobStatus(t, c, "later")
		require.EqualValues(t, 0, statusInt(st, "failed")) // suspension is not failure
		require.EqualValues(t, 0, statusInt(st, "active"))
		require.Nil(t, st["startTime"])
		// Upstream's order: manageJob creates the pods, then the condition and its event.
		require.Equal(t, []string{"Suspended", "SuccessfulCreate", "SuccessfulCreate", "Resumed", "SuccessfulDelete", "SuccessfulDelete", "Suspended"},
			h.reasons("job-controller", "default/later"))
	})
}

// TestCh14_Job_PodFailurePolicy: exit code 42 fails the Job at once (FailJob); a pod
// failure with a DisruptionTarget condition is ignored and does not count.
func TestCh14_Job_PodFailurePolicy(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"job"}})
		c.Create(t, app.Jobs, ns, jobObject("pfp", map[string]any{
			"backoffLimit": int64(5),
			"podFailurePolicy": map[string]any{"rules": []any{
				map[string]any{"action": "FailJob", "onExitCodes": map[string]any{"operator": "In", "values": []any{int64(42)}}},
				map[string]any{"action": "Ignore", "onPodConditions": []any{map[string]any{"type": "DisruptionTarget"}}},
			}},
		}))
		c.Eventually(t, 10*time.Second, func() bool { return len(activePods(t, c, "pfp")) == 1 })
		first := activePods(t, c, "pfp")[0]
		// Disrupted: Failed with a DisruptionTarget condition and exit code 1.
		p := first.DeepCopy()
		now := time.Now().UTC().Format(time.RFC3339)
		p.Object["status"] = map[string]any{
			"phase":      "Failed",
			"conditions": []any{map[string]any{"type": "DisruptionTarget", "status": "True", "lastTransitionTime": now}},
			"containerStatuses": []any{map[string]any{"name": "work", "image": "busybox", "imageID": "", "ready": false, "restartCount": int64(0),
				"state": map[string]any{"terminated": map[string]any{"exitCode": int64(1), "startedAt": now, "finishedAt": now}}}},
		}
		_, err := c.Client.Resource(app.Pods).Namespace(ns).UpdateStatus(context.Background(), p, api.UpdateOptions{})
		require.NoError(t, err)
		var second api.Unstructured
		c.Eventually(t, time.Minute, func() bool {
			for _, q := range activePods(t, c, "pfp") {
				if q.GetName() != first.GetName() {
					second = q
					return true
				}
			}
			return false
		})
		require.EqualValues(t, 0, statusInt(jobStatus(t, c, "pfp"), "failed"))
		finishPod(t, c, second, 42)
		c.Eventually(t, time.Minute, func() bool { return condition(jobStatus(t, c, "pfp"), "Failed") != nil })
		st := jobStatus(t, c, "pfp")
		require.Equal(t, "PodFailurePolicy", condition(st, "Failed")["reason"])
		require.Equal(t, "Container work for pod default/"+second.GetName()+" failed with exit code 42 matching FailJob rule at index 0", condition(st, "Failed")["message"])
		require.EqualValues(t, 1, statusInt(st, "failed"))
	})
}
