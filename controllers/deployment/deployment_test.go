package deployment_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/controllers/deployment"
	"github.com/informer-lab/informer-lab/harness/cluster"
)

// TestCh14_Deployment_CreateGivesThreePods: a Deployment of 3 gets one ReplicaSet named
// <deployment>-<hash> with revision 1 and 3 pods; once they are ready the rollout is
// complete, with upstream's conditions.
func TestCh14_Deployment_CreateGivesThreePods(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"deployment", "replicaset"}})
		c.Create(t, app.Deployments, "default", deployObject("web", "nginx", 3))
		c.Eventually(t, 30*time.Second, func() bool { return len(activePods(t, c)) == 3 })
		rss := replicaSets(t, c)
		require.Len(t, rss, 1)
		rs := rss[0]
		hash := rs.GetLabels()[deployment.DefaultDeploymentUniqueLabelKey]
		require.Regexp(t, `^[bcdfghjklmnpqrstvwxz2456789]{6,10}$`, hash)
		require.Equal(t, "web-"+hash, rs.GetName())
		require.Equal(t, "1", rs.GetAnnotations()[deployment.RevisionAnnotation])
		require.Equal(t, "3", rs.GetAnnotations()[deployment.DesiredReplicasAnnotation])
		require.Equal(t, "4", rs.GetAnnotations()[deployment.MaxReplicasAnnotation])
		for _, p := range activePods(t, c) {
			require.Equal(t, hash, p.GetLabels()[deployment.DefaultDeploymentUniqueLabelKey])
		}
		readyAll(t, c)
		c.Eventually(t, 30*time.Second, func() bool { return rolledOut(t, c, "web") })
		d := getDeploy(t, c, "web")
		st := statusOf(t, d)
		require.Equal(t, "1", d.GetAnnotations()[deployment.RevisionAnnotation])
		require.Equal(t, deployment.Status{ObservedGeneration: 1, Replicas: 3, UpdatedReplicas: 3, ReadyReplicas: 3, AvailableReplicas: 3,
			TerminatingReplicas: st.TerminatingReplicas, Conditions: st.Conditions}, st)
		require.Equal(t, "MinimumReplicasAvailable", condition(st, "Available").Reason)
		require.Equal(t, "NewReplicaSetAvailable", condition(st, "Progressing").Reason)
		require.Equal(t, `ReplicaSet "`+rs.GetName()+`" has successfully progressed.`, condition(st, "Progressing").Message)
	})
}
