package cel

import (
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCh13_CEL_EstimatedCost pins the estimated maximum cost of rules on crdSchema to what
// apiextensions-apiserver's Compile computes for them (cel-go v0.26.0 with Kubernetes'
// estimator), and the message a too expensive rule gets.
func TestCh13_CEL_EstimatedCost(t *testing.T) {
	tests := []struct {
		rule string
		max  uint64
	}{
		{"self.spec.minReplicas <= self.spec.maxReplicas", 7},
		{"self.spec.tags.all(x, x.matches('^[a-z]+$'))", 224},
		{"self.spec.args.all(x, x.matches('^[a-z]+$'))", 659710961254},
		{"self.spec.args.all(a, self.spec.args.exists(b, a == b))", 345882608641821904},
		{"quantity(self.spec.memory).isLessThan(quantity('1Gi'))", 314578},
		{"self.spec.name.startsWith('a')", 4},
	}
	env := schemaEnv(t, false)
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			p, err := env.CompileRule(tt.rule)
			require.Nil(t, err)
			assert.Equal(t, tt.max, p.EstimateCost().Max)
		})
	}
	p, _ := env.CompileRule("self.spec.args.all(x, x.matches('^[a-z]+$'))")
	cost := MultiplyCost(p.EstimateCost().Max, MaxCardinality(env.MinSerializedSize()))
	assert.Equal(t, "estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)",
		CostErrorMessage("estimated rule cost", cost, StaticEstimatedCostLimit))
	assert.Equal(t, "estimated rule cost exceeds budget by factor of 1.200000x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)",
		CostErrorMessage("estimated rule cost", 12, 10))
	assert.Equal(t, "estimated rule cost exceeds budget by factor of 2.5x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)",
		CostErrorMessage("estimated rule cost", 25, 10))
}

// TestCh13_CEL_CostLimit stops an evaluation whose actual cost passes the limit, with
// cel-go's message, and reports the cost of one that does not.
func TestCh13_CEL_CostLimit(t *testing.T) {
	env := NewEnv(Var{"l", ListType(IntType)})
	p, err := env.Compile("l.all(x, l.all(y, x + y >= 0))")
	require.NoError(t, err)
	big := make([]Value, 2000)
	for i := range big {
		big[i] = int64(i)
	}
	_, cost, err := p.EvalWithCost(Vars{"l": NewList(big)}, PerCallLimit)
	assert.EqualError(t, err, "operation cancelled: actual cost limit exceeded")
	assert.Greater(t, cost, uint64(PerCallLimit))
	v, cost, err := p.EvalWithCost(Vars{"l": NewList(big[:10])}, PerCallLimit)
	require.NoError(t, err)
	assert.Equal(t, true, v)
	assert.Greater(t, cost, uint64(100))
}

// TestCh13_CEL_ProgramSharedAcrossGoroutines evaluates one compiled program from many
// goroutines at once (run with -race): a Program is immutable.
func TestCh13_CEL_ProgramSharedAcrossGoroutines(t *testing.T) {
	env := schemaEnv(t, false)
	p, rerr := env.CompileRule("self.spec.tags.all(x, x.matches('^[a-z]+$')) && self.spec.tags.map(x, x + 'z').size() == 2")
	require.Nil(t, rerr)
	var wg sync.WaitGroup
	results := make([]string, 16)
	for g := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tag := strings.Repeat("a", g%3+1)
			obj := map[string]any{"spec": map[string]any{"tags": []any{tag, "b"}}}
			for range 50 {
				results[g] = show(p.Eval(env.Activation(obj, nil)))
			}
		}()
	}
	wg.Wait()
	for _, r := range results {
		assert.Equal(t, "true", r)
	}
}
