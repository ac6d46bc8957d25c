package podautoscaler

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// calcPod is a Running pod requesting 100m cpu, started an hour before t0, ready or not.
func calcPod(name string, ready bool, phase string) *api.Unstructured {
	r := "False"
	if ready {
		r = "True"
	}
	start := t0.Add(-time.Hour).Format(time.RFC3339)
	return &api.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": name},
		"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "resources": map[string]any{"requests": map[string]any{"cpu": "100m"}}}}},
		"status": map[string]any{"phase": phase, "startTime": start,
			"conditions": []any{map[string]any{"type": "Ready", "status": r, "lastTransitionTime": start}}}}}
}

func util(p int64) podReading { return podReading{utilization: &p} }

// TestCh14_HPA_ReplicaCalculator: GetResourceReplicas' cases: within tolerance, up, down,
// missing metrics, unready pods when scaling up, no pods.
func TestCh14_HPA_ReplicaCalculator(t *testing.T) {
	three := []*api.Unstructured{calcPod("a", true, "Running"), calcPod("b", true, "Running"), calcPod("c", true, "Running")}
	tests := []struct {
		name     string
		pods     []*api.Unstructured
		readings map[string]podReading
		want     int32
		wantUtil int32
		wantErr  string
	}{
		{"within tolerance", three, map[string]podReading{"a": util(54), "b": util(54), "c": util(54)}, 3, 54, ""},
		{"up", three, map[string]podReading{"a": util(100), "b": util(100), "c": util(100)}, 6, 100, ""},
		{"down", three, map[string]podReading{"a": util(10), "b": util(10), "c": util(10)}, 1, 10, ""},
		{"usage as a quantity", three, map[string]podReading{"a": {milli: 150}, "b": {milli: 150}, "c": {milli: 150}}, 9, 150, ""},
		// c has no metric: scaling down, it counts at 100 % of its request: (10+10+100)/3 = 40 %
		{"missing pods count at their request when scaling down", three, map[string]podReading{"a": util(10), "b": util(10)}, 3, 10, ""},
		// c is unready: scaling up, it counts as 0: (100+100+0)/3 = 66 %, ceil(1.33 × 3) = 4
		{"unready pods count as 0 when scaling up", []*api.Unstructured{calcPod("a", true, "Running"), calcPod("b", true, "Running"), calcPod("c", false, "Running")},
			map[string]podReading{"a": util(100), "b": util(100), "c": util(100)}, 4, 100, ""},
		{"failed pods are ignored", []*api.Unstructured{calcPod("a", true, "Running"), calcPod("x", true, "Failed")},
			map[string]podReading{"a": util(100), "x": util(500)}, 2, 100, ""},
		{"no pods", nil, nil, 0, 0, "no pods returned by selector"},
		{"no metrics", three, map[string]podReading{}, 0, 0, "did not receive metrics"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n, u, _, err := resourceReplicas(3, 50, 0, "cpu", tc.pods, tc.readings, t0)
			if tc.wantErr != "" {
				require.ErrorContains(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, n)
			require.Equal(t, tc.wantUtil, u)
		})
	}
}

// TestCh14_HPA_Rules: convertDesiredReplicasWithRules and the behavior rate limits.
func TestCh14_HPA_Rules(t *testing.T) {
	rules := []struct {
		current, desired, minR, maxR int32
		want                         int32
		reason                       string
	}{
		{2, 3, 1, 10, 3, "DesiredWithinRange"},
		{2, 9, 1, 10, 4, "ScaleUpLimit"},
		{5, 30, 1, 8, 8, "TooManyReplicas"},
		{5, 0, 2, 10, 2, "TooFewReplicas"},
	}
	for _, r := range rules {
		t.Run(fmt.Sprintf("rules %d→%d", r.current, r.desired), func(t *testing.T) {
			got, reason, _ := convertWithRules(r.current, r.desired, r.minR, r.maxR)
			require.Equal(t, r.want, got)
			require.Equal(t, r.reason, reason)
		})
	}
	b := &behavior{}
	defaultBehavior(b)
	h := newHistory()
	got, reason, _ := h.convertWithBehaviorRate("k", 10, 50, 1, 100, b.ScaleUp, b.ScaleDown, t0)
	require.Equal(t, int32(20), got, "100 % beats 4 pods")
	require.Equal(t, "ScaleUpLimit", reason)
	h.storeScaleEvent("k", b, 10, 20, t0)
	got, _, _ = h.convertWithBehaviorRate("k", 20, 50, 1, 100, b.ScaleUp, b.ScaleDown, t0.Add(5*time.Second))
	require.Equal(t, int32(20), got, "the period's scale-up is used up")
	got, _, _ = h.convertWithBehaviorRate("k", 20, 50, 1, 100, b.ScaleUp, b.ScaleDown, t0.Add(16*time.Second))
	require.Equal(t, int32(40), got, "a new period")
}

// TestCh14_HPA_ParseMilli: quantities as MilliValue reads them.
func TestCh14_HPA_ParseMilli(t *testing.T) {
	for in, want := range map[string]int64{"250m": 250, "1": 1000, "1.5": 1500, "2k": 2000000, "1Ki": 1024000, "12e-3": 12, "1n": 1} {
		got, err := parseMilli(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
	}
	_, err := parseMilli("lots")
	require.Error(t, err)
}
