package daemonset

import (
	"strconv"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
)

// nodeShouldRunDaemonPod mirrors NodeShouldRunDaemonPod: shouldRun when the daemon pod fits
// the node (its nodeName, nodeSelector and required node affinity, and every NoSchedule and
// NoExecute taint tolerated); shouldContinueRunning when a pod already there may stay (it
// fits, or only NoSchedule taints are untolerated).
func nodeShouldRunDaemonPod(node *api.Unstructured, d *daemonSet) (shouldRun, shouldContinueRunning bool) {
	spec, _ := d.Spec.Template["spec"].(map[string]any)
	if n := str(spec, "nodeName"); n != "" && n != node.GetName() {
		return false, false
	}
	if !matchesNodeSelector(spec, node) || !matchesRequiredAffinity(spec, node) {
		return false, false
	}
	cp := deepCopy(spec)
	if cp == nil {
		cp = map[string]any{}
	}
	addTolerations(cp)
	tolerations, _ := cp["tolerations"].([]any)
	taints, _ := app.Nested(node.Object, "spec", "taints")
	list, _ := taints.([]any)
	untolerated := func(effects ...string) bool {
		for _, t := range list {
			tm, _ := t.(map[string]any)
			eff := str(tm, "effect")
			relevant := false
			for _, e := range effects {
				relevant = relevant || e == eff
			}
			if relevant && !tolerated(tolerations, tm) {
				return true
			}
		}
		return false
	}
	if untolerated(taintEffectNoSchedule, taintEffectNoExecute) {
		return false, !untolerated(taintEffectNoExecute)
	}
	return true, true
}

// tolerated mirrors Toleration.ToleratesTaint over a pod's tolerations.
func tolerated(tolerations []any, taint map[string]any) bool {
	for _, x := range tolerations {
		t, _ := x.(map[string]any)
		if t == nil {
			continue
		}
		if e := str(t, "effect"); e != "" && e != str(taint, "effect") {
			continue
		}
		if k := str(t, "key"); k != "" && k != str(taint, "key") {
			continue
		}
		switch str(t, "operator") {
		case "", "Equal":
			if str(t, "value") == str(taint, "value") {
				return true
			}
		case tolerationOpExists:
			return true
		}
	}
	return false
}

// matchesNodeSelector mirrors the nodeSelector half of GetRequiredNodeAffinity: every
// label of spec.nodeSelector is on the node.
func matchesNodeSelector(spec map[string]any, node *api.Unstructured) bool {
	sel, _ := spec["nodeSelector"].(map[string]any)
	l := node.GetLabels()
	for k, v := range sel {
		if s, _ := v.(string); l[k] != s {
			return false
		}
	}
	return true
}

// matchesRequiredAffinity mirrors the node affinity half of GetRequiredNodeAffinity: one of
// the required terms matches (a term with nothing in it matches nothing).
func matchesRequiredAffinity(spec map[string]any, node *api.Unstructured) bool {
	v, ok := app.Nested(spec, "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution")
	if !ok || v == nil {
		return true
	}
	req, _ := v.(map[string]any)
	terms, _ := req["nodeSelectorTerms"].([]any)
	for _, t := range terms {
		tm, _ := t.(map[string]any)
		exprs, _ := tm["matchExpressions"].([]any)
		fields, _ := tm["matchFields"].([]any)
		if len(exprs)+len(fields) == 0 {
			continue
		}
		if requirementsMatch(exprs, node.GetLabels()) &&
			requirementsMatch(fields, map[string]string{objectNameField: node.GetName()}) {
			return true
		}
	}
	return false
}

// requirementsMatch mirrors NodeSelectorRequirementsAsSelector and Matches: every
// requirement holds for the values.
func requirementsMatch(reqs []any, values map[string]string) bool {
	for _, r := range reqs {
		m, _ := r.(map[string]any)
		key := str(m, "key")
		vals, _ := m["values"].([]any)
		val, has := values[key]
		in := false
		for _, x := range vals {
			if s, _ := x.(string); s == val {
				in = true
			}
		}
		switch str(m, "operator") {
		case "In":
			if !has || !in {
				return false
			}
		case "NotIn":
			if has && in {
				return false
			}
		case "Exists":
			if !has {
				return false
			}
		case "DoesNotExist":
			if has {
				return false
			}
		case "Gt", "Lt":
			if !has || len(vals) != 1 {
				return false
			}
			s0, _ := vals[0].(string)
			lim, err1 := strconv.ParseInt(s0, 10, 64)
			n, err2 := strconv.ParseInt(val, 10, 64)
			if err1 != nil || err2 != nil {
				return false
			}
			if (str(m, "operator") == "Gt" && !(n > lim)) || (str(m, "operator") == "Lt" && !(n < lim)) {
				return false
			}
		default:
			return false
		}
	}
	return true
}
