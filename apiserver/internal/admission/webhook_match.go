package admission

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/informer-lab/informer-lab/apiserver/internal/cel"
)

// matchEnv declares the variables of a webhook's matchConditions (object, oldObject and
// request; authorizer is not declared here, so an expression using it does not compile).
var (
	matchEnvOnce sync.Once
	matchEnv     *cel.Env
	matchProgs   sync.Map // expression → *cel.Program or error
)

func matchEnvironment() *cel.Env {
	matchEnvOnce.Do(func() {
		matchEnv = cel.NewEnv(
			cel.Var{Name: "object", Type: cel.DynType},
			cel.Var{Name: "oldObject", Type: cel.DynType},
			cel.Var{Name: "request", Type: cel.DynType},
		)
	})
	return matchEnv
}

// matchCostBudget is celconfig.RuntimeCELCostBudgetMatchConditions.
const matchCostBudget = 10000000

func compileCondition(expr string) (*cel.Program, error) {
	if v, ok := matchProgs.Load(expr); ok {
		if p, ok := v.(*cel.Program); ok {
			return p, nil
		}
		return nil, v.(error)
	}
	p, err := matchEnvironment().Compile(expr)
	if err != nil {
		matchProgs.Store(expr, err)
		return nil, err
	}
	matchProgs.Store(expr, p)
	return p, nil
}

// conditionsMatch is matchconditions.matcher.Match: a false condition skips the webhook;
// errors (with no false condition) fail the request under failurePolicy Fail, with a 403,
// and skip the webhook under Ignore.
func (h *hook) conditionsMatch(ctx context.Context, a *Attributes) (bool, error) {
	if len(h.conditions) == 0 {
		return true, nil
	}
	matchEnvironment()
	var request map[string]any
	if body, err := requestBody(ctx, a, ""); err == nil {
		request = decodeRequest(body)
	}
	vars := cel.Vars{
		"object":    toCEL(objOrNil(a.Object)),
		"oldObject": toCEL(objOrNil(a.OldObject)),
		"request":   toCEL(request),
	}
	var errs []string
	for _, c := range h.conditions {
		m, _ := c.(map[string]any)
		expr, _ := m["expression"].(string)
		p, err := compileCondition(expr)
		if err != nil {
			errs = append(errs, fmt.Sprintf("compilation failed: %v", err))
			continue
		}
		v, _, err := p.EvalWithCost(vars, matchCostBudget)
		if err != nil {
			errs = append(errs, fmt.Sprintf("expression '%s' resulted in error: %v", expr, err))
			continue
		}
		if b, ok := v.(bool); ok && !b {
			return false, nil
		} else if !ok {
			errs = append(errs, fmt.Sprintf("expression '%s' resulted in error: no such overload", expr))
		}
	}
	if len(errs) == 0 {
		return true, nil
	}
	if h.ignore {
		return false, nil
	}
	msg := errs[0]
	if len(errs) > 1 {
		msg = "[" + strings.Join(errs, ", ") + "]"
	}
	return false, forbiddenAt(a, errors.New(msg))
}

// forbiddenAt is apierrors.NewForbidden with the request's name as it stands.
func forbiddenAt(a *Attributes, err error) error { return forbidden(a, err) }
