package job_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
)

func podsByIndex(t testing.TB, c *cluster.Cluster, job string) map[string]api.Unstructured {
	out := map[string]api.Unstructured{}
	for _, p := range activePods(t, c, job) {
		out[p.GetAnnotations()["batch.kubernetes.io/job-completion-index"]] = p
	}
	return out
}

// TestCh14_Job_Indexed: one pod per index with the index annotation, label, hostname,
// generated name and environment variable; a failed index is retried after the back-off;
// completedIndexes prints the finished ones as upstream does.
func TestCh14_Job_Indexed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"job"}})
		c.Create(t, app.Jobs, ns, jobObject("idx", map[string]any{"completions": int64(4), "parallelism": int64(3), "completionMode": "Indexed"}))
		c.Eventually(t, 10*time.Second, func() bool { return len(activePods(t, c, "idx")) == 3 })
		byIx := podsByIndex(t, c, "idx")
		zero := byIx["0"]
		for _, ix := range []string{"0", "1", "2"} {
			p, ok := byIx[ix]
			require.True(t, ok, ix)
			require.Equal(t, "idx-"+ix+"-", p.GetGenerateName())
			require.Equal(t, ix, p.GetLabels()["batch.kubernetes.io/job-completion-index"])
			require.Equal(t, "idx-"+ix, app.NestedString(p.Object, "spec", "hostname"))
			ctr := app.NestedMap(p.Object, "spec")["containers"].([]any)[0].(map[string]any)
			require.Equal(t, []any{map[string]any{"name": "JOB_COMPLETION_INDEX", "valueFrom": map[string]any{"fieldRef": map[string]any{
				"apiVersion": "v1", "fieldPath": "metadata.labels['batch.kubernetes.io/job-completion-index']"}}}}, ctr["env"])
		}
		finishPod(t, c, byIx["1"], 0)
		finishPod(t, c, byIx["2"], 0)
		// Index 3 is the only one pending: it starts in place of the finished ones.
		c.Eventually(t, 10*time.Second, func() bool { _, ok := podsByIndex(t, c, "idx")["3"]; return ok })
		c.Eventually(t, 10*time.Second, func() bool { return jobStatus(t, c, "idx")["completedIndexes"] == "1,2" })
		failedAt := time.Now()
		finishPod(t, c, byIx["0"], 1)
		var again api.Unstructured
		c.Eventually(t, time.Minute, func() bool {
			p, ok := podsByIndex(t, c, "idx")["0"]
			again = p
			return ok && p.GetName() != zero.GetName()
		})
		require.Equal(t, 10*time.Second, again.GetCreationTimestamp().Sub(failedAt))
		finishPod(t, c, again, 0)
		finishPod(t, c, podsByIndex(t, c, "idx")["3"], 0)
		c.Eventually(t, 10*time.Second, func() bool { return condition(jobStatus(t, c, "idx"), "Complete") != nil })
		st := jobStatus(t, c, "idx")
		require.Equal(t, "0-3", st["completedIndexes"])
		require.EqualValues(t, 4, statusInt(st, "succeeded"))
		require.EqualValues(t, 1, statusInt(st, "failed"))
	})
}
