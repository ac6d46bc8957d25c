package patch

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/cost"
)

// maxGrowth is how much more work a request 8 times larger may take: 8 for linear work,
// with room for n·log n and constant overheads; a quadratic path takes 64.
const maxGrowth = 10

// growth runs the request built for n and for 8n and returns how much the counted
// operations and the allocations grew.
func growth(t *testing.T, n int, run func(n int) func()) (ops, allocs float64) {
	t.Helper()
	small, large := run(n), run(8*n)
	o1, o8 := cost.Measure(small), cost.Measure(large)
	a1, a8 := testing.AllocsPerRun(2, small), testing.AllocsPerRun(2, large)
	t.Logf("n=%d: %d ops, %.0f allocs; 8n: %d ops, %.0f allocs", n, o1, a1, o8, a8)
	ops = 1
	if o1 > 0 {
		ops = float64(o8) / float64(o1)
	}
	return ops, a8 / a1
}

func jsonOf(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

func values(prefix string, from, n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s-%d", prefix, from+i)
	}
	return out
}

func containers(from, n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = map[string]any{"name": fmt.Sprintf("c-%d", from+i), "image": "i"}
	}
	return out
}

func podWith(meta, spec map[string]any) map[string]any {
	meta["name"] = "p"
	return map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec}
}

// TestCh01_PatchComplexity applies each patch type at n and at 8n list items: the work
// grows linearly. Strategic merge patch on scalar lists compared every item with every other
// (40,000 finalizers merged in 81 s); merge keys were found by scanning the list once per
// patch item.
func TestCh01_PatchComplexity(t *testing.T) {
	tests := []struct {
		name  string
		pt    api.PatchType
		build func(n int) (original, patch any)
	}{
		{"smp scalar list merge", api.StrategicMergePatchType, func(n int) (any, any) {
			return podWith(map[string]any{"finalizers": values("a", 0, n)}, map[string]any{}),
				map[string]any{"metadata": map[string]any{"finalizers": values("a", n/2, n)}}
		}},
		{"smp deleteFromPrimitiveList", api.StrategicMergePatchType, func(n int) (any, any) {
			return podWith(map[string]any{"finalizers": values("a", 0, n)}, map[string]any{}),
				map[string]any{"metadata": map[string]any{"$deleteFromPrimitiveList/finalizers": values("a", n/2, n)}}
		}},
		{"smp setElementOrder scalars", api.StrategicMergePatchType, func(n int) (any, any) {
			return podWith(map[string]any{"finalizers": values("a", 0, n)}, map[string]any{}),
				map[string]any{"metadata": map[string]any{"$setElementOrder/finalizers": values("a", 0, n), "finalizers": values("a", n/2, 1)}}
		}},
		{"smp merge by key", api.StrategicMergePatchType, func(n int) (any, any) {
			return podWith(map[string]any{}, map[string]any{"containers": containers(0, n)}),
				map[string]any{"spec": map[string]any{"containers": containers(n/2, n)}}
		}},
		{"smp setElementOrder by key", api.StrategicMergePatchType, func(n int) (any, any) {
			order := make([]any, n)
			for i := range order {
				order[i] = map[string]any{"name": fmt.Sprintf("c-%d", n-1-i)}
			}
			return podWith(map[string]any{}, map[string]any{"containers": containers(0, n)}),
				map[string]any{"spec": map[string]any{"$setElementOrder/containers": order, "containers": containers(0, 1)}}
		}},
		{"smp $patch delete by key", api.StrategicMergePatchType, func(n int) (any, any) {
			dels := containers(0, n/2)
			for _, d := range dels {
				d.(map[string]any)["$patch"] = "delete"
			}
			return podWith(map[string]any{}, map[string]any{"containers": containers(0, n)}),
				map[string]any{"spec": map[string]any{"containers": dels}}
		}},
		{"merge patch", api.MergePatchType, func(n int) (any, any) {
			labels, patch := map[string]any{}, map[string]any{}
			for i := range n {
				labels[fmt.Sprintf("k%d", i)] = "v"
				patch[fmt.Sprintf("k%d", i+n/2)] = "w"
			}
			return podWith(map[string]any{"labels": labels}, map[string]any{}),
				map[string]any{"metadata": map[string]any{"labels": patch}}
		}},
		{"json patch appends", api.JSONPatchType, func(n int) (any, any) {
			ops := make([]any, n)
			for i := range ops {
				ops[i] = map[string]any{"op": "add", "path": "/metadata/finalizers/-", "value": fmt.Sprintf("f-%d", i)}
			}
			return podWith(map[string]any{"finalizers": []any{}}, map[string]any{}), ops
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := func(n int) func() {
				original, p := tc.build(n)
				ob, pb := jsonOf(t, original), jsonOf(t, p)
				return func() {
					_, err := Apply(tc.pt, ob, pb, "Pod", true)
					require.NoError(t, err)
				}
			}
			ops, allocs := growth(t, 500, run)
			assert.LessOrEqual(t, ops, float64(maxGrowth), "operations at 8n over n")
			assert.LessOrEqual(t, allocs, float64(maxGrowth), "allocations at 8n over n")
		})
	}
}
