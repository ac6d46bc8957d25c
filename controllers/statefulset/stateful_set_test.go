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

// TestCh14_StatefulSet_Parallel: Parallel creates every pod at once and deletes every
// condemned pod at once, ready or not; spec.ordinals.start moves the names.
func TestCh14_StatefulSet_Parallel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"statefulset"}})
		c.Create(t, app.StatefulSets, "default", webSet(3, map[string]any{
			"podManagementPolicy": "Parallel",
			"ordinals":            map[string]any{"start": int64(5)},
		}))
		c.Eventually(t, 10*time.Second, func() bool { return len(podNames(t, c, "default")) == 3 })
		require.Equal(t, []string{"web-5", "web-6", "web-7"}, podNames(t, c, "default"))
		c.Eventually(t, 10*time.Second, func() bool { return setStatus(t, c, "replicas") == 3 })
		require.EqualValues(t, 0, setStatus(t, c, "readyReplicas"))
		patchSet(t, c, `{"spec":{"replicas":1}}`)
		c.Eventually(t, 10*time.Second, func() bool { return len(podNames(t, c, "default")) == 1 })
		require.Equal(t, []string{"web-5"}, podNames(t, c, "default"))
	})
}

// TestCh14_StatefulSet_ClaimsAndRetention: each pod gets a claim <template>-<set>-<ordinal>
// mounted as a volume; the retention policy puts the owner references the garbage
// collector follows: Retain leaves none, whenDeleted Delete makes the set the controller,
// whenScaled Delete moves the claim of a scaled-down pod to the pod.
func TestCh14_StatefulSet_ClaimsAndRetention(t *testing.T) {
	cases := []struct {
		name                    string
		whenDeleted, whenScaled string
		wantKept, wantScaled    string // owner kind of web-0's and web-1's claims after the scale down ("" none)
	}{
		{"retain", "Retain", "Retain", "", ""},
		{"delete-on-set-deletion", "Delete", "Retain", "StatefulSet", "StatefulSet"},
		{"delete-on-scale-down", "Retain", "Delete", "", "Pod"},
		{"delete-both", "Delete", "Delete", "StatefulSet", "Pod"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				c := cluster.Start(t, cluster.Options{Controllers: []string{"statefulset"}})
				c.Create(t, app.StatefulSets, "default", webSet(2, map[string]any{
					"podManagementPolicy":                  "Parallel",
					"volumeClaimTemplates":                 []any{claimTemplate("www")},
					"persistentVolumeClaimRetentionPolicy": map[string]any{"whenDeleted": tc.whenDeleted, "whenScaled": tc.whenScaled},
				}))
				c.Eventually(t, 10*time.Second, func() bool { return len(podNames(t, c, "default")) == 2 })
				require.Equal(t, []string{"www-web-0", "www-web-1"}, names(t, c, app.PersistentVolumeClaims, "default"))
				p := c.Get(t, app.Pods, "default", "web-1")
				vols, _ := app.Nested(p.Object, "spec", "volumes")
				require.Contains(t, vols, map[string]any{"name": "www", "persistentVolumeClaim": map[string]any{"claimName": "www-web-1"}})
				claim := c.Get(t, app.PersistentVolumeClaims, "default", "www-web-1")
				require.Equal(t, "web", claim.GetLabels()["app"])
				readyAll(t, c, "default")
				patchSet(t, c, `{"spec":{"replicas":1}}`)
				c.Eventually(t, 10*time.Second, func() bool { return len(podNames(t, c, "default")) == 1 })
				ownerKind := func(n string) string {
					cl := c.Get(t, app.PersistentVolumeClaims, "default", n)
					if ref := app.GetControllerOf(cl); ref != nil {
						return ref.Kind
					}
					return ""
				}
				c.Eventually(t, 10*time.Second, func() bool {
					return ownerKind("www-web-0") == tc.wantKept && ownerKind("www-web-1") == tc.wantScaled
				}, "claims' owners: %q %q", ownerKind("www-web-0"), ownerKind("www-web-1"))
				require.Contains(t, eventMessages(t, c), "SuccessfulCreate: create Claim www-web-0 Pod web-0 in StatefulSet web success")
			})
		})
	}
}

// TestCh14_StatefulSet_RollingUpdatePartition: a template change makes a new revision;
// with partition 1 only the pods at ordinal 1 and above move to it, from the highest down,
// each once the one before is Ready; lowering the partition to 0 finishes the rollout and
// the update revision becomes current.
func TestCh14_StatefulSet_RollingUpdatePartition(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"statefulset"}})
		c.Create(t, app.StatefulSets, "default", webSet(3, map[string]any{
			"updateStrategy": map[string]any{"type": "RollingUpdate", "rollingUpdate": map[string]any{"partition": int64(1)}},
		}))
		converge := func(want int64) {
			c.Eventually(t, 60*time.Second, func() bool {
				readyAll(t, c, "default")
				return setStatus(t, c, "readyReplicas") == 3 && setStatus(t, c, "updatedReplicas") == want
			}, "updated %d", setStatus(t, c, "updatedReplicas"))
		}
		converge(3)
		first := revisionOf(t, c, "web-0")
		patchSet(t, c, `{"spec":{"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:2"}]}}}}`)
		converge(2)
		second := revisionOf(t, c, "web-2")
		require.NotEqual(t, first, second)
		require.Equal(t, first, revisionOf(t, c, "web-0"), "below the partition")
		require.Equal(t, second, revisionOf(t, c, "web-1"))
		s := c.Get(t, app.StatefulSets, "default", "web")
		require.Equal(t, first, app.NestedString(s.Object, "status", "currentRevision"))
		require.Equal(t, second, app.NestedString(s.Object, "status", "updateRevision"))
		require.Equal(t, []string{first, second}, names(t, c, app.ControllerRevisions, "default"))

		patchSet(t, c, `{"spec":{"updateStrategy":{"rollingUpdate":{"partition":0}}}}`)
		converge(3)
		c.Eventually(t, 10*time.Second, func() bool {
			s := c.Get(t, app.StatefulSets, "default", "web")
			return app.NestedString(s.Object, "status", "currentRevision") == second
		})
		for _, r := range c.List(t, app.ControllerRevisions, "default") {
			n, _ := app.NestedInt64(r.Object, "revision")
			want := map[string]int64{first: 1, second: 2}[r.GetName()]
			require.Equal(t, want, n, r.GetName())
		}
	})
}

// TestCh14_StatefulSet_HistoryAndRollback: going back to an earlier template reuses its
// revision with the next revision number, and revisionHistoryLimit trims the unused ones.
func TestCh14_StatefulSet_HistoryAndRollback(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"statefulset"}})
		c.Create(t, app.StatefulSets, "default", webSet(1, map[string]any{"revisionHistoryLimit": int64(1)}))
		image := func(img string) {
			patchSet(t, c, `{"spec":{"template":{"spec":{"containers":[{"name":"nginx","image":"`+img+`"}]}}}}`)
		}
		settled := func() {
			c.Eventually(t, 60*time.Second, func() bool {
				readyAll(t, c, "default")
				s := c.Get(t, app.StatefulSets, "default", "web")
				st := app.NestedMap(s.Object, "status")
				return st["currentRevision"] == st["updateRevision"] && setStatus(t, c, "readyReplicas") == 1 &&
					setStatus(t, c, "observedGeneration") == s.GetGeneration()
			})
		}
		settled()
		v1 := revisionOf(t, c, "web-0")
		image("nginx:2")
		settled()
		image("nginx:3")
		settled()
		// v1 is beyond the limit of one unused revision
		c.Eventually(t, 10*time.Second, func() bool { return len(c.List(t, app.ControllerRevisions, "default")) == 2 })
		require.Nil(t, c.Get(t, app.ControllerRevisions, "default", v1))
		v2 := names(t, c, app.ControllerRevisions, "default")
		image("nginx:2")
		settled()
		got := map[string]int64{}
		for _, r := range c.List(t, app.ControllerRevisions, "default") {
			n, _ := app.NestedInt64(r.Object, "revision")
			got[r.GetName()] = n
		}
		require.Len(t, got, 2)
		back := revisionOf(t, c, "web-0")
		require.Contains(t, v2, back, "the rollback reuses the nginx:2 revision")
		require.EqualValues(t, 4, got[back], "the rollback renumbers the old revision: %v", got)
	})
}

// revisionOf returns a pod's controller-revision-hash.
func revisionOf(t testing.TB, c *cluster.Cluster, pod string) string {
	t.Helper()
	p := c.Get(t, app.Pods, "default", pod)
	require.NotNil(t, p, pod)
	return p.GetLabels()["controller-revision-hash"]
}
