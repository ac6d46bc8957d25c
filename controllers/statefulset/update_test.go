package statefulset_test

import (
	"bytes"
	"context"
	"github.com/informer-lab/informer-lab/internal/trace"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
)

// TestCh14_StatefulSet_MaxUnavailable: with maxUnavailable 2 the rolling update deletes two
// old pods at once (highest ordinals first); with the default of 1, one at a time.
func TestCh14_StatefulSet_MaxUnavailable(t *testing.T) {
	for _, tc := range []struct {
		maxUnavailable any
		wantMostGone   int
	}{{nil, 1}, {int64(2), 2}, {"50%", 2}} {
		t.Run("", func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				c := cluster.Start(t, cluster.Options{Controllers: []string{"statefulset"}})
				ru := map[string]any{"partition": int64(0)}
				if tc.maxUnavailable != nil {
					ru["maxUnavailable"] = tc.maxUnavailable
				}
				c.Create(t, app.StatefulSets, "default", webSet(4, map[string]any{
					"podManagementPolicy": "Parallel",
					"updateStrategy":      map[string]any{"type": "RollingUpdate", "rollingUpdate": ru},
				}))
				c.Eventually(t, 30*time.Second, func() bool { readyAll(t, c, "default"); return setStatus(t, c, "readyReplicas") == 4 })
				patchSet(t, c, `{"spec":{"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:2"}]}}}}`)
				most := 0
				c.Eventually(t, 60*time.Second, func() bool {
					ready := 0
					for _, p := range c.List(t, app.Pods, "default") {
						if app.IsPodReady(&p) {
							ready++
						}
					}
					most = max(most, 4-ready)
					readyAll(t, c, "default")
					return setStatus(t, c, "updatedReplicas") == 4 && setStatus(t, c, "readyReplicas") == 4
				})
				require.Equal(t, tc.wantMostGone, most)
			})
		})
	}
}

// TestCh14_StatefulSet_OnDelete: with OnDelete a new template waits for the pods to be
// deleted; a deleted pod comes back at the update revision, and a failed pod is replaced.
func TestCh14_StatefulSet_OnDelete(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"statefulset"}})
		c.Create(t, app.StatefulSets, "default", webSet(2, map[string]any{"updateStrategy": map[string]any{"type": "OnDelete"}}))
		c.Eventually(t, 30*time.Second, func() bool { readyAll(t, c, "default"); return setStatus(t, c, "readyReplicas") == 2 })
		old := revisionOf(t, c, "web-1")
		patchSet(t, c, `{"spec":{"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:2"}]}}}}`)
		c.Eventually(t, 10*time.Second, func() bool { return len(c.List(t, app.ControllerRevisions, "default")) == 2 })
		time.Sleep(30 * time.Second)
		c.Settle()
		require.Equal(t, old, revisionOf(t, c, "web-1"))
		require.NoError(t, c.Client.Resource(app.Pods).Namespace("default").Delete(context.Background(), "web-1", api.DeleteOptions{}))
		c.Eventually(t, 10*time.Second, func() bool {
			p := c.Get(t, app.Pods, "default", "web-1")
			return p != nil && p.GetLabels()["controller-revision-hash"] != old
		})
		// a failed pod is deleted and made again
		p := c.Get(t, app.Pods, "default", "web-0")
		uid := p.GetUID()
		p.Object["status"] = map[string]any{"phase": "Failed"}
		_, err := c.Client.Resource(app.Pods).Namespace("default").UpdateStatus(context.Background(), p, api.UpdateOptions{})
		require.NoError(t, err)
		c.Eventually(t, 10*time.Second, func() bool {
			p := c.Get(t, app.Pods, "default", "web-0")
			return p != nil && p.GetUID() != uid
		})
	})
}

// orphanAll removes every owner reference from the pods and revisions of default, as the
// garbage collector does for a delete with --cascade=orphan.
func orphanAll(t *testing.T, c *cluster.Cluster) {
	t.Helper()
	for _, gvr := range []api.GroupVersionResource{app.Pods, app.ControllerRevisions} {
		for _, u := range c.List(t, gvr, "default") {
			u.SetOwnerReferences(nil)
			_, err := c.Client.Resource(gvr).Namespace("default").Update(context.Background(), &u, api.UpdateOptions{})
			require.NoError(t, err)
		}
	}
}

// TestCh14_StatefulSet_AdoptsOrphans: a set recreated after an orphaning delete adopts the
// pods and the revision it left behind instead of making new ones.
func TestCh14_StatefulSet_AdoptsOrphans(t *testing.T) {
	var buf bytes.Buffer
	defer func() {
		if t.Failed() {
			for _, l := range strings.Split(buf.String(), "\n") {
				if strings.Contains(l, "component=statefulset") {
					t.Log(l)
				}
			}
		}
	}()
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"statefulset"}, Logger: trace.NewPlainLogger(&buf)})
		c.Create(t, app.StatefulSets, "default", webSet(2, nil))
		c.Eventually(t, 30*time.Second, func() bool { readyAll(t, c, "default"); return setStatus(t, c, "readyReplicas") == 2 })
		uids := map[string]string{}
		for _, p := range c.List(t, app.Pods, "default") {
			uids[p.GetName()] = p.GetUID()
		}
		revs := names(t, c, app.ControllerRevisions, "default")
		require.NoError(t, c.Client.Resource(app.StatefulSets).Namespace("default").Delete(context.Background(), "web", api.DeleteOptions{}))
		orphanAll(t, c)
		c.Settle() // the controller's caches see the orphans before the new set
		set := c.Create(t, app.StatefulSets, "default", webSet(2, nil))
		c.Eventually(t, 30*time.Second, func() bool { return setStatus(t, c, "readyReplicas") == 2 })
		for _, p := range c.List(t, app.Pods, "default") {
			require.Equal(t, uids[p.GetName()], p.GetUID(), "the pod is kept")
			require.Equal(t, set.GetUID(), app.GetControllerOf(&p).UID)
		}
		require.Equal(t, revs, names(t, c, app.ControllerRevisions, "default"))
		for _, r := range c.List(t, app.ControllerRevisions, "default") {
			require.Equal(t, set.GetUID(), app.GetControllerOf(&r).UID)
		}
	})
}
