package ch14

import (
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
)

var update = flag.Bool("update", false, "rewrite the golden traces of testdata/*.golden")

// TestCh14_Sync_SlowStartBatch: creations go in batches of 1, 2, 4, 8, …; the batch in which a call
// fails is the last, so a create that always fails costs one call, not a hundred.
func TestCh14_Sync_SlowStartBatch(t *testing.T) {
	tests := []struct {
		name             string
		count, failAt    int // failAt: the n-th call fails (0: none)
		calls, successes int
		wantErr          bool
	}{
		{"nothing to do", 0, 0, 0, 0, false},
		{"one pod", 1, 0, 1, 1, false},
		{"ten pods: batches 1, 2, 4, 3", 10, 0, 10, 10, false},
		{"the first call fails: nothing more is tried", 10, 1, 1, 0, true},
		{"a call of the second batch fails: 1+2 calls", 10, 2, 3, 2, true},
		{"a call of the third batch fails: 1+2+4 calls", 10, 4, 7, 6, true},
		{"a call of the last batch fails", 10, 8, 10, 9, true},
		{"500 pods that all fail: one call", 500, 1, 1, 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var calls atomic.Int64
			got, err := slowStartBatch(tc.count, SlowStartInitialBatchSize, func() error {
				if n := calls.Add(1); int(n) == tc.failAt {
					return errors.New("exceeded quota")
				}
				return nil
			})
			assert.Equal(t, tc.successes, got, "successes")
			assert.Equal(t, tc.calls, int(calls.Load()), "calls")
			assert.Equal(t, tc.wantErr, err != nil, "error: %v", err)
		})
	}
}

// TestCh14_Sync_PodsToDelete: scaling down deletes the pods least worth keeping: unscheduled,
// then Pending, then not ready, then the newest.
func TestCh14_Sync_PodsToDelete(t *testing.T) {
	at := func(min int) string { return time.Date(2026, 1, 1, 0, min, 0, 0, time.UTC).Format(time.RFC3339) }
	pod := func(name, node, phase string, ready bool, created string) *api.Unstructured {
		st := "False"
		if ready {
			st = "True"
		}
		return &api.Unstructured{Object: map[string]any{
			"metadata": map[string]any{"name": name, "namespace": "default", "creationTimestamp": created},
			"spec":     map[string]any{"nodeName": node},
			"status":   map[string]any{"phase": phase, "conditions": []any{map[string]any{"type": "Ready", "status": st}}},
		}}
	}
	all := []*api.Unstructured{
		pod("ready-old", "node-1", "Running", true, at(1)),
		pod("ready-new", "node-1", "Running", true, at(5)),
		pod("running-not-ready", "node-2", "Running", false, at(2)),
		pod("pending-on-node", "node-2", "Pending", false, at(3)),
		pod("unscheduled", "", "Pending", false, at(0)),
		pod("unknown", "node-3", "Unknown", false, at(4)),
	}
	tests := []struct {
		diff int
		want []string
	}{
		{1, []string{"unscheduled"}},
		{2, []string{"unscheduled", "pending-on-node"}},
		{4, []string{"unscheduled", "pending-on-node", "unknown", "running-not-ready"}},
		{5, []string{"unscheduled", "pending-on-node", "unknown", "running-not-ready", "ready-new"}},
		{9, []string{"unscheduled", "pending-on-node", "unknown", "running-not-ready", "ready-new", "ready-old"}},
	}
	for _, tc := range tests {
		var got []string
		for _, p := range getPodsToDelete(all, tc.diff) {
			got = append(got, p.GetName())
		}
		assert.Equal(t, tc.want, got, "diff %d", tc.diff)
	}
}

// TestCh14_Sync_Expectations: a ReplicaSet's expectations are satisfied when it has none, when
// every creation and deletion it asked for was observed (a pod seen terminating and then
// gone counts once), or when they are older than ExpectationsTimeout.
func TestCh14_Sync_Expectations(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := NewExpectations()
		const rs = "default/web-rs"
		assert.True(t, e.SatisfiedExpectations(rs), "no record: a new controller acts")

		e.ExpectCreations(rs, 2)
		assert.False(t, e.SatisfiedExpectations(rs))
		e.CreationObserved(rs)
		assert.False(t, e.SatisfiedExpectations(rs), "one of two seen")
		e.CreationObserved(rs)
		assert.True(t, e.SatisfiedExpectations(rs), "both seen")
		e.CreationObserved(rs) // a pod of someone else's creation: never below zero
		e.ExpectCreations(rs, 1)
		assert.False(t, e.SatisfiedExpectations(rs), "a fresh expectation is not met by the old surplus")

		e.ExpectDeletions(rs, []string{"default/web-rs-1", "default/web-rs-2"})
		e.DeletionObserved(rs, "default/web-rs-1") // deletionTimestamp set
		e.DeletionObserved(rs, "default/web-rs-1") // then gone: the same pod again
		assert.False(t, e.SatisfiedExpectations(rs), "a pod seen twice is one deletion")
		e.DeletionObserved(rs, "default/web-rs-9") // not one this controller deleted
		assert.False(t, e.SatisfiedExpectations(rs))
		add, del := e.Pending(rs)
		assert.Equal(t, [2]int{0, 1}, [2]int{add, del})

		time.Sleep(ExpectationsTimeout) // virtual time
		assert.False(t, e.SatisfiedExpectations(rs), "exactly the timeout: still waiting")
		time.Sleep(time.Second)
		assert.True(t, e.SatisfiedExpectations(rs), "older than the timeout: given up")

		e.ExpectCreations(rs, 1)
		e.DeleteExpectations(rs)
		assert.True(t, e.SatisfiedExpectations(rs), "the ReplicaSet is gone")
	})
}

// TestCh14_Sync_Scales: the controller keeps spec.replicas pods, each with a controller
// owner reference to the ReplicaSet, keeps the ready ones when scaling down, and reports the
// counts in the status.
func TestCh14_Sync_Scales(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{})
		startRS(t, c, nil)
		rs := c.Create(t, app.ReplicaSets, "default", replicaSet("web-rs", 3))
		c.Eventually(t, 10*time.Second, func() bool { return len(podNames(t, c)) == 3 })
		assert.Equal(t, []string{"web-rs-1", "web-rs-2", "web-rs-3"}, podNames(t, c))
		for _, p := range c.List(t, app.Pods, "default") {
			ref := app.GetControllerOf(&p)
			require.NotNil(t, ref, p.GetName())
			assert.Equal(t, rs.GetUID(), ref.UID)
			assert.True(t, *ref.BlockOwnerDeletion)
		}

		scale(t, c, "web-rs", 5)
		c.Eventually(t, 10*time.Second, func() bool { return len(podNames(t, c)) == 5 })

		markRunning(t, c, "web-rs-2", true)
		markRunning(t, c, "web-rs-4", false)
		c.Settle() // the controller's cache holds both statuses before it ranks the pods
		scale(t, c, "web-rs", 1)
		c.Eventually(t, 10*time.Second, func() bool { return len(podNames(t, c)) == 1 })
		assert.Equal(t, []string{"web-rs-2"}, podNames(t, c), "the ready pod stays")

		c.Eventually(t, 10*time.Second, func() bool {
			got := c.Get(t, app.ReplicaSets, "default", "web-rs")
			ready, _ := app.NestedInt64(got.Object, "status", "readyReplicas")
			n, _ := app.NestedInt64(got.Object, "status", "replicas")
			gen, _ := app.NestedInt64(got.Object, "status", "observedGeneration")
			return n == 1 && ready == 1 && gen == got.GetGeneration()
		}, "status: replicas 1, readyReplicas 1, observedGeneration caught up")
	})
}

// TestCh14_Sync_ExpectationsStopDoubleCreate: the server loses the ADDED events of the pods the
// controller creates, so its cache shows none of them. Syncs keep coming (the ReplicaSet
// changes), and each finds 0 of 3 pods in the cache; the expectations hold them back, so the
// server keeps exactly 3. A relist shows the cache the pods, which meets the expectations.
func TestCh14_Sync_ExpectationsStopDoubleCreate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{})
		rsc, pc := startRS(t, c, nil)
		pc.dropAdds.Store(true)
		c.Create(t, app.ReplicaSets, "default", replicaSet("web-rs", 3))
		c.Eventually(t, 10*time.Second, func() bool { return len(podNames(t, c)) == 3 })
		for i := range 5 {
			patch := []byte(`{"metadata":{"annotations":{"nudge":"` + string(rune('a'+i)) + `"}}}`)
			_, err := c.Client.Resource(app.ReplicaSets).Namespace("default").Patch(t.Context(), "web-rs", api.MergePatchType, patch, api.PatchOptions{})
			require.NoError(t, err)
			c.Settle()
			time.Sleep(10 * time.Second)
		}
		c.Settle()
		assert.Len(t, podNames(t, c), 3, "the server has 3 pods, not 6 or 18")
		assert.Empty(t, rsc.podIndexer.ListKeys(), "the cache saw none of them")
		add, _ := rsc.expectations.Pending("default/web-rs")
		assert.Equal(t, 3, add, "three creations still expected")

		pc.dropAdds.Store(false)
		c.Server.CompactAll()
		c.Server.CloseAllWatches() // the reflectors get 410 and relist: the cache sees the pods
		c.Eventually(t, time.Minute, func() bool { return len(rsc.podIndexer.ListKeys()) == 3 })
		c.Eventually(t, time.Minute, func() bool { return rsc.expectations.SatisfiedExpectations("default/web-rs") })
		c.Settle()
		assert.Len(t, podNames(t, c), 3)
		assert.Equal(t, int64(3), pc.creates.Load(), "no pod was created twice")
	})
}

// TestCh14_Sync_CreateFailuresStopTheBatch: when every create fails (a quota, say), one sync makes
// one call, and the creations never attempted are observed at once, so the next sync is not
// held back for ExpectationsTimeout. Deletions that fail are observed the same way.
func TestCh14_Sync_CreateFailuresStopTheBatch(t *testing.T) {
	pc := &countingPodControl{err: errors.New("exceeded quota")}
	c := &ReplicaSetController{expectations: NewExpectations(), podControl: pc}
	rs := &api.Unstructured{Object: replicaSet("web-rs", 8)}
	rs.SetNamespace("default")

	err := c.manageReplicas(t.Context(), nil, rs)
	require.ErrorContains(t, err, "exceeded quota")
	assert.Equal(t, int64(1), pc.creates.Load(), "one failed call, not eight")
	assert.True(t, c.expectations.SatisfiedExpectations("default/web-rs"), "nothing left to wait for")

	pods := []*api.Unstructured{}
	for _, n := range []string{"a", "b", "c"} {
		p := &api.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": n, "namespace": "default"}}}
		pods = append(pods, p)
	}
	scale := &api.Unstructured{Object: replicaSet("web-rs", 1)}
	scale.SetNamespace("default")
	err = c.manageReplicas(t.Context(), pods, scale)
	require.ErrorContains(t, err, "exceeded quota")
	assert.Equal(t, int64(2), pc.deletes.Load(), "3 pods, 1 wanted: 2 deletes")
	assert.True(t, c.expectations.SatisfiedExpectations("default/web-rs"), "failed deletions are observed")
}

// countingPodControl counts the calls and fails each with err.
type countingPodControl struct {
	creates, deletes atomic.Int64
	err              error
}

func (p *countingPodControl) CreatePod(context.Context, *api.Unstructured) (*api.Unstructured, error) {
	p.creates.Add(1)
	return nil, p.err
}

func (p *countingPodControl) DeletePod(context.Context, string, string) error {
	p.deletes.Add(1)
	return p.err
}

// TestCh14_Sync_GoldenTrace: the controller's writes, with their causes, for one
// ReplicaSet created with 3 replicas, scaled to 5, then to 2 with two pods ready; compared
// with testdata/replicaset-scale.golden (go test -update rewrites it).
func TestCh14_Sync_GoldenTrace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &hopRecorder{}
		c := cluster.Start(t, cluster.Options{})
		startRS(t, c, rec.logger())
		var out []string
		step := func(title string, do func(), want int) {
			do()
			c.Eventually(t, 10*time.Second, func() bool { return len(podNames(t, c)) == want })
			c.Settle()
			out = append(out, "# "+title)
			out = append(out, rec.take("expect-creations", "create-pod", "expect-deletions", "delete-pod")...)
		}
		step("kubectl create: a ReplicaSet of 3", func() { c.Create(t, app.ReplicaSets, "default", replicaSet("web-rs", 3)) }, 3)
		step("kubectl scale --replicas=5", func() { scale(t, c, "web-rs", 5) }, 5)
		step("two pods ready, then kubectl scale --replicas=2", func() {
			markRunning(t, c, "web-rs-1", true)
			markRunning(t, c, "web-rs-5", true)
			c.Settle() // the controller's cache holds both statuses before the scale makes it rank the pods
			scale(t, c, "web-rs", 2)
		}, 2)
		golden(t, "replicaset-scale.golden", strings.Join(out, "\n")+"\n")
	})
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -update to write it")
	assert.Empty(t, cmp.Diff(string(want), got), "the trace differs from %s (go test -update rewrites it)", path)
}
