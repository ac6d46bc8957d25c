package rest

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/cost"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// TestCh01_RequiredCausesComplexity validates a pod of n and of 8n empty containers, with as
// many causes already found: the work grows linearly. Each required path was checked against
// every cause found so far (a pod of 160 KB of empty containers took 5.8 s).
func TestCh01_RequiredCausesComplexity(t *testing.T) {
	gvk := api.GroupVersionKind{Version: "v1", Kind: "Pod"}
	run := func(n int) func() {
		containers := make([]any, n)
		causes := make([]api.StatusCause, n)
		for i := range containers {
			containers[i] = map[string]any{}
			causes[i] = validation.Invalid(fmt.Sprintf("spec.containers[%d].image", i), "", "x")
		}
		obj := &api.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Pod",
			"metadata": map[string]any{"name": "p"}, "spec": map[string]any{"containers": containers}}}
		return func() {
			got := RequiredCauses(gvk, obj.DeepCopy(), causes, "")
			require.Len(t, got, 2*n, "a Required name per container")
		}
	}
	small, large := run(1000), run(8000)
	o1, o8 := cost.Measure(small), cost.Measure(large)
	a1, a8 := testing.AllocsPerRun(2, small), testing.AllocsPerRun(2, large)
	t.Logf("n=1000: %d ops, %.0f allocs; 8n: %d ops, %.0f allocs", o1, a1, o8, a8)
	require.Positive(t, o1)
	assert.LessOrEqual(t, float64(o8)/float64(o1), 10.0, "operations at 8n over n")
	assert.LessOrEqual(t, a8/a1, 10.0, "allocations at 8n over n")
}
