package admission

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/cel"
	"github.com/informer-lab/informer-lab/apiserver/internal/patch"
	"github.com/informer-lab/informer-lab/apiserver/internal/typed"
)

// MutatingAdmissionPolicy mirrors the MutatingAdmissionPolicy plugin
// (pkg/admission/plugin/policy/mutating): stored policies and bindings patch the objects
// they match, by ApplyConfiguration (merged as server-side apply merges) or JSONPatch.
type MutatingAdmissionPolicy struct{}

// Name implements Interface.
func (MutatingAdmissionPolicy) Name() string { return "MutatingAdmissionPolicy" }

// Handles implements Interface: the real plugin mutates creates and updates (and connects).
func (MutatingAdmissionPolicy) Handles(op Operation) bool { return op == Create || op == Update }

type compiledMutation struct {
	jsonPatch bool
	expr      celExpr
}

// compiledMutating is what the plugin compiles of one mutating policy generation.
type compiledMutating struct {
	compiledPolicy
	ifNeeded  bool
	mutations []compiledMutation
}

var mutatingCache compileCache[*compiledMutating]

func compileMutating(p *api.Unstructured) *compiledMutating {
	key := string(p.GetUID()) + "/" + p.GetName()
	if c, ok := mutatingCache.load(key); ok && c.rv == p.GetResourceVersion() {
		return c
	}
	spec := child(p.Object, "spec")
	c := &compiledMutating{ifNeeded: str(spec, "reinvocationPolicy") == "IfNeeded"}
	env := envFor(true, spec["paramKind"] != nil)
	c.compiledPolicy = compiledPolicy{rv: p.GetResourceVersion(), failIgnore: str(spec, "failurePolicy") == "Ignore", vars: map[string]celExpr{}}
	for _, mc := range items(spec, "matchConditions") {
		c.conditions = append(c.conditions, compileWith(env, str(mc, "expression"), cel.BoolType))
	}
	for _, v := range items(spec, "variables") {
		n := str(v, "name")
		c.varNames = append(c.varNames, n)
		c.vars[n] = compileWith(env, str(v, "expression"))
	}
	for _, m := range items(spec, "mutations") {
		cm := compiledMutation{jsonPatch: str(m, "patchType") == "JSONPatch"}
		src := str(child(m, "applyConfiguration"), "expression")
		if cm.jsonPatch {
			src = str(child(m, "jsonPatch"), "expression")
		}
		if cm.jsonPatch {
			cm.expr = compileWith(env, src, roleTypes[RoleJSONPatch]...)
		} else {
			cm.expr = compileWith(env, src, roleTypes[RoleApply]...)
		}
		c.mutations = append(c.mutations, cm)
	}
	mutatingCache.store(key, c)
	return c
}

// invocation is one policy, binding and param that matched the request.
type invocation struct {
	policy, binding string
	c               *compiledMutating
	param           *api.Unstructured
}

// Admit implements MutationInterface, as the mutating dispatcher does: each matching
// invocation's mutations in order; then, when the object changed, the IfNeeded
// invocations that ran before the change run once more.
func (MutatingAdmissionPolicy) Admit(ctx context.Context, a *Attributes) error {
	policies := a.list(policyGroup, "mutatingadmissionpolicies", "")
	if len(policies) == 0 || a.Object == nil {
		return nil
	}
	bindings := a.list(policyGroup, "mutatingadmissionpolicybindings", "")
	var errs []string
	var invs []invocation
	for _, p := range policies {
		spec := child(p.Object, "spec")
		if !matchResources(a, child(spec, "matchConstraints")) {
			continue
		}
		c := compileMutating(p)
		for _, b := range bindings {
			bspec := child(b.Object, "spec")
			if str(bspec, "policyName") != p.GetName() || !matchResources(a, child(bspec, "matchResources")) {
				continue
			}
			params, err := collectParams(a, child(spec, "paramKind"), child(bspec, "paramRef"))
			if err != nil {
				if !c.failIgnore {
					errs = append(errs, policyErr(p.GetName(), b.GetName(), "failed to configure binding: "+err.Error()))
				}
				continue
			}
			for _, param := range params {
				invs = append(invs, invocation{policy: p.GetName(), binding: b.GetName(), c: c, param: param})
			}
		}
	}
	lastChange := -1
	for i, inv := range invs {
		changed, err := inv.run(ctx, a)
		if err != "" {
			errs = append(errs, err)
		}
		if changed {
			lastChange = i
			a.Redefault = true
		}
	}
	for i := 0; i < lastChange; i++ {
		if invs[i].c.ifNeeded {
			if _, err := invs[i].run(ctx, a); err != "" {
				errs = append(errs, err)
			}
		}
	}
	if len(errs) == 0 {
		return nil
	}
	err := forbidden(a, errors.New("admission request denied by policy"))
	var st *api.Status
	if errors.As(err, &st) {
		st.Message, st.Reason = errs[0], "Invalid"
		if st.Details != nil {
			for _, e := range errs {
				st.Details.Causes = append(st.Details.Causes, api.StatusCause{Message: e})
			}
		}
	}
	return err
}

func policyErr(policy, binding, msg string) string {
	return fmt.Sprintf("policy '%s' with binding '%s' denied request: %s", policy, binding, msg)
}

// run applies one invocation's mutations; it reports whether the object changed and the
// error that fails the request ("" when none, or when the policy ignores failures).
func (inv invocation) run(ctx context.Context, a *Attributes) (bool, string) {
	c := inv.c
	act := c.newActivation(ctx, a, inv.param)
	fail := func(msg string) string {
		if c.failIgnore {
			return ""
		}
		return policyErr(inv.policy, inv.binding, msg)
	}
	if len(c.conditions) > 0 {
		var msgs []string
		for _, mc := range c.conditions {
			v, msg, _ := act.eval(mc)
			if msg != "" {
				msgs = append(msgs, msg)
			} else if v == false {
				return false, ""
			}
		}
		if len(msgs) == 1 {
			return false, fail(msgs[0])
		} else if len(msgs) > 1 {
			return false, fail(fmt.Sprint(msgs))
		}
	}
	before := a.Object.DeepCopy().Object
	for _, m := range c.mutations {
		// Each mutation sees the object as the previous ones left it.
		act.vals[varObject] = objectValue(a.Object)
		v, msg, _ := act.eval(m.expr)
		if msg != "" {
			return false, fail(msg)
		}
		var next map[string]any
		var err error
		if m.jsonPatch {
			next, err = applyJSONPatchValue(a.Object.Object, v)
		} else {
			next, err = applyConfiguration(a, v)
		}
		if err != nil {
			return false, fail(err.Error())
		}
		a.Object.Object = next
	}
	return !reflect.DeepEqual(before, a.Object.Object), ""
}

// applyConfiguration mirrors applyConfigPatcher.Patch: the Object the expression built,
// merged into the object as server-side apply merges (by the kind's type, list map keys
// and all; deduced for a kind without one).
func applyConfiguration(a *Attributes, v cel.Value) (map[string]any, error) {
	s, ok := v.(*cel.Struct)
	if !ok || s.TypeName != "Object" {
		return nil, fmt.Errorf("unsupported return type from ApplyConfiguration expression: %v", cel.TypeOfValue(v))
	}
	cfg, err := normalize(cel.ToNative(v))
	if err != nil {
		return nil, err
	}
	atom, terr := typed.ForBuiltin(api.GroupVersionKind{Group: a.Kind.Group, Version: a.Version, Kind: a.Kind.Kind}, "")
	if terr != nil || atom == nil {
		atom = typed.Deduced()
	}
	merged, err := typed.Merge(a.Object.Object, cfg, atom)
	if err != nil {
		return nil, fmt.Errorf("error applying patch: failed to merge patch: %w", err)
	}
	m, ok := merged.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("error applying patch: invalid result %T", merged)
	}
	return m, nil
}

// applyJSONPatchValue mirrors jsonPatcher.Patch: the list of JSONPatch the expression
// built, applied as RFC 6902; a failed test operation leaves the object as it was.
func applyJSONPatchValue(obj map[string]any, v cel.Value) (map[string]any, error) {
	l, ok := v.(cel.List)
	if !ok {
		return nil, errors.New("type mismatch: JSONPatchType.expression should evaluate to array")
	}
	ops := make([]any, 0, l.Len())
	for i := 0; i < l.Len(); i++ {
		s, ok := l.At(i).(*cel.Struct)
		if !ok || s.TypeName != "JSONPatch" {
			return nil, fmt.Errorf("type mismatch: JSONPatchType.expression should evaluate to array of JSONPatch, got element of %T", l.At(i))
		}
		op := map[string]any{}
		for _, k := range []string{"op", "path", "from"} {
			if x, ok := s.Get(k); ok && x != "" {
				op[k] = x
			}
		}
		if op["op"] == nil {
			op["op"] = ""
		}
		if op["path"] == nil {
			op["path"] = ""
		}
		if x, ok := s.Get("value"); ok {
			op["value"] = cel.ToNative(x)
		}
		ops = append(ops, op)
	}
	orig, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("failed to create JSON patch: %w", err)
	}
	pb, err := json.Marshal(ops)
	if err != nil {
		return nil, fmt.Errorf("JSONPath valueExpression evaluated to a type that could not marshal to JSON: %w", err)
	}
	out, testFailed, err := patch.ApplyJSONPatchOps(orig, pb)
	if testFailed {
		return obj, nil
	}
	if err != nil {
		return nil, fmt.Errorf("JSON Patch: %w", err)
	}
	var u api.Unstructured
	if err := json.Unmarshal(out, &u); err != nil {
		return nil, err
	}
	return u.Object, nil
}

// normalize round-trips data through JSON so that its numbers are what a decoded object
// holds.
func normalize(v any) (map[string]any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var u api.Unstructured
	if err := json.Unmarshal(b, &u); err != nil {
		return nil, err
	}
	return u.Object, nil
}
