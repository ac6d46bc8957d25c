package cel

import (
	"encoding/json"
	"testing"
)

// benchSchema and benchRules are the typical CRD rules the benchmarks compile and evaluate;
// tools/internal/celcheck runs the same ones on cel-go for comparison.
const benchSchema = `{"type": "object", "properties": {
  "minReplicas": {"type": "integer"}, "maxReplicas": {"type": "integer"},
  "names": {"type": "array", "maxItems": 16, "items": {"type": "string", "maxLength": 32}},
  "memory": {"type": "string", "maxLength": 16}, "limit": {"type": "string", "maxLength": 16}}}`

var benchRules = []struct{ name, rule string }{
	{"replicas", "self.minReplicas <= self.maxReplicas"},
	{"names", "self.names.all(x, x.matches('^[a-z]+$'))"},
	{"quantity", "quantity(self.memory).isLessThan(quantity(self.limit))"},
}

const benchObject = `{"minReplicas": 1, "maxReplicas": 3, "names": ["alpha", "beta", "gamma", "delta"],
  "memory": "512Mi", "limit": "1Gi"}`

func benchEnv(b *testing.B) (*SchemaEnv, map[string]any) {
	var s, obj map[string]any
	if err := json.Unmarshal([]byte(benchSchema), &s); err != nil {
		b.Fatal(err)
	}
	if err := json.Unmarshal([]byte(benchObject), &obj); err != nil {
		b.Fatal(err)
	}
	env, err := NewSchemaEnv(SchemaFromJSON(s), false, false)
	if err != nil {
		b.Fatal(err)
	}
	return env, obj
}

func BenchmarkCompile(b *testing.B) {
	env, _ := benchEnv(b)
	for _, r := range benchRules {
		b.Run(r.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := env.CompileRule(r.rule); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkEval(b *testing.B) {
	env, obj := benchEnv(b)
	for _, r := range benchRules {
		p, rerr := env.CompileRule(r.rule)
		if rerr != nil {
			b.Fatal(rerr)
		}
		b.Run(r.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				v, _, err := p.EvalWithCost(env.Activation(obj, nil), PerCallLimit)
				if err != nil || v != true {
					b.Fatal(v, err)
				}
			}
		})
	}
}
