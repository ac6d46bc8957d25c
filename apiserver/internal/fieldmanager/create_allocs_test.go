package fieldmanager

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/typed"
)

// TestCh01_SSA_CreateOwnershipAllocations: the ownership of a ConfigMap create (no
// managedFields sent) is one walk of the object and one encoding: it gives the entry the
// reference server writes and stays within a fixed number of allocations (32 when written;
// the Compare with the zero object it replaced, and the entry's strings boxed each time,
// took 58).
func TestCh01_SSA_CreateOwnershipAllocations(t *testing.T) {
	gvk := api.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}
	typ, err := typed.ForBuiltin(gvk, "")
	require.NoError(t, err)
	f := New(typ, gvk)
	const runs = 50
	objs := make([]*api.Unstructured, runs+2) // the first, then AllocsPerRun's warm-up and runs
	for i := range objs {
		objs[i] = obj(t, fmt.Sprintf(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm-%d","namespace":"ns","uid":"u","creationTimestamp":"2026-01-02T03:04:00Z","labels":{"app":"a"}},"data":{"key":"v"}}`, i))
	}
	out, err := f.Update(nil, objs[0], "kubectl-create", "", at(0))
	require.NoError(t, err)
	assert.Equal(t, []entrySummary{{"kubectl-create", "Update", "v1", "", "2026-01-02T03:04:00Z",
		`{"f:data":{".":{},"f:key":{}},"f:metadata":{"f:labels":{".":{},"f:app":{}}}}`}}, entriesOf(t, out))
	i := 0
	allocs := testing.AllocsPerRun(runs, func() {
		i++
		if _, err := f.Update(nil, objs[i], "kubectl-create", "", at(0)); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("%v allocations", allocs)
	assert.LessOrEqual(t, allocs, 40.0)
}

// TestCh01_SSA_EntryStringsBoxedOnce: the strings of an entry and its time, taken from the
// caches, are what formatting them gives: RFC 3339 in UTC whatever the time's zone and
// fraction, one second apart or not.
func TestCh01_SSA_EntryStringsBoxedOnce(t *testing.T) {
	for _, s := range []string{"Update", "Apply", "kubectl-client-side-apply", "v1", "apps/v1", "status", ""} {
		assert.Equal(t, s, boxed(s))
		assert.Equal(t, s, boxed(s))
	}
	zone := time.FixedZone("X", 5*3600+1800)
	base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tm := range []time.Time{base, base.Add(999 * time.Millisecond), base.In(zone), base.Add(time.Second), base.Add(-time.Hour).In(zone), time.Unix(0, 0)} {
		assert.Equal(t, tm.UTC().Format(time.RFC3339), formatTime(tm), tm.String())
	}
	raw, err := json.Marshal(map[string]any{"t": formatTime(base)})
	require.NoError(t, err)
	assert.JSONEq(t, `{"t":"2026-01-02T03:04:05Z"}`, string(raw))
}
