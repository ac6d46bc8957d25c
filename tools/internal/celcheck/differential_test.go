package celcheck

import (
	"fmt"
	"math/rand"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	celconfig "k8s.io/apiserver/pkg/apis/cel"
)

// differentialCount is how many generated expressions the differential test compares;
// CEL_DIFF_N overrides it.
func differentialCount() int {
	if n, err := strconv.Atoi(os.Getenv("CEL_DIFF_N")); err == nil && n > 0 {
		return n
	}
	return 12000
}

// diffOutcome compares one response pair. A difference is a disagreement on whether the
// expression compiles, on its type, on its value, on whether evaluation fails, or on the
// estimated cost; messages are compared as well and counted apart.
func diffOutcome(ref, mine response) (diff string, msgDiff string) {
	switch {
	case (ref.CompileError == "") != (mine.CompileError == ""):
		return fmt.Sprintf("compile: cel-go %q, ours %q", ref.CompileError, mine.CompileError), ""
	case ref.CompileError != "":
		if normalizeMsg(ref.CompileError) != normalizeMsg(mine.CompileError) {
			return "", fmt.Sprintf("compile message: cel-go %q, ours %q", ref.CompileError, mine.CompileError)
		}
		return "", ""
	case ref.OutType != mine.OutType:
		return fmt.Sprintf("type: cel-go %s, ours %s", ref.OutType, mine.OutType), ""
	case ref.EstMin != mine.EstMin || ref.EstMax != mine.EstMax:
		return fmt.Sprintf("estimated cost: cel-go [%d, %d], ours [%d, %d]", ref.EstMin, ref.EstMax, mine.EstMin, mine.EstMax), ""
	case (ref.EvalError == "") != (mine.EvalError == ""):
		return fmt.Sprintf("eval: cel-go %s, ours %s", show(ref), show(mine)), ""
	case ref.EvalError != "":
		if ref.EvalError != mine.EvalError {
			return "", fmt.Sprintf("eval message: cel-go %q, ours %q", ref.EvalError, mine.EvalError)
		}
		return "", ""
	case !sameValue(*ref.Value, *mine.Value):
		return fmt.Sprintf("value: cel-go %s, ours %s", ref.Value.key(), mine.Value.key()), ""
	}
	return "", ""
}

var selfTypeName = regexp.MustCompile(`selfType[0-9]+`)

func normalizeMsg(s string) string { return selfTypeName.ReplaceAllString(s, "selfType") }

// TestCh13_CEL_Differential compares our interpreter with cel-go, configured as
// k8s.io/apiserver configures it for v1.36, over generated expressions and values.
func TestCh13_CEL_Differential(t *testing.T) {
	o := startOurs(t)
	k := newK8s()
	g := &gen{r: rand.New(rand.NewSource(1))}
	n := differentialCount()
	var diffs, msgDiffs []string
	compiled, evalErrs := 0, 0
	costs, sameCost := 0, 0
	var costDiffs []string
	for i := 0; i < n; i++ {
		req := request{Expr: g.next(), Vars: g.values(), Limit: celconfig.PerCallLimit}
		ref := k.eval(req)
		mine, err := o.eval(req)
		if err != nil {
			t.Fatalf("%s: %v", req.Expr, err)
		}
		if ref.CompileError == "" {
			compiled++
			if ref.EvalError != "" {
				evalErrs++
			}
		}
		if ref.CompileError == "" && mine.CompileError == "" {
			costs++
			if ref.Cost == mine.Cost {
				sameCost++
			} else if len(costDiffs) < 10 {
				costDiffs = append(costDiffs, fmt.Sprintf("%s: cel-go %d, ours %d", req.Expr, ref.Cost, mine.Cost))
			}
		}
		d, md := diffOutcome(ref, mine)
		if d != "" {
			diffs = append(diffs, fmt.Sprintf("%s\n    vars %s\n    %s", req.Expr, varsString(req.Vars), d))
		}
		if md != "" && !strings.Contains(md, "cel-go \"internal error") {
			// cel-go fails with an internal error where sortBy's input is an error; ours
			// reports that error.
			msgDiffs = append(msgDiffs, fmt.Sprintf("%s\n    %s", req.Expr, md))
		}
	}
	t.Logf("differential: %d expressions, %d compiled (%d of them failed at run time), %d differences, %d differing messages",
		n, compiled, evalErrs, len(diffs), len(msgDiffs))
	t.Logf("actual cost: equal on %d of %d evaluations; first differences:\n%s", sameCost, costs, strings.Join(costDiffs, "\n"))
	if len(msgDiffs) > 0 {
		t.Logf("first differing messages:\n%s", strings.Join(first(msgDiffs, 15), "\n"))
	}
	if len(diffs) > 0 {
		kinds := map[string]int{}
		for _, d := range diffs {
			line := d[strings.LastIndex(d, "\n    ")+5:]
			kinds[line[:strings.IndexByte(line, ':')]]++
		}
		t.Errorf("%d differences %v, the first:\n%s", len(diffs), kinds, strings.Join(first(diffs, 25), "\n"))
	}
}

func first(xs []string, n int) []string {
	if len(xs) > n {
		return xs[:n]
	}
	return xs
}

func varsString(vs []jvar) string {
	var parts []string
	for _, v := range vs {
		if v.Value != nil {
			parts = append(parts, v.Name+"="+v.Value.key())
		}
	}
	return strings.Join(parts, " ")
}
