package admission

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/cel"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

// The variables an admission policy expression may read (k8s.io/apiserver pkg/admission/plugin/cel).
const (
	varObject    = "object"
	varOldObject = "oldObject"
	varRequest   = "request"
	varParams    = "params"
	varNamespace = "namespaceObject"
	varVariables = "variables"
	varAuthz     = "authorizer"
)

// runtimeCostBudget mirrors celconfig.RuntimeCELCostBudget: what all the expressions of one
// policy evaluation may spend together.
const runtimeCostBudget = 10000000

// newPolicyEnv mirrors the environment of the policy plugins' compiler: every variable is
// dyn there (the objects are typed only by the status type checker), variables included;
// params only for a policy with a paramKind, authorizer except in message expressions
// (OptionalVariableDeclarations).
func newPolicyEnv(hasParams, hasAuthz bool) *cel.Env {
	vars := []cel.Var{
		{Name: varObject, Type: cel.DynType},
		{Name: varOldObject, Type: cel.DynType},
		{Name: varRequest, Type: cel.DynType},
		{Name: varNamespace, Type: cel.DynType},
		{Name: varVariables, Type: cel.DynType},
	}
	if hasParams {
		vars = append(vars, cel.Var{Name: varParams, Type: cel.DynType})
	}
	if hasAuthz {
		vars = append(vars, cel.Var{Name: varAuthz, Type: cel.AuthorizerType})
	}
	return cel.NewEnv(vars...).WithAuthz()
}

// envKey selects one of the environments.
type envKey struct{ mutating, params, authz bool }

// policyEnvs are the environments, built once, on the first policy compiled: building them
// is most of this package's start-up cost, and a server without admission policies never
// needs them.
var policyEnvs = sync.OnceValue(func() map[envKey]*cel.Env {
	m := map[envKey]*cel.Env{}
	for _, p := range []bool{false, true} {
		for _, az := range []bool{false, true} {
			env := newPolicyEnv(p, az)
			m[envKey{false, p, az}] = env
			m[envKey{true, p, az}] = env.WithStructs("Object", "JSONPatch")
		}
	}
	return m
})

// celExpr is one compiled expression, or its compile error as the real compiler words it.
type celExpr struct {
	src  string
	prog *cel.Program
	err  string
}

// compileWith mirrors CompileCELExpression: the source compiled in env, then its output
// type checked against what the expression must return (none given accepts any).
func compileWith(env *cel.Env, src string, want ...*cel.Type) celExpr {
	p, err := env.Compile(src)
	if err != nil {
		if _, ok := err.(*cel.ProgramError); ok {
			return celExpr{src: src, err: err.Error()}
		}
		return celExpr{src: src, err: "compilation failed: " + err.Error()}
	}
	if len(want) > 0 {
		out := p.OutputType()
		ok := false
		names := make([]string, len(want))
		for i, t := range want {
			names[i] = t.String()
			ok = ok || out.String() == t.String()
		}
		if !ok {
			if len(want) == 1 {
				return celExpr{src: src, err: fmt.Sprintf("must evaluate to %s but got %s", names[0], out)}
			}
			return celExpr{src: src, err: fmt.Sprintf("must evaluate to one of [%s] but got %s", strings.Join(names, " "), out)}
		}
	}
	return celExpr{src: src, prog: p}
}

// activation mirrors evaluationActivation: the request's values, with the policy's
// variables evaluated lazily, once each, on first use.
type activation struct {
	vals   map[string]cel.Value
	vars   *lazyVars
	budget int64
}

// ResolveName implements cel.Activation.
func (a *activation) ResolveName(name string) (cel.Value, bool) {
	if name == varVariables {
		if a.vars == nil {
			return cel.NewMap(nil, nil), true
		}
		return a.vars, true
	}
	v, ok := a.vals[name]
	return v, ok
}

// errOutOfBudget is the evaluation error when the policy's budget runs out.
const errOutOfBudget = "validation failed due to running out of cost budget, no further validation rules will be run"

// eval mirrors evaluationActivation.Evaluate: the result or the error text, charged to the
// shared budget.
func (a *activation) eval(e celExpr) (cel.Value, string, bool) {
	if e.err != "" {
		return nil, "compilation error: " + e.err, false
	}
	v, cost, err := e.prog.EvalWithCost(a, uint64(max(a.budget, 1)))
	if err == cel.ErrCostLimit || int64(cost) > a.budget {
		a.budget = -1
		return nil, errOutOfBudget, true
	}
	a.budget -= int64(cost)
	if err != nil {
		return nil, fmt.Sprintf("expression '%s' resulted in error: %v", e.src, err), false
	}
	if ev, ok := v.(*cel.Err); ok {
		return nil, fmt.Sprintf("expression '%s' resulted in error: %v", e.src, ev), false
	}
	return v, "", false
}

// lazyVars is the variables map: each variable compiled with the policy and evaluated when
// first read, as the real composition environment does.
type lazyVars struct {
	act   *activation
	names []string
	exprs map[string]celExpr
	done  map[string]cel.Value
}

// Len implements cel.Map.
func (l *lazyVars) Len() int { return len(l.names) }

// Get implements cel.Map.
func (l *lazyVars) Get(k cel.Value) (cel.Value, bool) {
	name, ok := k.(string)
	if !ok {
		return nil, false
	}
	if v, ok := l.done[name]; ok {
		return v, true
	}
	e, ok := l.exprs[name]
	if !ok {
		return nil, false
	}
	v, msg, _ := l.act.eval(e)
	if msg != "" {
		v = cel.NewErr(msg)
	}
	l.done[name] = v
	return v, true
}

// Range implements cel.Map.
func (l *lazyVars) Range(f func(k, v cel.Value) bool) {
	for _, n := range l.names {
		v, _ := l.Get(n)
		if !f(n, v) {
			return
		}
	}
}

// jsonMap is decoded JSON as CEL's dyn map: converted lazily as the expression reads it,
// as cel-go's native adapter wraps the unstructured content.
type jsonMap map[string]any

// Len implements cel.Map.
func (m jsonMap) Len() int { return len(m) }

// Get implements cel.Map.
func (m jsonMap) Get(k cel.Value) (cel.Value, bool) {
	s, ok := k.(string)
	if !ok {
		return nil, false
	}
	v, ok := m[s]
	if !ok {
		return nil, false
	}
	return toCEL(v), true
}

// Range implements cel.Map.
func (m jsonMap) Range(f func(k, v cel.Value) bool) {
	for k, v := range m {
		if !f(k, toCEL(v)) {
			return
		}
	}
}

// jsonList is decoded JSON as CEL's dyn list.
type jsonList []any

// Len implements cel.List.
func (l jsonList) Len() int { return len(l) }

// At implements cel.List.
func (l jsonList) At(i int) cel.Value { return toCEL(l[i]) }

// toCEL wraps one decoded JSON value.
func toCEL(v any) cel.Value {
	switch x := v.(type) {
	case nil:
		return cel.Null
	case map[string]any:
		return jsonMap(x)
	case []any:
		return jsonList(x)
	case []string: // a request's userInfo.groups
		out := make([]cel.Value, len(x))
		for i, e := range x {
			out[i] = e
		}
		return cel.NewList(out)
	case map[string][]string: // a request's userInfo.extra
		keys := make([]cel.Value, 0, len(x))
		vals := make([]cel.Value, 0, len(x))
		for k, e := range x {
			keys = append(keys, k)
			vals = append(vals, toCEL(e))
		}
		return cel.NewMap(keys, vals)
	case int:
		return int64(x)
	case int32:
		return int64(x)
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	}
	return v
}

// objectValue is an object for CEL, null when absent.
func objectValue(u *api.Unstructured) cel.Value {
	if u == nil || u.Object == nil {
		return cel.Null
	}
	return jsonMap(u.Object)
}

// requestValue mirrors CreateAdmissionRequest: the admission request as CEL sees it.
func requestValue(ctx context.Context, a *Attributes) cel.Value {
	kind := map[string]any{"group": a.Kind.Group, "version": a.Version, "kind": a.Kind.Kind}
	res := map[string]any{"group": a.Resource.Group, "version": a.Version, "resource": a.Resource.Resource}
	user := map[string]any{"username": "", "groups": []any{}}
	if u, ok := rest.UserFrom(ctx); ok {
		user["username"] = u.Name
		if u.UID != "" {
			user["uid"] = u.UID
		}
		g := make([]any, len(u.Groups))
		for i, x := range u.Groups {
			g[i] = x
		}
		user["groups"] = g
		if len(u.Extra) > 0 {
			ex := map[string]any{}
			for k, vs := range u.Extra {
				l := make([]any, len(vs))
				for i, x := range vs {
					l[i] = x
				}
				ex[k] = l
			}
			user["extra"] = ex
		}
	}
	r := map[string]any{
		"kind": kind, "resource": res, "requestKind": kind, "requestResource": res,
		"name": a.Name, "namespace": a.Namespace, "operation": string(a.Operation),
		"userInfo": user, "dryRun": a.DryRun,
	}
	if a.Subresource != "" {
		r["subResource"] = a.Subresource
		r["requestSubResource"] = a.Subresource
	}
	return jsonMap(r)
}

// AuthorizeFunc is the server's authorizer as the `authorizer` variable asks it: for the
// requesting user (or the service account the expression names).
type AuthorizeFunc func(user rest.UserInfo, req cel.AuthzRequest) cel.AuthzDecision

// authorizerValue mirrors the `authorizer` variable: checks answered by the server's
// authorizer, or allowed when none is configured (AlwaysAllow).
func authorizerValue(ctx context.Context, a *Attributes) cel.Value {
	user, _ := rest.UserFrom(ctx)
	return cel.NewAuthorizer(func(r cel.AuthzRequest) cel.AuthzDecision {
		if a.Authorize == nil {
			return cel.AuthzDecision{Decision: "allow"}
		}
		return a.Authorize(user, r)
	})
}
