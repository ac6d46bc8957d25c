package scheduler

import (
	"slices"
	"strconv"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
)

// The filters' reasons, as upstream's plugins word them.
const (
	reasonUnschedulable = "node(s) were unschedulable"
	reasonTaint         = "node(s) had untolerated taint(s)"
	reasonAffinity      = "node(s) didn't match Pod's node affinity/selector"
	reasonCPU           = "Insufficient cpu"
	reasonMemory        = "Insufficient memory"
	reasonPods          = "Too many pods"
)

// taint and toleration are the JSON shapes of v1.Taint and v1.Toleration.
type taint struct {
	Key    string `json:"key"`
	Value  string `json:"value,omitempty"`
	Effect string `json:"effect"`
}

type toleration struct {
	Key               string `json:"key,omitempty"`
	Operator          string `json:"operator,omitempty"`
	Value             string `json:"value,omitempty"`
	Effect            string `json:"effect,omitempty"`
	TolerationSeconds *int64 `json:"tolerationSeconds,omitempty"`
}

// ToleratesTaint mirrors v1.Toleration.ToleratesTaint.
func (t toleration) tolerates(x taint) bool {
	if t.Effect != "" && t.Effect != x.Effect {
		return false
	}
	if t.Key != "" && t.Key != x.Key {
		return false
	}
	switch t.Operator {
	case "", "Equal":
		return t.Value == x.Value
	case "Exists":
		return true
	}
	return false
}

func tolerationsOf(pod *api.Unstructured) []toleration {
	var out []toleration
	for _, x := range list(app.NestedMap(pod.Object, "spec")["tolerations"]) {
		m, _ := x.(map[string]any)
		t := toleration{}
		t.Key, _ = m["key"].(string)
		t.Operator, _ = m["operator"].(string)
		t.Value, _ = m["value"].(string)
		t.Effect, _ = m["effect"].(string)
		out = append(out, t)
	}
	return out
}

func taintsOf(node *api.Unstructured) []taint {
	var out []taint
	for _, x := range list(app.NestedMap(node.Object, "spec")["taints"]) {
		m, _ := x.(map[string]any)
		t := taint{}
		t.Key, _ = m["key"].(string)
		t.Value, _ = m["value"].(string)
		t.Effect, _ = m["effect"].(string)
		out = append(out, t)
	}
	return out
}

func tolerated(ts []toleration, x taint) bool {
	return slices.ContainsFunc(ts, func(t toleration) bool { return t.tolerates(x) })
}

// filter runs the filters on one node; the reasons are empty when the pod fits. requested
// is what the pods on the node already request.
func filter(pod, node *api.Unstructured, requested resources) []string {
	tols := tolerationsOf(pod)
	if unsched, _ := app.Nested(node.Object, "spec", "unschedulable"); unsched == true &&
		!tolerated(tols, taint{Key: "node.kubernetes.io/unschedulable", Effect: "NoSchedule"}) {
		return []string{reasonUnschedulable}
	}
	for _, x := range taintsOf(node) {
		if (x.Effect == "NoSchedule" || x.Effect == "NoExecute") && !tolerated(tols, x) {
			return []string{reasonTaint}
		}
	}
	if !matchesNodeAffinity(pod, node) {
		return []string{reasonAffinity}
	}
	return fits(podRequests(pod, false), allocatable(node), requested)
}

// fits mirrors noderesources.Fits for cpu, memory and pods.
func fits(req, alloc, used resources) []string {
	var out []string
	if used.pods+1 > alloc.pods {
		out = append(out, reasonPods)
	}
	if req.milliCPU > 0 && used.milliCPU+req.milliCPU > alloc.milliCPU {
		out = append(out, reasonCPU)
	}
	if req.memory > 0 && used.memory+req.memory > alloc.memory {
		out = append(out, reasonMemory)
	}
	return out
}

// matchesNodeAffinity mirrors nodeaffinity's RequiredNodeAffinity.Match: the nodeSelector's
// labels, and one of the required terms.
func matchesNodeAffinity(pod, node *api.Unstructured) bool {
	labels := node.GetLabels()
	for k, v := range app.NestedMap(pod.Object, "spec", "nodeSelector") {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	req := app.NestedMap(pod.Object, "spec", "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution")
	if req == nil {
		return true
	}
	fields := map[string]string{"metadata.name": node.GetName()}
	for _, x := range list(req["nodeSelectorTerms"]) {
		term, _ := x.(map[string]any)
		exprs, flds := list(term["matchExpressions"]), list(term["matchFields"])
		if len(exprs)+len(flds) == 0 {
			continue // an empty term matches no node
		}
		if matchAll(exprs, labels) && matchAll(flds, fields) {
			return true
		}
	}
	return false
}

// matchAll mirrors nodeSelectorRequirementsAsSelector's Matches over one term.
func matchAll(reqs []any, set map[string]string) bool {
	for _, x := range reqs {
		r, _ := x.(map[string]any)
		key, _ := r["key"].(string)
		op, _ := r["operator"].(string)
		var values []string
		for _, v := range list(r["values"]) {
			s, _ := v.(string)
			values = append(values, s)
		}
		if !matchRequirement(op, set, key, values) {
			return false
		}
	}
	return true
}

func matchRequirement(op string, set map[string]string, key string, values []string) bool {
	v, has := set[key]
	switch op {
	case "In":
		return has && slices.Contains(values, v)
	case "NotIn":
		return !has || !slices.Contains(values, v)
	case "Exists":
		return has
	case "DoesNotExist":
		return !has
	case "Gt", "Lt":
		if !has || len(values) != 1 {
			return false
		}
		a, err1 := strconv.ParseInt(v, 10, 64)
		b, err2 := strconv.ParseInt(values[0], 10, 64)
		if err1 != nil || err2 != nil {
			return false
		}
		if op == "Gt" {
			return a > b
		}
		return a < b
	}
	return false
}

// score mirrors LeastAllocated over cpu and memory with equal weights (0–100).
func score(req, alloc, used resources) int64 {
	part := func(r, c int64) int64 {
		if c == 0 || r > c {
			return 0
		}
		return (c - r) * 100 / c
	}
	return (part(used.milliCPU+req.milliCPU, alloc.milliCPU) + part(used.memory+req.memory, alloc.memory)) / 2
}
