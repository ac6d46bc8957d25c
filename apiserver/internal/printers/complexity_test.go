package printers

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCh13_Printers_ColumnComplexity prints the cells of custom objects whose lists hold n
// and 8n items, through columns that walk them (a wildcard, a filter): the allocations grow
// linearly.
func TestCh13_Printers_ColumnComplexity(t *testing.T) {
	p := ForColumns([]Column{
		{Name: "Names", Type: "string", JSONPath: ".spec.items[*].name"},
		{Name: "Ready", Type: "string", JSONPath: `.status.conditions[?(@.type=="Ready")].status`},
	})
	run := func(n int) func() {
		items, conds := make([]any, n), make([]any, n)
		for i := range n {
			items[i] = map[string]any{"name": fmt.Sprintf("item-%d", i)}
			conds[i] = map[string]any{"type": fmt.Sprintf("C%d", i), "status": "True"}
		}
		conds[n-1] = map[string]any{"type": "Ready", "status": "True"}
		o := object(map[string]any{"metadata": map[string]any{"name": "x"},
			"spec": map[string]any{"items": items}, "status": map[string]any{"conditions": conds}})
		now := time.Now()
		return func() {
			cells, _ := p.cells(o, now)
			require.Len(t, cells, 3)
		}
	}
	a1, a8 := testing.AllocsPerRun(3, run(500)), testing.AllocsPerRun(3, run(4000))
	t.Logf("n=500: %.0f allocs; 8n: %.0f allocs", a1, a8)
	assert.LessOrEqual(t, a8/a1, 10.0, "allocations at 8n over n")
}
