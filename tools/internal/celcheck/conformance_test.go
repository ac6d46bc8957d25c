package celcheck

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"google.golang.org/protobuf/encoding/prototext"

	celpb "cel.dev/expr"
	_ "cel.dev/expr/conformance/proto2" // message types the textprotos name
	_ "cel.dev/expr/conformance/proto3"
	conformance "cel.dev/expr/conformance/test"

	celconfig "k8s.io/apiserver/pkg/apis/cel"
)

// specDir is cel-spec's simple conformance data, in the module cache at the version
// Kubernetes v1.36 pins (cel.dev/expr is the cel-spec repository's Go module).
func specDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(goModCache(t), "cel.dev", "expr@v0.25.1", "tests", "simple", "testdata")
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("cel-spec test data not found (run go mod download cel.dev/expr@v0.25.1): %v", err)
	}
	return dir
}

// caseOutcome is how one conformance case went.
type caseOutcome struct {
	inEnv, ours bool
	detail      string
}

// TestCh13_CEL_SpecConformance runs cel-spec's simple conformance tests against both cel-go
// with the Kubernetes environment and our interpreter. A case is inside the Kubernetes
// environment when cel-go, configured as k8s.io/apiserver configures it, passes it; our
// interpreter must pass at least 95 % of those.
func TestCh13_CEL_SpecConformance(t *testing.T) {
	dir := specDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "*.textproto"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no textprotos in %s: %v", dir, err)
	}
	o := startOurs(t)
	k := newK8s()
	perFile := map[string][3]int{}
	var failures []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var file conformance.SimpleTestFile
		if err := prototext.Unmarshal(b, &file); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".textproto")
		for _, sec := range file.GetSection() {
			for _, tc := range sec.GetTest() {
				out := runCase(o, k, tc)
				c := perFile[name]
				c[0]++
				if out.inEnv {
					c[1]++
					if out.ours {
						c[2]++
					} else {
						failures = append(failures, fmt.Sprintf("%s/%s/%s: %s\n    %s", name, sec.GetName(), tc.GetName(), tc.GetExpr(), out.detail))
					}
				}
				perFile[name] = c
			}
		}
	}
	var names []string
	for n := range perFile {
		names = append(names, n)
	}
	sort.Strings(names)
	total, inEnv, pass := 0, 0, 0
	var report strings.Builder
	fmt.Fprintf(&report, "%-18s %6s %8s %6s %7s\n", "file", "cases", "k8s-env", "ours", "rate")
	for _, n := range names {
		c := perFile[n]
		total, inEnv, pass = total+c[0], inEnv+c[1], pass+c[2]
		if c[1] == 0 {
			fmt.Fprintf(&report, "%-18s %6d %8d %6s %7s  (outside the Kubernetes environment)\n", n, c[0], 0, "-", "-")
			continue
		}
		fmt.Fprintf(&report, "%-18s %6d %8d %6d %6.1f%%\n", n, c[0], c[1], c[2], 100*float64(c[2])/float64(c[1]))
	}
	rate := 100 * float64(pass) / float64(inEnv)
	fmt.Fprintf(&report, "%-18s %6d %8d %6d %6.1f%%\n", "total", total, inEnv, pass, rate)
	t.Logf("cel-spec simple conformance (cel.dev/expr v0.25.1), cel-go v0.26.0 with the Kubernetes v1.36 environment as reference:\n%s", report.String())
	if len(failures) > 0 {
		t.Logf("%d failing cases inside the environment:\n%s", len(failures), strings.Join(failures, "\n"))
	}
	if rate < 95 {
		t.Errorf("pass rate %.1f%% is below 95%%", rate)
	}
}

// runCase runs one case on both implementations.
func runCase(o *ours, k *k8s, tc *conformance.SimpleTest) caseOutcome {
	req, exp, err := buildCase(tc)
	if err != nil {
		return caseOutcome{detail: err.Error()}
	}
	ref := k.eval(req)
	out := caseOutcome{inEnv: exp.match(ref) == ""}
	if !out.inEnv {
		return out
	}
	mine, err := o.eval(req)
	if err != nil {
		out.detail = err.Error()
		return out
	}
	out.detail = exp.match(mine)
	out.ours = out.detail == ""
	return out
}

// expectation is a case's result matcher.
type expectation struct {
	value     *jv
	typ       string
	wantError bool
	checkOnly bool
}

func (e expectation) match(r response) string {
	if e.wantError {
		if r.CompileError != "" || r.EvalError != "" {
			return ""
		}
		return fmt.Sprintf("want an error, got %s", show(r))
	}
	if r.CompileError != "" {
		return "compile error: " + r.CompileError
	}
	if e.typ != "" && r.OutType != e.typ {
		return fmt.Sprintf("type %s, want %s", r.OutType, e.typ)
	}
	if e.checkOnly {
		return ""
	}
	if r.EvalError != "" {
		return "eval error: " + r.EvalError
	}
	if e.value != nil && (r.Value == nil || !sameValue(*r.Value, *e.value)) {
		return fmt.Sprintf("got %s, want %s", show(r), e.value.key())
	}
	return ""
}

func show(r response) string {
	if r.Value != nil {
		return r.Value.key()
	}
	if r.EvalError != "" {
		return "error " + r.EvalError
	}
	return "compile error " + r.CompileError
}

// sameValue compares encoded values; -0 and 0 are the same double, as in proto equality.
func sameValue(a, b jv) bool {
	norm := func(j jv) string {
		s := j.key()
		return strings.ReplaceAll(s, `"double":"-0"`, `"double":"0"`)
	}
	return norm(a) == norm(b)
}

// buildCase turns a conformance case into a request and its expectation; cases that need
// what Kubernetes does not offer (containers, messages, unknowns) fail here and so count
// as outside the environment.
func buildCase(tc *conformance.SimpleTest) (request, expectation, error) {
	req := request{Expr: tc.GetExpr(), NoCheck: tc.GetDisableCheck(), NoMacros: tc.GetDisableMacros(), Limit: celconfig.PerCallLimit}
	var exp expectation
	if tc.GetContainer() != "" {
		return req, exp, fmt.Errorf("container %q", tc.GetContainer())
	}
	for _, d := range tc.GetTypeEnv() {
		id := d.GetIdent()
		if id == nil {
			return req, exp, fmt.Errorf("function declarations")
		}
		t, err := types.ProtoAsType(id.GetType())
		if err != nil {
			return req, exp, err
		}
		req.Vars = append(req.Vars, jvar{Name: d.GetName(), Type: t.String()})
	}
	names := make([]string, 0, len(tc.GetBindings()))
	for n := range tc.GetBindings() {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		v, err := protoValue(tc.GetBindings()[n].GetValue())
		if err != nil {
			return req, exp, err
		}
		found := false
		for i := range req.Vars {
			if req.Vars[i].Name == n {
				req.Vars[i].Value, found = &v, true
			}
		}
		if !found {
			req.Vars = append(req.Vars, jvar{Name: n, Type: "dyn", Value: &v})
		}
	}
	exp.checkOnly = tc.GetCheckOnly()
	switch m := tc.GetResultMatcher().(type) {
	case *conformance.SimpleTest_Value:
		v, err := protoValue(m.Value)
		if err != nil {
			return req, exp, err
		}
		exp.value = &v
	case *conformance.SimpleTest_TypedResult:
		if r := m.TypedResult.GetResult(); r != nil {
			v, err := protoValue(r)
			if err != nil {
				return req, exp, err
			}
			exp.value = &v
		}
		t, err := types.ProtoAsType(m.TypedResult.GetDeducedType())
		if err != nil {
			return req, exp, err
		}
		exp.typ = t.String()
	case *conformance.SimpleTest_EvalError, *conformance.SimpleTest_AnyEvalErrors:
		exp.wantError = true
	case *conformance.SimpleTest_Unknown, *conformance.SimpleTest_AnyUnknowns:
		return req, exp, fmt.Errorf("unknowns")
	case nil:
		v := jv{Bool: ptr(true)}
		exp.value = &v
	}
	return req, exp, nil
}

func protoValue(v *celpb.Value) (jv, error) {
	r, err := cel.ProtoAsValue(types.DefaultTypeAdapter, v)
	if err != nil {
		return jv{}, err
	}
	return encodeRef(r)
}

// goModCache is GOMODCACHE.
func goModCache(t *testing.T) string {
	t.Helper()
	if d := os.Getenv("GOMODCACHE"); d != "" {
		return d
	}
	out, err := goEnv("GOMODCACHE")
	if err != nil {
		t.Fatal(err)
	}
	return out
}
