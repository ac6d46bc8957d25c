package app

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// TestCh14_RevisionHash: the hash is stable, uses only the safe alphabet, and moves with
// the data and the collision count.
func TestCh14_RevisionHash(t *testing.T) {
	zero, one := int32(0), int32(1)
	a := HashRevisionData([]byte(`{"a":1}`), nil)
	require.Equal(t, a, HashRevisionData([]byte(`{"a":1}`), nil))
	require.NotEqual(t, a, HashRevisionData([]byte(`{"a":2}`), nil))
	require.NotEqual(t, HashRevisionData([]byte(`{"a":1}`), &zero), HashRevisionData([]byte(`{"a":1}`), &one))
	for _, c := range a {
		require.Contains(t, safeAlphabet, string(c))
	}
	require.Equal(t, "web-"+a, ControllerRevisionName("web", a))
	require.Len(t, ControllerRevisionName(string(make([]byte, 300)), "h"), 225)
}

// TestCh14_ScaledValueFromIntOrPercent: integers as they are, percentages of the total
// rounded as asked.
func TestCh14_ScaledValueFromIntOrPercent(t *testing.T) {
	cases := []struct {
		v       any
		total   int
		up      bool
		want    int
		wantErr bool
	}{
		{nil, 10, true, 0, false},
		{int64(3), 10, true, 3, false},
		{float64(2), 10, false, 2, false},
		{"25%", 10, true, 3, false},
		{"25%", 10, false, 2, false},
		{"100%", 3, false, 3, false},
		{"x%", 3, false, 0, true},
		{true, 3, false, 0, true},
	}
	for _, tc := range cases {
		got, err := ScaledValueFromIntOrPercent(tc.v, tc.total, tc.up)
		if tc.wantErr {
			require.Error(t, err, "%v", tc.v)
			continue
		}
		require.NoError(t, err)
		require.Equal(t, tc.want, got, "%v of %d", tc.v, tc.total)
	}
}

// TestCh14_IsPodAvailable: Ready for minReadySeconds by the Ready condition's transition.
func TestCh14_IsPodAvailable(t *testing.T) {
	now := time.Date(2030, 1, 1, 0, 0, 10, 0, time.UTC)
	pod := func(ready string, since time.Time) *api.Unstructured {
		return &api.Unstructured{Object: map[string]any{"status": map[string]any{"conditions": []any{
			map[string]any{"type": "Ready", "status": ready, "lastTransitionTime": since.Format(time.RFC3339)},
		}}}}
	}
	require.True(t, IsPodAvailable(pod("True", now), 0, now))
	require.False(t, IsPodAvailable(pod("False", now.Add(-time.Hour)), 0, now))
	require.False(t, IsPodAvailable(pod("True", now.Add(-4*time.Second)), 5, now))
	require.True(t, IsPodAvailable(pod("True", now.Add(-5*time.Second)), 5, now))
}
