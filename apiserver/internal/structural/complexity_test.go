package structural

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/apiserver/internal/cost"
)

// TestCh13_CRD_ValidationComplexity validates a custom object of n and of 8n list items,
// each with an error, against a schema with an enum of as many values: the work (errors
// deduplicated, counted by package cost) and the allocations grow linearly. Each error was
// compared with every one before it, and each carried the whole enum in its text.
func TestCh13_CRD_ValidationComplexity(t *testing.T) {
	var sch map[string]any
	require.NoError(t, json.Unmarshal([]byte(`{"type":"object","properties":{"spec":{"type":"object","properties":{
		"items":{"type":"array","items":{"type":"object","properties":{
			"mode":{"type":"string","enum":[]},
			"size":{"type":"integer","maximum":10}}}}}}}}`), &sch))
	run := func(n int) func() {
		enum := make([]any, n)
		items := make([]any, n)
		for i := range n {
			enum[i] = fmt.Sprintf("mode-%d", i)
			items[i] = map[string]any{"mode": fmt.Sprintf("bad-%d", i), "size": int64(11)}
		}
		s := sch["properties"].(map[string]any)["spec"].(map[string]any)["properties"].(map[string]any)["items"].(map[string]any)["items"].(map[string]any)["properties"].(map[string]any)["mode"].(map[string]any)
		s["enum"] = enum
		v := Validator{Schema: Parse(sch)}
		obj := map[string]any{"spec": map[string]any{"items": items}}
		return func() { require.Len(t, v.Validate("", obj), 2*n) }
	}
	small, large := run(200), run(1600)
	o1, o8 := cost.Measure(small), cost.Measure(large)
	a1, a8 := testing.AllocsPerRun(2, small), testing.AllocsPerRun(2, large)
	t.Logf("n=200: %d ops, %.0f allocs; 8n: %d ops, %.0f allocs", o1, a1, o8, a8)
	require.Positive(t, o1)
	assert.LessOrEqual(t, float64(o8)/float64(o1), 10.0, "operations at 8n over n")
	assert.LessOrEqual(t, a8/a1, 10.0, "allocations at 8n over n")
}
