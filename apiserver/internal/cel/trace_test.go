package cel

import (
	"io"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCh13_CEL_CompileTraceDisabled: compiling, estimating and evaluating a rule with a
// Trace whose logger does not log Debug allocates exactly what an untraced one does.
func TestCh13_CEL_CompileTraceDisabled(t *testing.T) {
	env, err := NewSchemaEnv(&Schema{Type: "object", Properties: map[string]*Schema{
		"a": {Type: "integer"}, "l": {Type: "array", MaxItems: ptr(int64(4)), Items: &Schema{Type: "integer"}}}}, false, false)
	require.NoError(t, err)
	disabled := Trace{Logger: slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelInfo})), Key: "k", RV: "1", Field: "spec"}
	const rule = "has(self.a) && self.l.all(x, x < self.a)"
	obj := map[string]any{"a": int64(5), "l": []any{int64(1), int64(2)}}
	run := func(tr Trace) float64 {
		return testing.AllocsPerRun(20, func() {
			p, rerr := env.CompileRuleTraced(rule, tr)
			if rerr != nil {
				t.Fatal(rerr)
			}
			p.EstimateCostTraced(tr)
			if v, _, err := p.EvalTraced(env.ActivationTraced(obj, nil, tr), PerCallLimit, tr); err != nil || v != true {
				t.Fatal(v, err)
			}
		})
	}
	assert.Equal(t, run(Trace{}), run(disabled))
}

func ptr[T any](v T) *T { return &v }
