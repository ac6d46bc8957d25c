package statefulset_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
)

// TestCh14_StatefulSet_OrderedReady: OrderedReady creates web-0, waits for it to be Running
// and Ready before web-1, and so on; scaling down removes the highest ordinal first, one at
// a time, and the status counts follow.
func TestCh14_StatefulSet_OrderedReady(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"statefulset"}})
		c.Create(t, app.StatefulSets, "default", webSet(3, nil))
		for i, want := range [][]string{{"web-0"}, {"web-0", "web-1"}, {"web-0", "web-1", "web-2"}} {
			c.Eventually(t, 10*time.Second, func() bool { return len(podNames(t, c, "default")) == len(want) })
			// with time passing and no pod ready, nothing more is created
			time.Sleep(5 * time.Second)
			c.Settle()
			require.Equal(t, want, podNames(t, c, "default"), "step %d", i)
			p := c.Get(t, app.Pods, "default", want[i])
			require.Equal(t, want[i], p.GetLabels()["statefulset.kubernetes.io/pod-name"])
			require.Equal(t, string(rune('0'+i)), p.GetLabels()["apps.kubernetes.io/pod-index"])
			require.NotEmpty(t, p.GetLabels()["controller-revision-hash"])
			require.Equal(t, want[i], app.NestedString(p.Object, "spec", "hostname"))
			require.Equal(t, "web", app.NestedString(p.Object, "spec", "subdomain"))
			ref := app.GetControllerOf(p)
			require.NotNil(t, ref)
			require.Equal(t, "StatefulSet", ref.Kind)
			require.True(t, markRunningReady(t, c, "default", want[i]))
		}
		c.Eventually(t, 10*time.Second, func() bool { return setStatus(t, c, "readyReplicas") == 3 })
		s := c.Get(t, app.StatefulSets, "default", "web")
		st := app.NestedMap(s.Object, "status")
		require.Equal(t, st["currentRevision"], st["updateRevision"])
		require.EqualValues(t, 3, st["currentReplicas"])
		require.EqualValues(t, 3, st["updatedReplicas"])
		require.EqualValues(t, 3, st["availableReplicas"])
		require.EqualValues(t, s.GetGeneration(), st["observedGeneration"])

		patchSet(t, c, `{"spec":{"replicas":1}}`)
		c.Eventually(t, 10*time.Second, func() bool { return len(podNames(t, c, "default")) == 1 })
		require.Equal(t, []string{"web-0"}, podNames(t, c, "default"))
		c.Eventually(t, 10*time.Second, func() bool { return setStatus(t, c, "replicas") == 1 })

		msgs := eventMessages(t, c)
		require.Contains(t, msgs, "SuccessfulCreate: create Pod web-0 in StatefulSet web successful")
		require.Contains(t, msgs, "SuccessfulDelete: delete Pod web-2 in StatefulSet web successful")
	})
}
