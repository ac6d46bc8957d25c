package schemacel

import (
	"fmt"
	"testing"

	"github.com/informer-lab/informer-lab/apiserver/internal/structural"
)

// BenchmarkCRDCreate20Rules runs the rule part of a create against a CRD whose spec carries
// 20 rules, compiled once beforehand as the CRD's serving state does.
func BenchmarkCRDCreate20Rules(b *testing.B) {
	props := map[string]any{}
	var rules []any
	spec := map[string]any{}
	for i := 0; i < 20; i++ {
		f := fmt.Sprintf("f%d", i)
		props[f] = map[string]any{"type": "integer"}
		rules = append(rules, map[string]any{"rule": fmt.Sprintf("self.%s >= 0 && self.%s < 1000", f, f)})
		spec[f] = int64(i)
	}
	root := structural.Parse(map[string]any{"type": "object", "properties": map[string]any{
		"spec": map[string]any{"type": "object", "properties": props, "x-kubernetes-validations": rules}}})
	prog, causes := Compiler{}.Compile(root, "spec.validation.openAPIV3Schema")
	if len(causes) > 0 || prog == nil {
		b.Fatal(causes)
	}
	obj := map[string]any{"apiVersion": "cel.example.com/v1", "kind": "Bench", "metadata": map[string]any{"name": "b"}, "spec": spec}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if c := prog.Validate(obj, nil); len(c) > 0 {
			b.Fatal(c)
		}
	}
}
