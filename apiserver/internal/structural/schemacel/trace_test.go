package schemacel

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/apiserver/internal/structural"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// twentyRules is a spec with 20 rules and an object they all accept, as
// BenchmarkCRDCreate20Rules uses.
func twentyRules(t testing.TB) (*structural.Schema, map[string]any) {
	props := map[string]any{}
	var rules []any
	spec := map[string]any{}
	for i := range 20 {
		f := fmt.Sprintf("f%d", i)
		props[f] = map[string]any{"type": "integer"}
		rules = append(rules, map[string]any{"rule": fmt.Sprintf("self.%s >= 0 && self.%s < 1000", f, f)})
		spec[f] = int64(i)
	}
	root := structural.Parse(map[string]any{"type": "object", "properties": map[string]any{
		"spec": map[string]any{"type": "object", "properties": props, "x-kubernetes-validations": rules}}})
	obj := map[string]any{"apiVersion": "cel.example.com/v1", "kind": "Bench", "metadata": map[string]any{"name": "b", "namespace": "ns"}, "spec": spec}
	return root, obj
}

func compileWith(t testing.TB, root *structural.Schema, log *slog.Logger) structural.RuleProgram {
	t.Helper()
	prog, causes := Compiler{}.CompileTraced(root, "spec.validation.openAPIV3Schema", structural.RuleTrace{Logger: log, Key: "benches.cel.example.com", RV: "7"})
	require.Empty(t, causes)
	require.NotNil(t, prog)
	return prog
}

// TestCh13_CEL_TraceDisabledCostsNothing: a logger that does not log Debug adds no
// allocation to checking an object against 20 rules.
func TestCh13_CEL_TraceDisabledCostsNothing(t *testing.T) {
	root, obj := twentyRules(t)
	disabled := slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelInfo}))
	enabled := trace.NewPlainLogger(io.Discard)
	progs := map[string]structural.RuleProgram{
		"nil": compileWith(t, root, nil), "disabled": compileWith(t, root, disabled), "enabled": compileWith(t, root, enabled),
	}
	allocs := map[string]float64{}
	for name, p := range progs {
		allocs[name] = testing.AllocsPerRun(50, func() {
			if c := p.Validate(obj, nil); len(c) > 0 {
				t.Fatal(c)
			}
		})
	}
	assert.Equal(t, allocs["nil"], allocs["disabled"], "evaluation: a disabled logger allocates nothing more")
	assert.Greater(t, allocs["enabled"], allocs["nil"], "the enabled path does log")
}

// TestCh13_CEL_TraceStages: each stage of compiling and running a rule is one Debug hop,
// component cel, with the CRD (compile) or the object (run) as key and rv; a rule that
// does not compile stops at the stage that refused it.
func TestCh13_CEL_TraceStages(t *testing.T) {
	tests := []struct {
		name, rule, msg string
		want            []string
	}{
		{"object rule", "self.a <= self.b", "", []string{
			`op=parse key=crds.example.com rv=7 field=properties[spec].x-kubernetes-validations[0] expr="self.a <= self.b" nodes=5`,
			`op=macros key=crds.example.com rv=7 field=properties[spec].x-kubernetes-validations[0] expanded="" comprehensions=0`,
			`op=check key=crds.example.com rv=7 field=properties[spec].x-kubernetes-validations[0] type=bool`,
			`op=cost key=crds.example.com rv=7 field=properties[spec].x-kubernetes-validations[0] min=5 max=5`,
			`op=estimate key=crds.example.com rv=7 field=properties[spec].x-kubernetes-validations[0] runs=1 cost=5 limit=10000000 transition=false`,
			`op=activation key=ns/o rv=3 field=spec self=selfType0 oldSelf=true`,
			`op=eval key=ns/o rv=3 field=spec expr="self.a <= self.b" result=false cost=5`,
		}},
		{"macros", "has(self.a) && [self.a].all(x, x > 0)", "", []string{
			`op=parse key=crds.example.com rv=7 field=properties[spec].x-kubernetes-validations[0] expr="has(self.a) && [self.a].all(x, x > 0)" nodes=16`,
			`op=macros key=crds.example.com rv=7 field=properties[spec].x-kubernetes-validations[0] expanded=has,all comprehensions=1`,
			`op=check key=crds.example.com rv=7 field=properties[spec].x-kubernetes-validations[0] type=bool`,
			`op=cost key=crds.example.com rv=7 field=properties[spec].x-kubernetes-validations[0] min=1 max=19`,
			`op=estimate key=crds.example.com rv=7 field=properties[spec].x-kubernetes-validations[0] runs=1 cost=19 limit=10000000 transition=false`,
			`op=activation key=ns/o rv=3 field=spec self=selfType0 oldSelf=true`,
			`op=eval key=ns/o rv=3 field=spec expr="has(self.a) && [self.a].all(x, x > 0)" result=true cost=19`,
		}},
		{"transition rule", "self.a == oldSelf.a", "", []string{
			`op=parse key=crds.example.com rv=7 field=properties[spec].x-kubernetes-validations[0] expr="self.a == oldSelf.a" nodes=5`,
			`op=macros key=crds.example.com rv=7 field=properties[spec].x-kubernetes-validations[0] expanded="" comprehensions=0`,
			`op=check key=crds.example.com rv=7 field=properties[spec].x-kubernetes-validations[0] type=bool`,
			`op=cost key=crds.example.com rv=7 field=properties[spec].x-kubernetes-validations[0] min=4 max=4`,
			`op=estimate key=crds.example.com rv=7 field=properties[spec].x-kubernetes-validations[0] runs=1 cost=4 limit=10000000 transition=true`,
			`op=activation key=ns/o rv=3 field=spec self=selfType0 oldSelf=true`,
			`op=eval key=ns/o rv=3 field=spec expr="self.a == oldSelf.a" result=false cost=5`,
		}},
		{"syntax error", "self.a <=", "", []string{
			`op=parse key=crds.example.com rv=7 field=properties[spec].x-kubernetes-validations[0] expr="self.a <=" error="Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}"`,
		}},
		{"message expression", "self.a <= self.b", "'a is ' + string(self.a)", []string{
			`op=parse key=crds.example.com rv=7 field=properties[spec].x-kubernetes-validations[0] expr="self.a <= self.b" nodes=5`,
			`op=macros key=crds.example.com rv=7 field=properties[spec].x-kubernetes-validations[0] expanded="" comprehensions=0`,
			`op=check key=crds.example.com rv=7 field=properties[spec].x-kubernetes-validations[0] type=bool`,
			`op=cost key=crds.example.com rv=7 field=properties[spec].x-kubernetes-validations[0] min=5 max=5`,
			`op=estimate key=crds.example.com rv=7 field=properties[spec].x-kubernetes-validations[0] runs=1 cost=5 limit=10000000 transition=false`,
			`op=activation key=ns/o rv=3 field=spec self=selfType0 oldSelf=true`,
			`op=eval key=ns/o rv=3 field=spec expr="self.a <= self.b" result=false cost=5`,
			`op=eval key=ns/o rv=3 field=spec expr="'a is ' + string(self.a)" result="\"a is 3\"" cost=4`,
		}},
		{"check error", "self.nope > 1", "", []string{
			`op=parse key=crds.example.com rv=7 field=properties[spec].x-kubernetes-validations[0] expr="self.nope > 1" nodes=4`,
			`op=macros key=crds.example.com rv=7 field=properties[spec].x-kubernetes-validations[0] expanded="" comprehensions=0`,
			`op=check key=crds.example.com rv=7 field=properties[spec].x-kubernetes-validations[0] error="undefined field 'nope'"`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := structural.Parse(map[string]any{"type": "object", "properties": map[string]any{
				"spec": map[string]any{"type": "object", "x-kubernetes-validations": []any{map[string]any{"rule": tt.rule, "messageExpression": tt.msg}},
					"properties": map[string]any{"a": map[string]any{"type": "integer"}, "b": map[string]any{"type": "integer"}}}}})
			var buf bytes.Buffer
			prog, _ := Compiler{}.CompileTraced(root, "", structural.RuleTrace{Logger: trace.NewPlainLogger(&buf), Key: "crds.example.com", RV: "7"})
			if prog != nil {
				meta := func(rv string) map[string]any {
					return map[string]any{"name": "o", "namespace": "ns", "resourceVersion": rv}
				}
				prog.Validate(map[string]any{"metadata": meta("3"), "spec": map[string]any{"a": int64(3), "b": int64(2)}},
					map[string]any{"metadata": meta("3"), "spec": map[string]any{"a": int64(1), "b": int64(2)}})
			}
			var got []string
			for _, l := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
				_, rest, _ := strings.Cut(l, "component=cel ")
				got = append(got, rest)
			}
			assert.Empty(t, cmp.Diff(tt.want, got))
		})
	}
}

// BenchmarkCRDCreate20RulesTrace is BenchmarkCRDCreate20Rules with no logger, a logger
// that does not log Debug (which must cost nothing: compare the allocs/op) and one that
// does, writing to io.Discard.
func BenchmarkCRDCreate20RulesTrace(b *testing.B) {
	root, obj := twentyRules(b)
	for _, bc := range []struct {
		name string
		log  *slog.Logger
	}{
		{"nil", nil},
		{"disabled", slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelInfo}))},
		{"enabled", trace.NewPlainLogger(io.Discard)},
	} {
		prog := compileWith(b, root, bc.log)
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if c := prog.Validate(obj, nil); len(c) > 0 {
					b.Fatal(c)
				}
			}
		})
	}
}
