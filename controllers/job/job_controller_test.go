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

// TestCh14_Job_CompletionsWithParallelism: three completions, two at a time. The pods carry
// the Job's labels and the tracking finalizer; each finished pod is counted, its finalizer
// removed, and the Job ends Complete with SuccessCriteriaMet first.
func TestCh14_Job_CompletionsWithParallelism(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := &hops{}
		c := cluster.Start(t, cluster.Options{Controllers: []string{"job"}, Logger: h.logger()})
		j := c.Create(t, app.Jobs, ns, jobObject("pi", map[string]any{"completions": int64(3), "parallelism": int64(2)}))
		c.Eventually(t, 10*time.Second, func() bool { return len(activePods(t, c, "pi")) == 2 })
		for _, p := range podsOf(t, c, "pi") {
			require.Equal(t, "pi-", p.GetGenerateName())
			require.Equal(t, []string{"batch.kubernetes.io/job-tracking"}, p.GetFinalizers())
			l := p.GetLabels()
			require.Equal(t, j.GetUID(), l["batch.kubernetes.io/controller-uid"])
			require.Equal(t, j.GetUID(), l["controller-uid"])
			require.Equal(t, "pi", l["job-name"])
			require.Equal(t, j.GetUID(), app.GetControllerOf(&p).UID)
		}
		c.Eventually(t, 10*time.Second, func() bool {
			st := jobStatus(t, c, "pi")
			return statusInt(st, "active") == 2 && st["startTime"] != nil
		})
		for _, p := range activePods(t, c, "pi") {
			finishPod(t, c, p, 0)
		}
		c.Eventually(t, 10*time.Second, func() bool { return len(activePods(t, c, "pi")) == 1 })
		c.Eventually(t, 10*time.Second, func() bool { return statusInt(jobStatus(t, c, "pi"), "succeeded") == 2 })
		finishPod(t, c, activePods(t, c, "pi")[0], 0)
		c.Eventually(t, 10*time.Second, func() bool { return condition(jobStatus(t, c, "pi"), "Complete") != nil })
		st := jobStatus(t, c, "pi")
		require.EqualValues(t, 3, statusInt(st, "succeeded"))
		require.EqualValues(t, 0, statusInt(st, "active"))
		require.NotNil(t, st["completionTime"])
		require.Equal(t, map[string]any{}, st["uncountedTerminatedPods"])
		scm := condition(st, "SuccessCriteriaMet")
		require.Equal(t, "CompletionsReached", scm["reason"])
		require.Equal(t, "Reached expected number of succeeded pods", scm["message"])
		require.Equal(t, "CompletionsReached", condition(st, "Complete")["reason"])
		for _, p := range podsOf(t, c, "pi") {
			require.Empty(t, p.GetFinalizers(), p.GetName())
		}
		require.Equal(t, []string{"SuccessfulCreate", "SuccessfulCreate", "SuccessfulCreate", "Completed"}, h.reasons("job-controller", "default/pi"))
		require.Positive(t, countPrefix(eventsFor(t, c, "pi"), "SuccessfulCreate: Created pod: pi-"))
	})
}

// TestCh14_Job_OrphanPodsReleased: a running Job deleted without cascading leaves its pods;
// the controller removes their tracking finalizer, so they can be deleted.
func TestCh14_Job_OrphanPodsReleased(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"job"}})
		c.Create(t, app.Jobs, ns, jobObject("left", map[string]any{"parallelism": int64(2), "completions": int64(4)}))
		c.Eventually(t, 10*time.Second, func() bool { return len(activePods(t, c, "left")) == 2 })
		orphan := "Orphan"
		require.NoError(t, c.Client.Resource(app.Jobs).Namespace(ns).Delete(context.Background(), "left", api.DeleteOptions{PropagationPolicy: &orphan}))
		c.Eventually(t, 10*time.Second, func() bool {
			for _, p := range podsOf(t, c, "left") {
				if len(p.GetFinalizers()) > 0 {
					return false
				}
			}
			return len(podsOf(t, c, "left")) == 2
		})
	})
}

// TestCh14_Job_ParallelismScaledDown: lowering parallelism deletes the surplus pods without
// counting them as failures; raising it starts new ones.
func TestCh14_Job_ParallelismScaledDown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"job"}})
		c.Create(t, app.Jobs, ns, jobObject("wide", map[string]any{"completions": int64(6), "parallelism": int64(3)}))
		c.Eventually(t, 10*time.Second, func() bool { return len(activePods(t, c, "wide")) == 3 })
		setParallelism := func(n string) {
			_, err := c.Client.Resource(app.Jobs).Namespace(ns).Patch(context.Background(), "wide", api.MergePatchType, []byte(`{"spec":{"parallelism":`+n+`}}`), api.PatchOptions{})
			require.NoError(t, err)
		}
		setParallelism("1")
		c.Eventually(t, 10*time.Second, func() bool { return len(podsOf(t, c, "wide")) == 1 })
		c.Eventually(t, 10*time.Second, func() bool { return statusInt(jobStatus(t, c, "wide"), "active") == 1 })
		require.EqualValues(t, 0, statusInt(jobStatus(t, c, "wide"), "failed"))
		setParallelism("2")
		c.Eventually(t, 10*time.Second, func() bool { return len(activePods(t, c, "wide")) == 2 })
	})
}
