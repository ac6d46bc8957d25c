package daemonset_test

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

// TestCh14_DaemonSet_RollingUpdate: a template change rolls the pods to the new revision,
// never with more than maxUnavailable nodes short of an available pod (maxSurge 0), or never
// with fewer available pods than nodes (maxSurge 1, maxUnavailable 0), where a second pod
// runs beside the old one until it is ready.
func TestCh14_DaemonSet_RollingUpdate(t *testing.T) {
	cases := []struct {
		name          string
		rolling       map[string]any
		maxPods       int // most pods seen at once
		minAvailable  int // fewest ready pods seen at once
		wantSurgeSeen bool
	}{
		{"maxUnavailable 1", map[string]any{"maxUnavailable": int64(1)}, 3, 2, false},
		{"maxUnavailable 2", map[string]any{"maxUnavailable": int64(2)}, 3, 1, false},
		{"maxSurge 1", map[string]any{"maxUnavailable": int64(0), "maxSurge": int64(1)}, 4, 3, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				c := cluster.Start(t, cluster.Options{Controllers: []string{"daemonset"}})
				for _, n := range []string{"node-a", "node-b", "node-c"} {
					createNode(t, c, n, nil)
				}
				c.Create(t, app.DaemonSets, "default", agentDS(map[string]any{
					"updateStrategy": map[string]any{"type": "RollingUpdate", "rollingUpdate": tc.rolling},
				}, nil))
				c.Eventually(t, 10*time.Second, func() bool { readyAll(t, c); return dsStatus(t, c, "numberAvailable") == 3 })
				oldHash := c.List(t, app.Pods, "default")[0].GetLabels()["controller-revision-hash"]
				patchDS(t, c, `{"spec":{"template":{"spec":{"containers":[{"name":"agent","image":"agent:2"}]}}}}`)
				most, fewest := 0, 3
				c.Eventually(t, 60*time.Second, func() bool {
					pods := c.List(t, app.Pods, "default")
					ready := 0
					for _, p := range pods {
						if app.IsPodReady(&p) && p.GetDeletionTimestamp() == nil {
							ready++
						}
					}
					most, fewest = max(most, len(pods)), min(fewest, ready)
					readyAll(t, c) // the kubelet's part: the new pods become ready a step later
					return dsStatus(t, c, "updatedNumberScheduled") == 3 && dsStatus(t, c, "numberAvailable") == 3 && len(pods) == 3
				})
				require.LessOrEqual(t, most, tc.maxPods)
				require.GreaterOrEqual(t, fewest, tc.minAvailable)
				require.Equal(t, tc.wantSurgeSeen, most == 4)
				for _, p := range c.List(t, app.Pods, "default") {
					require.NotEqual(t, oldHash, p.GetLabels()["controller-revision-hash"])
				}
				require.Len(t, c.List(t, app.ControllerRevisions, "default"), 2)
			})
		})
	}
}

// TestCh14_DaemonSet_OnDelete: with OnDelete a template change replaces nothing until a pod
// is deleted; its replacement is of the new revision.
func TestCh14_DaemonSet_OnDelete(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"daemonset"}})
		createNode(t, c, "node-a", nil)
		createNode(t, c, "node-b", nil)
		c.Create(t, app.DaemonSets, "default", agentDS(map[string]any{"updateStrategy": map[string]any{"type": "OnDelete"}}, nil))
		c.Eventually(t, 10*time.Second, func() bool { readyAll(t, c); return dsStatus(t, c, "numberAvailable") == 2 })
		patchDS(t, c, `{"spec":{"template":{"spec":{"containers":[{"name":"agent","image":"agent:2"}]}}}}`)
		c.Eventually(t, 10*time.Second, func() bool { return len(c.List(t, app.ControllerRevisions, "default")) == 2 })
		time.Sleep(30 * time.Second)
		c.Settle()
		require.EqualValues(t, 0, dsStatus(t, c, "updatedNumberScheduled"))
		victim := podsByNode(t, c)["node-b"][0]
		require.NoError(t, c.Client.Resource(app.Pods).Namespace("default").Delete(context.Background(), victim.GetName(), api.DeleteOptions{}))
		c.Eventually(t, 10*time.Second, func() bool { return dsStatus(t, c, "updatedNumberScheduled") == 1 })
		fresh := podsByNode(t, c)["node-b"]
		require.Len(t, fresh, 1)
		require.NotEqual(t, victim.GetName(), fresh[0].GetName())
	})
}

// TestCh14_DaemonSet_FailedPodBackoff: a failed daemon pod is deleted and replaced; when the replacement fails at once, its deletion waits for the
// per-node backoff instead of looping.
func TestCh14_DaemonSet_FailedPodBackoff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"daemonset"}})
		createNode(t, c, "node-a", nil)
		c.Create(t, app.DaemonSets, "default", agentDS(nil, nil))
		c.Eventually(t, 10*time.Second, func() bool { return len(c.List(t, app.Pods, "default")) == 1 })
		fail := func() string {
			p := c.List(t, app.Pods, "default")[0]
			p.Object["status"] = map[string]any{"phase": "Failed"}
			_, err := c.Client.Resource(app.Pods).Namespace("default").UpdateStatus(context.Background(), &p, api.UpdateOptions{})
			require.NoError(t, err)
			return p.GetName()
		}
		replaced := func(name string) bool {
			pods := c.List(t, app.Pods, "default")
			return len(pods) == 1 && pods[0].GetName() != name
		}
		first := fail()
		c.Settle()
		require.True(t, replaced(first), "the first failure is replaced at once")
		second := fail()
		c.Settle()
		require.False(t, replaced(second), "the second waits for the backoff")
		c.Eventually(t, 5*time.Second, func() bool { return replaced(second) })
	})
}

// TestCh14_DaemonSet_AdoptsOrphans: a DaemonSet recreated after an orphaning delete adopts
// its pods and revision (the garbage collector's part, dropping the owner references, is
// done by hand here).
func TestCh14_DaemonSet_AdoptsOrphans(t *testing.T) {
	var buf bytes.Buffer
	defer func() {
		if t.Failed() {
			for _, l := range strings.Split(buf.String(), "\n") {
				if strings.Contains(l, "component=daemonset") {
					t.Log(l)
				}
			}
		}
	}()
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"daemonset"}, Logger: trace.NewPlainLogger(&buf)})
		createNode(t, c, "node-a", nil)
		createNode(t, c, "node-b", nil)
		c.Create(t, app.DaemonSets, "default", agentDS(nil, nil))
		c.Eventually(t, 10*time.Second, func() bool { readyAll(t, c); return dsStatus(t, c, "numberAvailable") == 2 })
		var pods []string
		for _, p := range c.List(t, app.Pods, "default") {
			pods = append(pods, p.GetName())
		}
		require.NoError(t, c.Client.Resource(app.DaemonSets).Namespace("default").Delete(context.Background(), "agent", api.DeleteOptions{}))
		for _, gvr := range []api.GroupVersionResource{app.Pods, app.ControllerRevisions} {
			for _, u := range c.List(t, gvr, "default") {
				u.SetOwnerReferences(nil)
				_, err := c.Client.Resource(gvr).Namespace("default").Update(context.Background(), &u, api.UpdateOptions{})
				require.NoError(t, err)
			}
		}
		c.Settle() // the controller's caches see the orphans before the new DaemonSet
		ds := c.Create(t, app.DaemonSets, "default", agentDS(nil, nil))
		c.Eventually(t, 10*time.Second, func() bool { return dsStatus(t, c, "numberAvailable") == 2 })
		var now []string
		for _, p := range c.List(t, app.Pods, "default") {
			now = append(now, p.GetName())
			require.Equal(t, ds.GetUID(), app.GetControllerOf(&p).UID)
		}
		require.ElementsMatch(t, pods, now)
		revs := c.List(t, app.ControllerRevisions, "default")
		require.Len(t, revs, 1)
		require.Equal(t, ds.GetUID(), app.GetControllerOf(&revs[0]).UID)
	})
}
