package celcheck

import (
	"context"
	"encoding/json"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	crdcel "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/environment"
)

// The same schema, object and rules as BenchmarkCompile and BenchmarkEval of the main
// module's apiserver/internal/cel, here on cel-go as apiextensions-apiserver runs them.
const benchSchema = `{"type": "object", "properties": {
  "minReplicas": {"type": "integer"}, "maxReplicas": {"type": "integer"},
  "names": {"type": "array", "maxItems": 16, "items": {"type": "string", "maxLength": 32}},
  "memory": {"type": "string", "maxLength": 16}, "limit": {"type": "string", "maxLength": 16}}}`

const benchObject = `{"minReplicas": 1, "maxReplicas": 3, "names": ["alpha", "beta", "gamma", "delta"],
  "memory": "512Mi", "limit": "1Gi"}`

var benchRules = []struct{ name, rule string }{
	{"replicas", "self.minReplicas <= self.maxReplicas"},
	{"names", "self.names.all(x, x.matches('^[a-z]+$'))"},
	{"quantity", "quantity(self.memory).isLessThan(quantity(self.limit))"},
}

func benchStructural(b *testing.B) *structuralschema.Structural {
	var v1 apiextensionsv1.JSONSchemaProps
	if err := json.Unmarshal([]byte(benchSchema), &v1); err != nil {
		b.Fatal(err)
	}
	var internal apiextensions.JSONSchemaProps
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(&v1, &internal, nil); err != nil {
		b.Fatal(err)
	}
	s, err := structuralschema.NewStructural(&internal)
	if err != nil {
		b.Fatal(err)
	}
	return s
}

func compileRule(b *testing.B, s *structuralschema.Structural, rule string) crdcel.CompilationResult {
	s.XValidations = apiextensionsv1.ValidationRules{{Rule: rule}}
	res, err := crdcel.Compile(s, model.SchemaDeclType(s, false), celconfig.PerCallLimit,
		environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()), crdcel.NewExpressionsEnvLoader())
	if err != nil || res[0].Error != nil {
		b.Fatal(err, res[0].Error)
	}
	return res[0]
}

func BenchmarkCELGoCompile(b *testing.B) {
	s := benchStructural(b)
	for _, r := range benchRules {
		b.Run(r.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				compileRule(b, s, r.rule)
			}
		})
	}
}

func BenchmarkCELGoEval(b *testing.B) {
	s := benchStructural(b)
	var obj map[string]any
	if err := json.Unmarshal([]byte(benchObject), &obj); err != nil {
		b.Fatal(err)
	}
	obj = normalize(obj).(map[string]any)
	for _, r := range benchRules {
		res := compileRule(b, s, r.rule)
		b.Run(r.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				act := &activation{self: crdcel.UnstructuredToVal(obj, s)}
				v, _, err := res.Program.ContextEval(context.Background(), act)
				if err != nil || v.Value() != true {
					b.Fatal(v, err)
				}
			}
		})
	}
}
