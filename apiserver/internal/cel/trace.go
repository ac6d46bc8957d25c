package cel

import (
	"fmt"
	"log/slog"
	"strings"

	"github.com/informer-lab/informer-lab/internal/trace"
)

// TraceComponent is the component attribute of the interpreter's hops.
const TraceComponent = "cel"

// Trace is where the interpreter logs its stages, one Debug hop each with the repository's
// attributes (component "cel", op, key, rv), so that a rule can be followed from its text
// to its result. Key and RV name what the work is for (a CRD when its rules are compiled,
// a custom object when they run); Field is the schema location of the rule. The zero
// Trace is silent, and a disabled one costs a nil check. cel-go has no counterpart: its
// stages are observed through its Issues and EvalDetails.
type Trace struct {
	Logger  *slog.Logger
	Key, RV string
	Field   string
}

// Enabled reports whether the trace logs anything.
func (t Trace) Enabled() bool { return t.Logger != nil && trace.Enabled(t.Logger) }

// Hop logs one stage: op with the field first, then extra.
func (t Trace) Hop(op string, extra ...slog.Attr) {
	if !t.Enabled() {
		return
	}
	attrs := make([]slog.Attr, 0, 1+len(extra))
	attrs = append(attrs, slog.String("field", t.Field))
	trace.Hop(t.Logger, TraceComponent, op, t.Key, t.RV, append(attrs, extra...)...)
}

// traceParsed logs the parse and macro stages of a successful parse: the size of the
// tree and which macros the parser expanded into comprehensions (cel-go's parser, like
// ours, expands them while it parses; they are two hops here because they are two ideas).
func (t Trace) traceParsed(src string, e *Expr, expanded []string) {
	n := 0
	walk(e, func(*Expr) { n++ })
	t.Hop("parse", slog.String("expr", src), slog.Int("nodes", n))
	comps := 0
	walk(e, func(x *Expr) {
		if x.Kind == eComprehension {
			comps++
		}
	})
	t.Hop("macros", slog.String("expanded", strings.Join(expanded, ",")), slog.Int("comprehensions", comps))
}

// ValueString renders a result for a trace: scalars as CEL would print them, other values
// by their type.
func ValueString(v Value) string {
	switch x := v.(type) {
	case nil:
		return "<none>"
	case bool, int64, uint64, float64:
		return fmt.Sprint(x)
	case string:
		return fmt.Sprintf("%q", x)
	}
	return fmt.Sprintf("%T", v)
}

// EstimateCostTraced is EstimateCost, logged as the cost stage.
func (p *Program) EstimateCostTraced(t Trace) CostEstimate {
	c := p.EstimateCost()
	t.Hop("cost", slog.Uint64("min", c.Min), slog.Uint64("max", c.Max))
	return c
}

// EvalTraced is EvalWithCost, logged as the eval stage: the result, the actual cost and
// the error, if any.
func (p *Program) EvalTraced(act Activation, limit uint64, t Trace) (Value, uint64, error) {
	v, cost, err := p.EvalWithCost(act, limit)
	if t.Enabled() {
		attrs := []slog.Attr{slog.String("expr", p.src), slog.String("result", ValueString(v)), slog.Uint64("cost", cost)}
		if err != nil {
			attrs = append(attrs, slog.String("error", err.Error()))
		}
		t.Hop("eval", attrs...)
	}
	return v, cost, err
}
