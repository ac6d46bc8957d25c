package replicaset_test

import (
	"context"
	"sort"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/controllers/replicaset"
	"github.com/informer-lab/informer-lab/harness/cluster"
)

// TestCh14_ReplicaSet_AdoptAndRelease: an orphan pod matching the selector is adopted (and
// counts, so only 1 more pod is created for 2 replicas); a pod relabelled out of the
// selector is released and replaced.
func TestCh14_ReplicaSet_AdoptAndRelease(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"replicaset"}})
		c.Create(t, app.Pods, "default", map[string]any{
			"apiVersion": "v1", "kind": "Pod",
			"metadata": map[string]any{"name": "stray", "labels": map[string]any{"app": "web"}},
			"spec":     map[string]any{"containers": []any{map[string]any{"name": "c", "image": "nginx"}}},
		})
		rs := c.Create(t, app.ReplicaSets, "default", rsObject("web", 2))
		c.Eventually(t, 30*time.Second, func() bool { return len(podsOf(t, c, rs.GetUID())) == 2 })
		got := c.Get(t, app.Pods, "default", "stray")
		require.Equal(t, rs.GetUID(), app.GetControllerOf(got).UID, "the orphan is adopted")
		require.Len(t, c.List(t, app.Pods, "default"), 2, "the adopted pod counts")

		// relabel the adopted pod: it is released and replaced
		patch := []byte(`{"metadata":{"labels":{"app":"other"}}}`)
		_, err := c.Client.Resource(app.Pods).Namespace("default").Patch(context.Background(), "stray", api.MergePatchType, patch, api.PatchOptions{})
		require.NoError(t, err)
		c.Eventually(t, 30*time.Second, func() bool {
			p := c.Get(t, app.Pods, "default", "stray")
			return app.GetControllerOf(p) == nil && len(podsOf(t, c, rs.GetUID())) == 2
		})
		require.Len(t, c.List(t, app.Pods, "default"), 3)
	})
}

// TestCh14_ReplicaSet_FailedCreateCondition: a create the server refuses sets the
// ReplicaFailure condition (reason FailedCreate) and a FailedCreate event; the condition
// goes once creates succeed again (the slow start keeps the doomed creates to one a sync).
func TestCh14_ReplicaSet_FailedCreateCondition(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"replicaset"}})
		c.Server.FailNext(apiserver.FailRule{Verb: "create", Resource: "pods", Count: 1000, Code: 403, Message: `pods "web-x" is forbidden: exceeded quota: q`})
		c.Create(t, app.ReplicaSets, "default", rsObject("web", 2))
		c.Eventually(t, 30*time.Second, func() bool {
			st := replicaset.StatusOf(c.Get(t, app.ReplicaSets, "default", "web"))
			return len(st.Conditions) == 1 && st.Conditions[0].Reason == "FailedCreate"
		})
		st := replicaset.StatusOf(c.Get(t, app.ReplicaSets, "default", "web"))
		require.Equal(t, replicaset.ReplicaFailure, st.Conditions[0].Type)
		require.Contains(t, st.Conditions[0].Message, "exceeded quota")
		var reasons []string
		for _, e := range c.List(t, app.Events, "default") {
			reasons = append(reasons, app.NestedString(e.Object, "reason"))
		}
		require.Contains(t, reasons, "FailedCreate")
		c.Server.ClearFaults()
		c.Eventually(t, 60*time.Second, func() bool {
			st := replicaset.StatusOf(c.Get(t, app.ReplicaSets, "default", "web"))
			return len(st.Conditions) == 0 && st.Replicas == 2
		})
	})
}

// TestCh14_ReplicaSet_DeletionRanking: the order of ActivePodsWithRanks.
func TestCh14_ReplicaSet_DeletionRanking(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	pod := func(name, node, phase string, ready bool, readySince, created time.Duration, restarts int64, cost string) *api.Unstructured {
		status := map[string]any{"phase": phase}
		if ready {
			status["conditions"] = []any{map[string]any{"type": "Ready", "status": "True",
				"lastTransitionTime": now.Add(-readySince).Format(time.RFC3339)}}
		}
		status["containerStatuses"] = []any{map[string]any{"name": "c", "restartCount": restarts}}
		md := map[string]any{"name": name, "uid": name, "creationTimestamp": now.Add(-created).Format(time.RFC3339)}
		if cost != "" {
			md["annotations"] = map[string]any{"controller.kubernetes.io/pod-deletion-cost": cost}
		}
		return &api.Unstructured{Object: map[string]any{"metadata": md, "spec": map[string]any{"nodeName": node}, "status": status}}
	}
	tests := []struct {
		name  string
		pods  []*api.Unstructured
		ranks []int
		want  []string
	}{
		{"unscheduled first", []*api.Unstructured{pod("a", "n1", "Pending", false, 0, time.Hour, 0, ""), pod("b", "", "Pending", false, 0, time.Hour, 0, "")}, []int{0, 0}, []string{"b", "a"}},
		{"pending before running", []*api.Unstructured{pod("a", "n1", "Running", false, 0, time.Hour, 0, ""), pod("b", "n1", "Pending", false, 0, time.Hour, 0, "")}, []int{0, 0}, []string{"b", "a"}},
		{"unknown between", []*api.Unstructured{pod("a", "n1", "Running", false, 0, time.Hour, 0, ""), pod("b", "n1", "Unknown", false, 0, time.Hour, 0, ""), pod("c", "n1", "Pending", false, 0, time.Hour, 0, "")}, []int{0, 0, 0}, []string{"c", "b", "a"}},
		{"not ready before ready", []*api.Unstructured{pod("a", "n1", "Running", true, time.Minute, time.Hour, 0, ""), pod("b", "n1", "Running", false, 0, time.Hour, 0, "")}, []int{0, 0}, []string{"b", "a"}},
		{"lower deletion cost first", []*api.Unstructured{pod("a", "n1", "Running", true, time.Minute, time.Hour, 0, "10"), pod("b", "n1", "Running", true, time.Minute, time.Hour, 0, "-5")}, []int{0, 0}, []string{"b", "a"}},
		{"doubled up first", []*api.Unstructured{pod("a", "n1", "Running", true, time.Minute, time.Hour, 0, ""), pod("b", "n2", "Running", true, time.Minute, time.Hour, 0, "")}, []int{1, 3}, []string{"b", "a"}},
		{"ready more recently first", []*api.Unstructured{pod("a", "n1", "Running", true, 10*time.Hour, time.Hour, 0, ""), pod("b", "n1", "Running", true, time.Minute, time.Hour, 0, "")}, []int{0, 0}, []string{"b", "a"}},
		{"more restarts first", []*api.Unstructured{pod("a", "n1", "Running", false, 0, time.Hour, 1, ""), pod("b", "n1", "Running", false, 0, time.Hour, 7, "")}, []int{0, 0}, []string{"b", "a"}},
		{"newer first", []*api.Unstructured{pod("a", "n1", "Running", false, 0, 100*time.Hour, 0, ""), pod("b", "n1", "Running", false, 0, time.Minute, 0, "")}, []int{0, 0}, []string{"b", "a"}},
		{"same log2 age: by uid", []*api.Unstructured{pod("b", "n1", "Running", false, 0, 40*time.Second, 0, ""), pod("a", "n1", "Running", false, 0, 50*time.Second, 0, "")}, []int{0, 0}, []string{"a", "b"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := replicaset.ActivePodsWithRanks{Pods: tc.pods, Rank: tc.ranks, Now: now}
			sort.Sort(s)
			var got []string
			for _, p := range s.Pods {
				got = append(got, p.GetName())
			}
			require.Equal(t, tc.want, got)
		})
	}
}
