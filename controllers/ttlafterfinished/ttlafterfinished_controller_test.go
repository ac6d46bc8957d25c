package ttlafterfinished_test

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

// finishedJob creates a Job and writes a Complete (or Failed) status for it, as the Job
// controller would, finished at the current virtual time.
func finishedJob(t *testing.T, c *cluster.Cluster, name string, ttl int64, condType string) *api.Unstructured {
	t.Helper()
	spec := map[string]any{"template": map[string]any{"spec": map[string]any{
		"restartPolicy": "Never", "containers": []any{map[string]any{"name": "c", "image": "busybox"}}}}}
	if ttl >= 0 {
		spec["ttlSecondsAfterFinished"] = ttl
	}
	j := c.Create(t, app.Jobs, "default", map[string]any{"apiVersion": "batch/v1", "kind": "Job", "metadata": map[string]any{"name": name}, "spec": spec})
	now := time.Now().UTC().Format(time.RFC3339)
	interim := map[string]any{"Complete": "SuccessCriteriaMet", "Failed": "FailureTarget"}[condType]
	st := map[string]any{
		"startTime": now,
		"conditions": []any{
			map[string]any{"type": interim, "status": "True", "lastProbeTime": now, "lastTransitionTime": now, "reason": "X"},
			map[string]any{"type": condType, "status": "True", "lastProbeTime": now, "lastTransitionTime": now, "reason": "X"},
		},
	}
	if condType == "Complete" {
		st["completionTime"] = now
		st["succeeded"] = int64(1)
	} else {
		st["failed"] = int64(1)
	}
	j.Object["status"] = st
	out, err := c.Client.Resource(app.Jobs).Namespace("default").UpdateStatus(context.Background(), j, api.UpdateOptions{})
	require.NoError(t, err)
	return out
}

// gone reports whether the Job is deleted or being deleted.
func gone(t *testing.T, c *cluster.Cluster, name string) bool {
	j := c.Get(t, app.Jobs, "default", name)
	return j == nil || j.GetDeletionTimestamp() != nil
}

// TestCh14_TTLAfterFinished_DeletesOnTime: a finished Job with a ttl is deleted ttl seconds
// after it finished, not before; one without a ttl stays.
func TestCh14_TTLAfterFinished_DeletesOnTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"ttl-after-finished"}})
		start := time.Now()
		finishedJob(t, c, "done", 60, "Complete")
		finishedJob(t, c, "broken", 30, "Failed")
		finishedJob(t, c, "kept", -1, "Complete")
		c.Eventually(t, 5*time.Minute, func() bool { return gone(t, c, "broken") })
		require.Equal(t, 30*time.Second, time.Since(start).Truncate(time.Second))
		require.False(t, gone(t, c, "done"))
		c.Eventually(t, 5*time.Minute, func() bool { return gone(t, c, "done") })
		require.Equal(t, 60*time.Second, time.Since(start).Truncate(time.Second))
		time.Sleep(10 * time.Minute) // virtual
		c.Settle()
		require.False(t, gone(t, c, "kept"))
	})
}

// TestCh14_TTLAfterFinished_TTLChanged: a ttl raised before it expires postpones the
// deletion; the controller checks the server's copy before deleting.
func TestCh14_TTLAfterFinished_TTLChanged(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"ttl-after-finished"}})
		start := time.Now()
		finishedJob(t, c, "done", 60, "Complete")
		time.Sleep(30 * time.Second)
		_, err := c.Client.Resource(app.Jobs).Namespace("default").Patch(context.Background(), "done", api.MergePatchType,
			[]byte(`{"spec":{"ttlSecondsAfterFinished":120}}`), api.PatchOptions{})
		require.NoError(t, err)
		c.Eventually(t, 5*time.Minute, func() bool { return gone(t, c, "done") })
		require.Equal(t, 120*time.Second, time.Since(start).Truncate(time.Second))
	})
}
