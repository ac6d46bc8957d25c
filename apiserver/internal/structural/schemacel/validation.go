package schemacel

import (
	"fmt"
	"log/slog"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/cel"
	"github.com/informer-lab/informer-lab/apiserver/internal/structural"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// internalError mirrors field.InternalError.
func internalError(path, detail string) api.StatusCause {
	return api.StatusCause{Type: api.CauseTypeInternal, Field: path, Message: "Internal error: " + detail}
}

// invalidOmit mirrors field.Invalid with field.OmitValueType: no value in the message.
func invalidOmit(path, detail string) api.StatusCause {
	return api.StatusCause{Type: api.CauseTypeFieldValueInvalid, Field: path, Message: "Invalid value: " + detail}
}

// walk is one Validate call: the budget left and the causes found.
type walk struct {
	budget int64
	causes []api.StatusCause
	// trace is the evaluation trace (the object's key and rv), zero when not traced.
	trace cel.Trace
}

// Validate implements structural.RuleProgram, as Validator.Validate with ratcheting: obj
// is the object, old the stored one on an update (nil on a create).
func (p *Program) Validate(obj, old any) []api.StatusCause {
	w := &walk{budget: cel.RuntimeCELCostBudget}
	if p.log != nil && trace.Enabled(p.log) {
		w.trace = objectTrace(p.log, obj, old)
	}
	var r ratchet
	if old != nil {
		r.cur = structural.NewCorrelation(obj, old, p.root.schema)
	}
	w.validate(p.root, "", obj, old, r)
	return w.causes
}

// objectTrace names the custom object in the evaluation hops: its namespace/name key and
// the resourceVersion it replaces (none on a create).
func objectTrace(log *slog.Logger, obj, old any) cel.Trace {
	meta := func(o any) map[string]any {
		m, _ := o.(map[string]any)
		md, _ := m["metadata"].(map[string]any)
		return md
	}
	md := meta(obj)
	ns, _ := md["namespace"].(string)
	name, _ := md["name"].(string)
	rv, _ := meta(old)["resourceVersion"].(string)
	if ns != "" {
		name = ns + "/" + name
	}
	return cel.Trace{Logger: log, Key: name, RV: rv}
}

func child(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// ratchet mirrors ratchetingOptions: the correlation of the current value with its old
// value (nil where it does not correlate: items of set and atomic lists, new members) and
// the nearest correlated ancestor, whose equality then decides.
type ratchet struct{ cur, nearest *structural.Correlation }

// tolerate mirrors shouldRatchetError: a failure of a rule that does not use oldSelf is
// dropped when the value (or its nearest correlated ancestor) is unchanged.
func (r ratchet) tolerate() bool {
	if r.cur != nil {
		return r.cur.Equal()
	}
	return r.nearest.Equal()
}

func (r ratchet) key(k string) ratchet {
	if r.cur == nil {
		return r
	}
	if r.nearest == nil && (k == "apiVersion" || k == "kind") {
		return ratchet{} // both sides are converted to one version: never ratcheted
	}
	return ratchet{cur: r.cur.Key(k), nearest: r.cur}
}

func (r ratchet) index(i int) ratchet {
	if r.cur == nil {
		return r
	}
	return ratchet{cur: r.cur.Index(i), nearest: r.cur}
}

// validate runs n's rules on obj and recurses. old is the value oldSelf is bound to: the
// same member of the old object, or the old item with the same list-map keys; items of
// other lists have none, so transition rules do not run on them.
func (w *walk) validate(n *node, path string, obj, old any, r ratchet) bool {
	if n == nil || obj == nil {
		return true
	}
	if !w.expressions(n, path, obj, old, r) {
		return false
	}
	switch o := obj.(type) {
	case map[string]any:
		oldMap, _ := old.(map[string]any)
		if !mapCorrelatable(n.schema.MapType) {
			oldMap = nil
		}
		if w.trace.Enabled() {
			// By name, so that a trace reads the same every time.
			for _, k := range slices.Sorted(maps.Keys(o)) {
				if !w.member(n, path, k, o[k], oldMap, r) {
					return false
				}
			}
			return true
		}
		// In Go's random order, as the real validator ranges over its map.
		for k, v := range o {
			if !w.member(n, path, k, v, oldMap, r) {
				return false
			}
		}
	case []any:
		if n.items == nil {
			return true
		}
		oldList, _ := old.([]any)
		for i, v := range o {
			ov, _ := n.correlateItem(v, oldList)
			if !w.validate(n.items, fmt.Sprintf("%s[%d]", path, i), v, ov, r.index(i)) {
				return false
			}
		}
	}
	return true
}

// member validates the member k of an object at n, if a rule is at or below it.
func (w *walk) member(n *node, path, k string, v any, oldMap map[string]any, r ratchet) bool {
	var ch *node
	var p string
	if c, ok := n.props[k]; ok {
		ch, p = c, child(path, k)
	} else if n.addl != nil {
		ch, p = n.addl, path+"["+k+"]"
	}
	if ch == nil {
		return true
	}
	return w.validate(ch, p, v, oldMap[k], r.key(k))
}

// mapCorrelatable mirrors MapIsCorrelatable: granular and atomic maps (the default is
// granular) keep their old members for oldSelf.
func mapCorrelatable(t *string) bool {
	return t == nil || *t == "granular" || *t == "atomic"
}

// correlateItem finds the old item with the same list-map keys, as makeMapList does; items
// of other lists never correlate.
func (n *node) correlateItem(v any, old []any) (any, bool) {
	if len(n.listKeys) == 0 || old == nil {
		return nil, false
	}
	m, _ := v.(map[string]any)
	for _, o := range old {
		om, _ := o.(map[string]any)
		if om == nil || m == nil {
			continue
		}
		same := true
		for _, k := range n.listKeys {
			if !reflect.DeepEqual(m[k], om[k]) {
				same = false
				break
			}
		}
		if same {
			return o, true
		}
	}
	return nil, false
}

const outOfBudget = "validation failed due to running out of cost budget, no further validation rules will be run"

// expressions mirrors validateExpressions; false means no further rule may run.
func (w *walk) expressions(n *node, path string, obj, old any, r ratchet) bool {
	if len(n.rules) == 0 {
		return true
	}
	typ := n.schema.Type
	if w.budget <= 0 {
		w.causes = append(w.causes, validation.Invalid(path, typ, outOfBudget))
		w.budget = -1
		return false
	}
	var act, optAct cel.Activation
	tr := w.trace
	tr.Field = path
	for _, cr := range n.rules {
		if cr.err != "" {
			w.causes = append(w.causes, validation.Invalid(path, typ, "rule compile error: "+cr.err))
			continue
		}
		if cr.prog == nil {
			continue
		}
		opt := cr.rule.OptionalOldSelf != nil && *cr.rule.OptionalOldSelf
		if cr.usesOld && old == nil && !opt {
			if tr.Enabled() {
				tr.Hop("skip", slog.String("expr", cr.rule.Rule), slog.String("reason", "no oldSelf"))
			}
			continue
		}
		var a cel.Activation
		if opt && n.optEnv != nil {
			if optAct == nil {
				optAct = n.optEnv.ActivationTraced(obj, old, tr)
			}
			a = optAct
		} else {
			if act == nil {
				act = n.env.ActivationTraced(obj, old, tr)
			}
			a = act
		}
		v, cost, err := cr.prog.EvalTraced(a, cel.PerCallLimit, tr)
		if int64(cost) > w.budget {
			w.causes = append(w.causes, validation.Invalid(path, typ, outOfBudget))
			w.budget = -1
			return false
		}
		w.budget -= int64(cost)
		ruleStr := ruleErrorString(cr)
		if err != nil {
			switch msg := err.Error(); {
			case strings.HasPrefix(msg, "no such overload"):
				w.causes = append(w.causes, validation.Invalid(path, typ, fmt.Sprintf("'%v': call arguments did not match a supported operator, function or macro signature for rule: %v", msg, ruleStr)))
			case err == cel.ErrCostLimit:
				w.causes = append(w.causes, validation.Invalid(path, typ, fmt.Sprintf("'%v': no further validation rules will be run due to call cost exceeds limit for rule: %v", msg, ruleStr)))
				w.budget = -1
				return false
			default:
				w.causes = append(w.causes, validation.Invalid(path, typ, fmt.Sprintf("%v evaluating rule: %v", msg, ruleStr)))
			}
			continue
		}
		if b, ok := v.(bool); ok && b {
			continue
		}
		fp := path
		if cr.fieldPath != "" {
			fp = child(path, cr.fieldPath)
			if strings.HasPrefix(cr.fieldPath, "[") {
				fp = path + cr.fieldPath
			}
		}
		add := func(c api.StatusCause) {
			if !cr.usesOld && r.tolerate() {
				if tr.Enabled() {
					tr.Hop("ratchet", slog.String("expr", cr.rule.Rule), slog.String("warning", c.Field+": "+c.Message))
				}
				w.causes = append(w.causes, ratchetWarning(c))
				return
			}
			w.causes = append(w.causes, c)
		}
		detail, ok := "", false
		if cr.msg != nil {
			if act == nil {
				act = n.env.ActivationTraced(obj, old, tr)
			}
			d, stop, cause := w.message(cr, act, fp, typ, tr)
			if stop {
				add(cause)
				w.budget = -1
				return false
			}
			detail, ok = d, d != ""
		}
		if !ok {
			detail = "failed rule: " + ruleStr
			if cr.rule.Message != "" {
				detail = strings.TrimSpace(cr.rule.Message)
			}
		}
		add(causeForReason(fp, obj, typ, detail, cr.rule.Reason))
	}
	return true
}

// message mirrors evalMessageExpression: the message, or "" when it cannot be used (the
// rule's message is used instead), or a cause that stops validation.
func (w *walk) message(cr compiled, act cel.Activation, path, typ string, tr cel.Trace) (string, bool, api.StatusCause) {
	v, cost, err := cr.msg.EvalTraced(act, cel.PerCallLimit, tr)
	if int64(cost) > w.budget {
		return "", true, validation.Invalid(path, typ, "messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run")
	}
	if err == cel.ErrCostLimit {
		return "", true, validation.Invalid(path, typ, fmt.Sprintf("no further validation rules will be run due to call cost exceeds limit for messageExpression: %q", cr.rule.MessageExpression))
	}
	w.budget -= int64(cost)
	s, _ := v.(string)
	s = strings.TrimSpace(s)
	if err != nil || len(s) > 5*1024 || strings.Contains(s, "\n") {
		return "", false, api.StatusCause{}
	}
	return s, false, api.StatusCause{}
}

func ruleErrorString(cr compiled) string {
	if cr.rule.Message != "" {
		return strings.TrimSpace(cr.rule.Message)
	}
	return strings.TrimSpace(cr.rule.Rule)
}

// ratchetWarning turns a tolerated failure into the warning the real validator adds: the
// text of the field error it would have been.
func ratchetWarning(c api.StatusCause) api.StatusCause {
	return api.StatusCause{Type: structural.CauseTypeRatchetWarning, Field: c.Field, Message: c.Field + ": " + c.Message}
}

// causeForReason mirrors fieldErrorForReason; objects and arrays are not printed.
func causeForReason(path string, obj any, typ, detail string, reason *string) api.StatusCause {
	r := ""
	if reason != nil {
		r = *reason
	}
	switch r {
	case "FieldValueForbidden":
		return validation.Forbidden(path, detail)
	case "FieldValueRequired":
		return validation.Required(path, detail)
	case "FieldValueDuplicate":
		return api.StatusCause{Type: api.CauseTypeFieldValueDuplicate, Field: path, Message: "Duplicate value: " + badValue(obj, typ)}
	}
	if typ == "object" || typ == "array" {
		return invalidOmit(path, detail)
	}
	return validation.Invalid(path, obj, detail)
}

func badValue(obj any, typ string) string {
	if typ == "object" || typ == "array" {
		return ""
	}
	c := validation.Invalid("", obj, "")
	return strings.TrimPrefix(c.Message, "Invalid value: ")
}
