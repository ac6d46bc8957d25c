package job

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

func pod(name, phase string, extra map[string]any) *api.Unstructured {
	md := map[string]any{"name": name, "namespace": "ns", "uid": "uid-" + name, "creationTimestamp": "2000-01-01T00:00:00Z"}
	for k, v := range extra {
		md[k] = v
	}
	return &api.Unstructured{Object: map[string]any{"metadata": md, "status": map[string]any{"phase": phase}}}
}

func finished(name, phase, at string) *api.Unstructured {
	p := pod(name, phase, nil)
	p.Object["status"].(map[string]any)["containerStatuses"] = []any{map[string]any{"name": "c",
		"state": map[string]any{"terminated": map[string]any{"finishedAt": at}}}}
	return p
}

// TestCh14_Job_OrderedIntervals: completedIndexes is parsed, merged and printed as upstream.
func TestCh14_Job_OrderedIntervals(t *testing.T) {
	tests := []struct {
		in          string
		completions int
		add         []int
		want        string
		total       int
	}{
		{"", 5, nil, "", 0},
		{"", 5, []int{0}, "0", 1},
		{"", 5, []int{0, 1}, "0,1", 2},
		{"", 5, []int{0, 1, 2}, "0-2", 3},
		{"1,3-5", 10, []int{2}, "1-5", 5},
		{"1,3-5", 10, []int{7, 8}, "1,3-5,7,8", 6},
		{"0-9", 5, nil, "0-4", 5},            // beyond completions is cut
		{"x,2,7", 5, nil, "2", 1},            // malformed and out of range skipped
		{"4,1", 5, []int{2}, "1,2,4", 3},     // unsorted input
		{"1-2,2-3", 9, []int{5}, "1-3,5", 4}, // overlapping
	}
	for _, tc := range tests {
		oi := parseIndexesFromString(tc.in, tc.completions).withOrderedIndexes(tc.add)
		require.Equal(t, tc.want, oi.String(), "%q + %v", tc.in, tc.add)
		require.Equal(t, tc.total, oi.total())
	}
	oi := parseIndexesFromString("1,3-5", 10)
	for ix, want := range map[int]bool{0: false, 1: true, 2: false, 3: true, 5: true, 6: false} {
		require.Equal(t, want, oi.has(ix), ix)
	}
}

// TestCh14_Job_FirstPendingIndexes: the lowest indexes neither succeeded nor running.
func TestCh14_Job_FirstPendingIndexes(t *testing.T) {
	active := func(ix string) *api.Unstructured {
		return pod("p"+ix, "Running", map[string]any{"annotations": map[string]any{JobCompletionIndexAnnotation: ix}})
	}
	jc := &syncJobCtx{
		job:              &job{},
		activePods:       []*api.Unstructured{active("1"), active("4")},
		succeededIndexes: parseIndexesFromString("0,2", 10),
	}
	require.Equal(t, []int{3, 5, 6}, firstPendingIndexes(jc, 3, 10))
	require.Equal(t, []int{3, 5}, firstPendingIndexes(jc, 5, 6))
	require.Nil(t, firstPendingIndexes(jc, 0, 10))
}

// TestCh14_Job_BackoffRemaining: 10 s doubling per failure since the last success, capped
// at 6 min, less the time since the last failure.
func TestCh14_Job_BackoffRemaining(t *testing.T) {
	last := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		failures int32
		elapsed  time.Duration
		want     time.Duration
	}{
		{0, 0, 0},
		{1, 0, 10 * time.Second},
		{1, 4 * time.Second, 6 * time.Second},
		{1, 11 * time.Second, 0},
		{2, 0, 20 * time.Second},
		{3, 0, 40 * time.Second},
		{6, 0, 320 * time.Second},
		{7, 0, 360 * time.Second},
		{30, time.Minute, 300 * time.Second},
	}
	for _, tc := range tests {
		r := backoffRecord{failuresAfterLastSuccess: tc.failures, lastFailureTime: &last}
		require.Equal(t, tc.want, r.getRemainingTime(last.Add(tc.elapsed), DefaultJobPodFailureBackOff, MaxJobPodFailureBackOff), "%d failures", tc.failures)
	}
}

// TestCh14_Job_NewBackoffRecord: a success resets the count; failures after the last
// success count, and the last one's finish time is kept.
func TestCh14_Job_NewBackoffRecord(t *testing.T) {
	at := func(s string) string { return "2000-01-01T00:00:" + s + "Z" }
	tm := func(s string) *time.Time { v, _ := time.Parse(time.RFC3339, at(s)); return &v }
	tests := []struct {
		name      string
		prev      *backoffRecord
		succeeded []*api.Unstructured
		failed    []*api.Unstructured
		want      int32
		wantLast  *time.Time
	}{
		{"nothing new", nil, nil, nil, 0, nil},
		{"two failures", nil, nil, []*api.Unstructured{finished("a", "Failed", at("05")), finished("b", "Failed", at("03"))}, 2, tm("05")},
		{"adds to the stored record", &backoffRecord{failuresAfterLastSuccess: 2, lastFailureTime: tm("01")}, nil, []*api.Unstructured{finished("a", "Failed", at("09"))}, 3, tm("09")},
		{"a success resets", &backoffRecord{failuresAfterLastSuccess: 2, lastFailureTime: tm("01")}, []*api.Unstructured{finished("s", "Succeeded", at("09"))}, nil, 0, nil},
		{"failures after the success count", nil, []*api.Unstructured{finished("s", "Succeeded", at("05"))},
			[]*api.Unstructured{finished("a", "Failed", at("03")), finished("b", "Failed", at("07")), finished("c", "Failed", at("08"))}, 2, tm("08")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newBackoffStore()
			if tc.prev != nil {
				tc.prev.key = "k"
				s.updateBackoffRecord(*tc.prev)
			}
			r := s.newBackoffRecord("k", tc.succeeded, tc.failed)
			require.Equal(t, tc.want, r.failuresAfterLastSuccess)
			require.Equal(t, tc.wantLast, r.lastFailureTime)
		})
	}
}

// TestCh14_Job_CleanUncounted: an uncounted UID whose pod lost its finalizer becomes a count.
func TestCh14_Job_CleanUncounted(t *testing.T) {
	st := &jobStatus{Succeeded: 1, Failed: 2, UncountedTerminatedPods: &uncountedTerminatedPods{Succeeded: []string{"a", "b"}, Failed: []string{"c"}}}
	require.True(t, cleanUncountedPodsWithoutFinalizers(st, map[string]bool{"b": true}))
	require.Equal(t, int32(2), st.Succeeded)
	require.Equal(t, int32(3), st.Failed)
	require.Equal(t, []string{"b"}, st.UncountedTerminatedPods.Succeeded)
	require.Empty(t, st.UncountedTerminatedPods.Failed)
	require.False(t, cleanUncountedPodsWithoutFinalizers(st, map[string]bool{"b": true}))
}

// TestCh14_Job_EnsureConditionStatus: a condition changes only when its status, reason or
// message does; a False condition is not added.
func TestCh14_Job_EnsureConditionStatus(t *testing.T) {
	now := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	list, changed := ensureJobConditionStatus(nil, condSuspended, "False", "JobResumed", "Job resumed", now)
	require.False(t, changed)
	require.Empty(t, list)
	list, changed = ensureJobConditionStatus(list, condSuspended, "True", "JobSuspended", "Job suspended", now)
	require.True(t, changed)
	list, changed = ensureJobConditionStatus(list, condSuspended, "True", "JobSuspended", "Job suspended", now.Add(time.Hour))
	require.False(t, changed)
	require.Equal(t, now, list[0].LastTransitionTime.Time)
	list, changed = ensureJobConditionStatus(list, condSuspended, "False", "JobResumed", "Job resumed", now.Add(time.Hour))
	require.True(t, changed)
	require.Len(t, list, 1)
	require.Equal(t, "False", list[0].Status)
}

// TestCh14_Job_ActivePodsForRemoval: unscheduled, then pending, then not ready, then newer
// pods go first; an Indexed Job's duplicates and out-of-range pods before them.
func TestCh14_Job_ActivePodsForRemoval(t *testing.T) {
	running := pod("running", "Running", nil)
	running.Object["spec"] = map[string]any{"nodeName": "n1"}
	pending := pod("pending", "Pending", nil)
	pending.Object["spec"] = map[string]any{"nodeName": "n1"}
	unscheduled := pod("unscheduled", "Pending", nil)
	ready := pod("ready", "Running", nil)
	ready.Object["spec"] = map[string]any{"nodeName": "n1"}
	ready.Object["status"].(map[string]any)["conditions"] = []any{map[string]any{"type": "Ready", "status": "True"}}
	j := &job{}
	got := activePodsForRemoval(j, []*api.Unstructured{ready, running, pending, unscheduled}, 3)
	require.Equal(t, []string{"unscheduled", "pending", "running"}, podNames(got))

	ix := func(name, i string) *api.Unstructured {
		return pod(name, "Running", map[string]any{"annotations": map[string]any{JobCompletionIndexAnnotation: i}})
	}
	c := int32(3)
	idx := &job{Spec: jobSpec{Completions: &c, CompletionMode: ptrTo(indexedCompletion)}}
	got = activePodsForRemoval(idx, []*api.Unstructured{ix("a", "0"), ix("b", "1"), ix("c", "1"), ix("d", "5")}, 0)
	require.Len(t, got, 2)
	require.Contains(t, podNames(got), "d")
}

func podNames(ps []*api.Unstructured) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.GetName())
	}
	return out
}

// TestCh14_Job_PodGenerateNameWithIndex: long names are cut so the index stays.
func TestCh14_Job_PodGenerateNameWithIndex(t *testing.T) {
	require.Equal(t, "pi-3-", podGenerateNameWithIndex("pi", 3))
	long := "a123456789b123456789c123456789d123456789e123456789f123456789"
	got := podGenerateNameWithIndex(long, 12)
	require.Len(t, got, 58)
	require.Equal(t, long[:54]+"-12-", got)
}
