package fieldmanager

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCh01_SSA_NoOpWriteKeepsTimestamps: a write whose only change is the time of a
// managedFields entry keeps the old time; a write that changes the object keeps its own.
// (The field manager itself stamps only a manager whose fields changed, so a no-op update
// or apply leaves the times alone already.)
func TestCh01_SSA_NoOpWriteKeepsTimestamps(t *testing.T) {
	f := deploymentManager(t)
	live, err := f.Update(nil, obj(t, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"w","labels":{"a":"1"}}}`), "ctl", "", at(1))
	require.NoError(t, err)
	live = roundTrip(t, live)

	same, err := f.Update(live, roundTrip(t, live), "ctl", "", at(5))
	require.NoError(t, err)
	assert.Equal(t, "2026-01-02T03:04:01Z", entriesOf(t, same)[0].Time)

	restamped := roundTrip(t, live)
	restamped.Object["metadata"].(map[string]any)["managedFields"].([]any)[0].(map[string]any)["time"] = "2026-01-02T03:04:09Z"
	assert.Equal(t, "2026-01-02T03:04:01Z", entriesOf(t, IgnoreManagedFieldsTimestamps(restamped, live))[0].Time)

	changed, err := f.Update(live, setLabel(t, live, "a", "2"), "ctl", "", at(6))
	require.NoError(t, err)
	assert.Equal(t, "2026-01-02T03:04:06Z", entriesOf(t, IgnoreManagedFieldsTimestamps(changed, live))[0].Time)
}
