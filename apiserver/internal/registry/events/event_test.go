package events

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

func tree(t *testing.T, s string) map[string]any {
	t.Helper()
	var u api.Unstructured
	require.NoError(t, u.UnmarshalJSON([]byte(s)))
	return u.Object
}

// TestCh01_EventsConversion checks the member renames of Convert_v1_Event_To_core_Event
// both ways: every member of one form lands in the other and back, and a stored core
// Event without them reads with the members the events.k8s.io Go type always writes.
func TestCh01_EventsConversion(t *testing.T) {
	v1 := tree(t, `{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"e","namespace":"ns"},
		"eventTime":"2026-01-01T00:00:00.000000Z","series":{"count":2,"lastObservedTime":"2026-01-01T00:00:01.000000Z"},
		"reportingController":"ctl","reportingInstance":"ctl-1","action":"Pull","reason":"Pulling",
		"regarding":{"kind":"Pod","name":"p"},"related":{"kind":"Node","name":"n"},"note":"hi","type":"Normal",
		"deprecatedSource":{"component":"c","host":"h"},"deprecatedFirstTimestamp":"2026-01-01T00:00:00Z",
		"deprecatedLastTimestamp":"2026-01-01T00:00:02Z","deprecatedCount":3}`)
	core := tree(t, `{"apiVersion":"v1","kind":"Event","metadata":{"name":"e","namespace":"ns"},
		"eventTime":"2026-01-01T00:00:00.000000Z","series":{"count":2,"lastObservedTime":"2026-01-01T00:00:01.000000Z"},
		"reportingComponent":"ctl","reportingInstance":"ctl-1","action":"Pull","reason":"Pulling",
		"involvedObject":{"kind":"Pod","name":"p"},"related":{"kind":"Node","name":"n"},"message":"hi","type":"Normal",
		"source":{"component":"c","host":"h"},"firstTimestamp":"2026-01-01T00:00:00Z",
		"lastTimestamp":"2026-01-01T00:00:02Z","count":3}`)
	assert.Empty(t, cmp.Diff(core, ToStorage(v1)))
	assert.Empty(t, cmp.Diff(v1, FromStorage(core)))

	sparse := FromStorage(tree(t, `{"apiVersion":"v1","kind":"Event","metadata":{"name":"e"},"reason":"R"}`))
	assert.Empty(t, cmp.Diff(map[string]any{"apiVersion": "events.k8s.io/v1", "kind": "Event", "metadata": map[string]any{"name": "e"},
		"reason": "R", "regarding": map[string]any{}, "deprecatedSource": map[string]any{}, "eventTime": nil,
		"deprecatedFirstTimestamp": nil, "deprecatedLastTimestamp": nil}, sparse))
}
