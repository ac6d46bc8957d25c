package deployment_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/controllers/deployment"
	"github.com/informer-lab/informer-lab/harness/cluster"
	"github.com/informer-lab/informer-lab/internal/trace"
)

func startCluster(t *testing.T) *cluster.Cluster {
	return cluster.Start(t, cluster.Options{Controllers: []string{"deployment", "replicaset"}})
}

// TestCh14_Deployment_ScaleUpAndDown: kubectl scale resizes the one ReplicaSet.
func TestCh14_Deployment_ScaleUpAndDown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := startCluster(t)
		c.Create(t, app.Deployments, "default", deployObject("web", "nginx", 3))
		c.Eventually(t, 30*time.Second, func() bool { readyAll(t, c); return rolledOut(t, c, "web") })
		for _, n := range []int64{5, 2, 0, 1} {
			update(t, c, "web", setReplicas(n))
			c.Eventually(t, 30*time.Second, func() bool {
				readyAll(t, c)
				return rolledOut(t, c, "web") && len(activePods(t, c)) == int(n)
			}, "scale to %d", n)
			require.Equal(t, "r1="+itoa(n), sizes(t, c))
			rs := replicaSets(t, c)[0]
			require.Equal(t, itoa(n), rs.GetAnnotations()[deployment.DesiredReplicasAnnotation])
		}
	})
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

// TestCh14_Deployment_Recreate: every old pod goes before a new one is created (read from
// the replicaset controller's trace, which shows each create and delete in order).
func TestCh14_Deployment_Recreate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		var ops []string // "create <rs>" / "delete <rs>"
		tap := slog.New(trace.NewTap(func(r *trace.Record) {
			if r.Component == "replicaset" && (r.Op == "create" || r.Op == "delete") && r.Text("err") == "<nil>" {
				cause := r.Text("cause")
				rs := cause[strings.Index(cause, "default/"):strings.Index(cause, " has")]
				mu.Lock()
				ops = append(ops, r.Op+" "+rs)
				mu.Unlock()
			}
		}))
		c := cluster.Start(t, cluster.Options{Controllers: []string{"deployment", "replicaset"}, Logger: tap})
		obj := deployObject("web", "nginx:1", 3)
		app.NestedMap(obj, "spec")["strategy"] = map[string]any{"type": "Recreate"}
		c.Create(t, app.Deployments, "default", obj)
		c.Eventually(t, 30*time.Second, func() bool { readyAll(t, c); return rolledOut(t, c, "web") })
		oldRS := "default/" + replicaSets(t, c)[0].GetName()
		mu.Lock()
		start := len(ops)
		mu.Unlock()
		update(t, c, "web", setImage("nginx:2"))
		c.Eventually(t, 60*time.Second, func() bool {
			readyAll(t, c)
			return rolledOut(t, c, "web") && len(activePods(t, c)) == 3 && sizes(t, c) == "r1=0 r2=3"
		})
		mu.Lock()
		got := append([]string(nil), ops[start:]...)
		mu.Unlock()
		require.Len(t, got, 6)
		for i, op := range got {
			if i < 3 {
				require.Equal(t, "delete "+oldRS, op, "%v", got)
			} else {
				require.True(t, strings.HasPrefix(op, "create default/web-") && op != "create "+oldRS, "%v", got)
			}
		}
	})
}

// rolloutUndo does what kubectl rollout undo does on apps/v1 (DeploymentRollbacker): find
// the ReplicaSet of the previous revision, and patch the Deployment's template to its
// template without the pod-template-hash label, and its annotations to the ReplicaSet's.
func rolloutUndo(t *testing.T, c *cluster.Cluster, name string) {
	t.Helper()
	d := getDeploy(t, c, name)
	var all []*api.Unstructured
	for _, rs := range c.List(t, app.ReplicaSets, "default") {
		if ref := app.GetControllerOf(&rs); ref != nil && ref.UID == d.GetUID() {
			all = append(all, rs.DeepCopy())
		}
	}
	prev := deployment.LastRevision(all)
	require.NotZero(t, prev, "no rollout history")
	var from *api.Unstructured
	for _, rs := range all {
		if r, _ := deployment.Revision(rs); r == prev {
			from = rs
		}
	}
	tmpl := app.NestedMap(from.Object, "spec", "template")
	delete(app.NestedMap(tmpl, "metadata", "labels"), deployment.DefaultDeploymentUniqueLabelKey)
	annotations := map[string]string{}
	for k, v := range d.GetAnnotations() {
		if k == deployment.RevisionAnnotation || k == "kubectl.kubernetes.io/last-applied-configuration" {
			annotations[k] = v
		}
	}
	for k, v := range from.GetAnnotations() {
		switch k {
		case deployment.RevisionAnnotation, deployment.RevisionHistoryAnnotation, deployment.DesiredReplicasAnnotation, deployment.MaxReplicasAnnotation:
		default:
			annotations[k] = v
		}
	}
	patch, _ := json.Marshal([]map[string]any{
		{"op": "replace", "path": "/spec/template", "value": tmpl},
		{"op": "replace", "path": "/metadata/annotations", "value": annotations},
	})
	_, err := c.Client.Resource(app.Deployments).Namespace("default").Patch(context.Background(), name, api.JSONPatchType, patch, api.PatchOptions{})
	require.NoError(t, err)
}

// TestCh14_Deployment_RollbackAndHistoryLimit: after two image changes, undo returns to the
// previous template: its old ReplicaSet becomes the new one with the next revision (and
// remembers its old revision in revision-history); revisionHistoryLimit deletes the oldest.
func TestCh14_Deployment_RollbackAndHistoryLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := startCluster(t)
		obj := deployObject("web", "nginx:1", 2)
		app.NestedMap(obj, "spec")["revisionHistoryLimit"] = int64(1)
		c.Create(t, app.Deployments, "default", obj)
		done := func() bool { readyAll(t, c); return rolledOut(t, c, "web") && len(activePods(t, c)) == 2 }
		c.Eventually(t, 30*time.Second, done)
		update(t, c, "web", setImage("nginx:2"))
		c.Eventually(t, 60*time.Second, done)
		require.Equal(t, "r1=0 r2=2", sizes(t, c))
		update(t, c, "web", setImage("nginx:3"))
		c.Eventually(t, 60*time.Second, func() bool { return done() && len(replicaSets(t, c)) == 2 })
		require.Equal(t, "r2=0 r3=2", sizes(t, c), "revisionHistoryLimit 1 keeps one old ReplicaSet")

		rolloutUndo(t, c, "web") // back to nginx:2, the ReplicaSet of revision 2
		c.Eventually(t, 60*time.Second, func() bool { return done() && sizes(t, c) == "r3=0 r4=2" })
		rss := replicaSets(t, c)
		require.Equal(t, "2", rss[1].GetAnnotations()[deployment.RevisionHistoryAnnotation])
		cs := app.NestedMap(rss[1].Object, "spec", "template", "spec")["containers"].([]any)
		require.Equal(t, "nginx:2", cs[0].(map[string]any)["image"])
		require.Equal(t, "4", getDeploy(t, c, "web").GetAnnotations()[deployment.RevisionAnnotation])
	})
}

// TestCh14_Deployment_PauseAndResume: a paused Deployment does not roll out a new template
// (Progressing Unknown, DeploymentPaused) but still scales; resuming rolls it out.
func TestCh14_Deployment_PauseAndResume(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := startCluster(t)
		c.Create(t, app.Deployments, "default", deployObject("web", "nginx:1", 2))
		c.Eventually(t, 30*time.Second, func() bool { readyAll(t, c); return rolledOut(t, c, "web") })
		update(t, c, "web", func(u *api.Unstructured) { app.NestedMap(u.Object, "spec")["paused"] = true })
		c.Eventually(t, 30*time.Second, func() bool {
			return condition(statusOf(t, getDeploy(t, c, "web")), "Progressing").Reason == deployment.PausedDeployReason
		})
		require.Equal(t, "Unknown", condition(statusOf(t, getDeploy(t, c, "web")), "Progressing").Status)
		update(t, c, "web", setImage("nginx:2"))
		update(t, c, "web", setReplicas(3))
		c.Eventually(t, 30*time.Second, func() bool { readyAll(t, c); return len(activePods(t, c)) == 3 })
		require.Equal(t, "r1=3", sizes(t, c), "paused: scaled, not rolled")
		update(t, c, "web", func(u *api.Unstructured) { app.NestedMap(u.Object, "spec")["paused"] = false })
		c.Eventually(t, 60*time.Second, func() bool { readyAll(t, c); return rolledOut(t, c, "web") && sizes(t, c) == "r1=0 r2=3" })
		require.Equal(t, deployment.NewRSAvailableReason, condition(statusOf(t, getDeploy(t, c, "web")), "Progressing").Reason)
	})
}

// TestCh14_Deployment_ProgressDeadlineExceeded: pods that never become ready time the
// rollout out after progressDeadlineSeconds (Progressing False, ProgressDeadlineExceeded),
// and Available is False while fewer than replicas-maxUnavailable are available.
func TestCh14_Deployment_ProgressDeadlineExceeded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := startCluster(t)
		obj := deployObject("web", "nginx", 3)
		app.NestedMap(obj, "spec")["progressDeadlineSeconds"] = int64(30)
		c.Create(t, app.Deployments, "default", obj)
		c.Eventually(t, 10*time.Second, func() bool { return len(activePods(t, c)) == 3 })
		st := statusOf(t, getDeploy(t, c, "web"))
		// created (NewReplicaSetCreated), then progressing as its pods appear
		require.Equal(t, deployment.ReplicaSetUpdatedReason, condition(st, "Progressing").Reason)
		require.Regexp(t, `^ReplicaSet "web-\w+" is progressing.$`, condition(st, "Progressing").Message)
		require.Equal(t, deployment.MinimumReplicasUnavailable, condition(st, "Available").Reason)
		require.Equal(t, "False", condition(st, "Available").Status)
		start := time.Now()
		c.Eventually(t, 2*time.Minute, func() bool {
			return condition(statusOf(t, getDeploy(t, c, "web")), "Progressing").Reason == deployment.TimedOutReason
		})
		require.GreaterOrEqual(t, time.Since(start), 29*time.Second)
		cond := condition(statusOf(t, getDeploy(t, c, "web")), "Progressing")
		require.Equal(t, "False", cond.Status)
		require.Contains(t, cond.Message, "has timed out progressing.")
		// pods that finally become ready complete the rollout
		c.Eventually(t, 30*time.Second, func() bool { readyAll(t, c); return rolledOut(t, c, "web") })
		c.Eventually(t, 30*time.Second, func() bool {
			return condition(statusOf(t, getDeploy(t, c, "web")), "Available").Reason == deployment.MinimumReplicasAvailable
		})
	})
}
