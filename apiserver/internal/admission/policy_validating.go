package admission

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/cel"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

const policyGroup = "admissionregistration.k8s.io"

// ValidatingAdmissionPolicy mirrors the ValidatingAdmissionPolicy plugin
// (pkg/admission/plugin/policy/validating): the policies and bindings stored in this server
// judge every request they match, with CEL.
type ValidatingAdmissionPolicy struct{}

// Name implements Interface.
func (ValidatingAdmissionPolicy) Name() string { return "ValidatingAdmissionPolicy" }

// Handles implements Interface: every operation (connect is not simulated).
func (ValidatingAdmissionPolicy) Handles(Operation) bool { return true }

// compiledValidation is one validation of a policy.
type compiledValidation struct {
	expr, msgExpr celExpr
	hasMsgExpr    bool
	message       string
	reason        string
}

// compiledAudit is one audit annotation.
type compiledAudit struct {
	key  string
	expr celExpr
}

// compiledPolicy is what the plugin compiles of one policy generation (validator).
type compiledPolicy struct {
	rv          string
	failIgnore  bool
	conditions  []celExpr
	varNames    []string
	vars        map[string]celExpr
	validations []compiledValidation
	audits      []compiledAudit
}

// policyCache holds each policy's compiled generation, by UID.
var policyCache compileCache[*compiledPolicy]

// compilePolicy mirrors the plugin's compilation of a policy, cached per generation.
func compilePolicy(p *api.Unstructured) *compiledPolicy {
	key := string(p.GetUID()) + "/" + p.GetName()
	if c, ok := policyCache.load(key); ok && c.rv == p.GetResourceVersion() {
		return c
	}
	spec := child(p.Object, "spec")
	env := envFor(false, spec["paramKind"] != nil)
	c := &compiledPolicy{rv: p.GetResourceVersion(), failIgnore: str(spec, "failurePolicy") == "Ignore", vars: map[string]celExpr{}}
	for _, mc := range items(spec, "matchConditions") {
		c.conditions = append(c.conditions, compileWith(env, str(mc, "expression"), cel.BoolType))
	}
	for _, v := range items(spec, "variables") {
		n := str(v, "name")
		c.varNames = append(c.varNames, n)
		c.vars[n] = compileWith(env, str(v, "expression"))
	}
	for _, v := range items(spec, "validations") {
		cv := compiledValidation{expr: compileWith(env, str(v, "expression"), cel.BoolType), message: str(v, "message"), reason: str(v, "reason")}
		if me := str(v, "messageExpression"); me != "" {
			cv.msgExpr, cv.hasMsgExpr = compileWith(messageEnv(spec["paramKind"] != nil), me, cel.StringType), true
		}
		c.validations = append(c.validations, cv)
	}
	for _, v := range items(spec, "auditAnnotations") {
		c.audits = append(c.audits, compiledAudit{key: str(v, "key"), expr: compileWith(env, str(v, "valueExpression"), cel.StringType, cel.NullType)})
	}
	policyCache.store(key, c)
	return c
}

// decision is one denial: its message and status reason.
type decision struct {
	policy, binding string
	message, reason string
}

// Validate implements ValidationInterface, as the validating dispatcher does: each policy
// that matches, each of its bindings that matches, each param, each validation.
func (ValidatingAdmissionPolicy) Validate(ctx context.Context, a *Attributes) error {
	policies := a.list(policyGroup, "validatingadmissionpolicies", "")
	if len(policies) == 0 {
		return nil
	}
	bindings := a.list(policyGroup, "validatingadmissionpolicybindings", "")
	var denied []decision
	for _, p := range policies {
		spec := child(p.Object, "spec")
		if !matchResources(a, child(spec, "matchConstraints")) {
			continue
		}
		c := compilePolicy(p)
		for _, b := range bindings {
			bspec := child(b.Object, "spec")
			if str(bspec, "policyName") != p.GetName() || !matchResources(a, child(bspec, "matchResources")) {
				continue
			}
			deny := func(msg, reason string) {
				denied = append(denied, decision{policy: p.GetName(), binding: b.GetName(), message: msg, reason: reason})
			}
			params, err := collectParams(a, child(spec, "paramKind"), child(bspec, "paramRef"))
			if err != nil {
				if !c.failIgnore {
					deny("failed to configure binding: "+err.Error(), "")
				}
				continue
			}
			actions := strs(bspec, "validationActions")
			for _, param := range params {
				for _, d := range c.validate(ctx, a, param) {
					for _, act := range actions {
						switch act {
						case "Deny":
							deny(d.message, d.reason)
						case "Warn":
							rest.AddWarnings(ctx, fmt.Sprintf("Validation failed for ValidatingAdmissionPolicy '%s' with binding '%s': %s", p.GetName(), b.GetName(), d.message))
						}
					}
				}
			}
		}
	}
	if len(denied) == 0 {
		return nil
	}
	d := denied[0]
	msg := fmt.Sprintf("ValidatingAdmissionPolicy '%s' with binding '%s' denied request: %s", d.policy, d.binding, d.message)
	err := forbidden(a, errors.New(msg))
	var st *api.Status
	if errors.As(err, &st) {
		reason := orDefault(d.reason, "Invalid")
		st.Reason = api.StatusReason(reason)
		st.Code = reasonCode(reason)
		if st.Details != nil {
			st.Details.Causes = append(st.Details.Causes, api.StatusCause{Message: msg})
		}
	}
	return err
}

// reasonCode mirrors reasonToCode.
func reasonCode(reason string) int32 {
	switch reason {
	case "Forbidden":
		return 403
	case "Invalid":
		return 422
	case "RequestEntityTooLarge":
		return 413
	}
	return 500
}

// newActivation binds the request's values and the policy's variables.
func (c *compiledPolicy) newActivation(ctx context.Context, a *Attributes, param *api.Unstructured) *activation {
	act := &activation{budget: runtimeCostBudget, vals: map[string]cel.Value{
		varObject: objectValue(a.Object), varOldObject: objectValue(a.OldObject),
		varRequest: requestValue(ctx, a), varParams: objectValue(param), varNamespace: cel.Null,
		varAuthz: authorizerValue(ctx, a),
	}}
	if a.Operation == Delete {
		act.vals[varObject] = cel.Null
	}
	if a.Namespace != "" && a.Namespaces != nil && !(a.Resource.Group == "" && a.Resource.Resource == "namespaces") {
		act.vals[varNamespace] = namespaceValue(a.Namespaces(a.Namespace))
	}
	if len(c.varNames) > 0 {
		act.vars = &lazyVars{act: act, names: c.varNames, exprs: c.vars, done: map[string]cel.Value{}}
	}
	return act
}

// namespaceValue mirrors CreateNamespaceObject: the namespace's spec, status and the
// metadata it copies (not managed fields, owners or finalizers).
func namespaceValue(ns *api.Unstructured) cel.Value {
	if ns == nil {
		return cel.Null
	}
	out := map[string]any{}
	for _, k := range []string{"spec", "status"} {
		if v, ok := ns.Object[k]; ok {
			out[k] = v
		}
	}
	md := child(ns.Object, "metadata")
	meta := map[string]any{}
	for _, k := range namespaceMetaKeys {
		if v, ok := md[k]; ok {
			meta[k] = v
		}
	}
	out["metadata"] = meta
	return jsonMap(out)
}

var namespaceMetaKeys = []string{"name", "generateName", "namespace", "uid", "resourceVersion", "generation",
	"creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "labels", "annotations"}

// validate mirrors validator.Validate: the denials of one binding and param.
func (c *compiledPolicy) validate(ctx context.Context, a *Attributes, param *api.Unstructured) []decision {
	act := c.newActivation(ctx, a, param)
	fail := func(msg string) []decision {
		if c.failIgnore {
			return nil
		}
		return []decision{{message: msg}}
	}
	if len(c.conditions) > 0 {
		var errs []string
		for _, mc := range c.conditions {
			v, msg, _ := act.eval(mc)
			if msg != "" {
				errs = append(errs, msg)
				continue
			}
			if v == false {
				return nil
			}
		}
		if len(errs) == 1 {
			return fail(errs[0])
		} else if len(errs) > 1 {
			return fail("[" + strings.Join(errs, ", ") + "]")
		}
	}
	var out []decision
	for _, v := range c.validations {
		r, msg, outOfBudget := act.eval(v.expr)
		switch {
		case outOfBudget:
			return append(out, fail(msg)...)
		case msg != "":
			out = append(out, fail(msg)...)
		case r != true:
			out = append(out, decision{message: c.message(act, v), reason: orDefault(v.reason, "Invalid")})
		}
	}
	for _, au := range c.audits {
		// Audit annotations are not recorded here (no audit log); their errors still deny.
		r, msg, _ := act.eval(au.expr)
		if msg != "" {
			out = append(out, fail(msg)...)
		} else if _, ok := r.(string); !ok && r != cel.Null {
			out = append(out, fail(fmt.Sprintf("valueExpression '%s' resulted in unsupported return type: %s. Return type must be either string or null.", au.expr.src, cel.TypeOfValue(r)))...)
		}
	}
	return out
}

// message mirrors the validator's choice of message: the messageExpression's non-empty
// single-line string, else the message, else the failed expression.
func (c *compiledPolicy) message(act *activation, v compiledValidation) string {
	if v.hasMsgExpr {
		if r, msg, _ := act.eval(v.msgExpr); msg == "" {
			if s, ok := r.(string); ok {
				s = strings.TrimSpace(s)
				if s != "" && len(s) <= 5*1024 && !strings.Contains(s, "\n") {
					return s
				}
			}
		}
	}
	if m := strings.TrimSpace(v.message); m != "" {
		return m
	}
	return "failed expression: " + strings.TrimSpace(v.expr.src)
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}
