package flowcontrol

import (
	"fmt"
	"time"
)

// autoUpdateKey mirrors flowcontrol.AutoUpdateAnnotationKey: the configuration producer
// keeps the spec of an object so annotated in step with its built-in value.
const autoUpdateKey = "apf.kubernetes.io/autoupdate-spec"

// now stamps the bootstrap status; a variable so tests can fix it.
var now = func() time.Time { return time.Now().UTC().Truncate(time.Second) }

// BootstrapPriorityLevelConfigurations mirrors the suggested and then the mandatory
// PriorityLevelConfigurations of k8s.io/apiserver pkg/apis/flowcontrol/bootstrap, in the
// order the ensurer creates them, with the empty status the real server shows.
func BootstrapPriorityLevelConfigurations() []map[string]any {
	var out []map[string]any
	for _, pl := range priorityLevels() {
		out = append(out, map[string]any{
			"apiVersion": Group + "/v1", "kind": "PriorityLevelConfiguration",
			"metadata": map[string]any{"name": pl.name, "annotations": map[string]any{autoUpdateKey: "true"}},
			"spec":     pl.spec, "status": map[string]any{},
		})
	}
	return out
}

// BootstrapFlowSchemas mirrors the suggested and then the mandatory FlowSchemas of
// k8s.io/apiserver pkg/apis/flowcontrol/bootstrap, in the order the ensurer creates them,
// each with the Dangling condition (False, Found) that the configuration controller of a
// server with API priority and fairness writes through the status subresource.
func BootstrapFlowSchemas() []map[string]any {
	stamp := now().Format(time.RFC3339)
	var out []map[string]any
	for _, fs := range flowSchemas() {
		pl := str(child(fs.spec, "priorityLevelConfiguration"), "name")
		out = append(out, map[string]any{
			"apiVersion": Group + "/v1", "kind": "FlowSchema",
			"metadata": map[string]any{"name": fs.name, "annotations": map[string]any{autoUpdateKey: "true"}},
			"spec":     fs.spec,
			"status": map[string]any{"conditions": []any{map[string]any{
				"type": "Dangling", "status": "False", "lastTransitionTime": stamp, "reason": "Found",
				"message": fmt.Sprintf("This FlowSchema references the PriorityLevelConfiguration object named %q and it exists", pl),
			}}},
		})
	}
	return out
}

type named struct {
	name string
	spec map[string]any
}

// mandatoryFlowSchemaSpec is the fixed spec of the mandatory FlowSchema name, if it is
// one; built only then, since every FlowSchema's validation asks.
func mandatoryFlowSchemaSpec(name string) (map[string]any, bool) {
	switch name {
	case "exempt":
		return exemptFlowSchema().spec, true
	case "catch-all":
		return catchAllFlowSchema().spec, true
	}
	return nil, false
}

// mandatoryPriorityLevelSpec is mandatoryFlowSchemaSpec for the mandatory priority levels.
func mandatoryPriorityLevelSpec(name string) (map[string]any, bool) {
	switch name {
	case "exempt":
		return exemptPriorityLevel().spec, true
	case "catch-all":
		return catchAllPriorityLevel().spec, true
	}
	return nil, false
}

func priorityLevels() []named {
	queued := func(name string, shares, lendable, queues, hand int64) named {
		return named{name, map[string]any{"type": "Limited", "limited": map[string]any{
			"nominalConcurrencyShares": shares, "lendablePercent": lendable,
			"limitResponse": map[string]any{"type": "Queue", "queuing": map[string]any{
				"queues": queues, "handSize": hand, "queueLengthLimit": int64(50)}},
		}}}
	}
	return []named{
		queued("system", 30, 33, 64, 6),
		queued("node-high", 40, 25, 64, 6),
		queued("leader-election", 10, 0, 16, 4),
		queued("workload-high", 40, 50, 128, 6),
		queued("workload-low", 100, 90, 128, 6),
		queued("global-default", 20, 50, 128, 6),
		catchAllPriorityLevel(),
		exemptPriorityLevel(),
	}
}

func exemptPriorityLevel() named {
	return named{"exempt", map[string]any{"type": "Exempt", "exempt": map[string]any{
		"nominalConcurrencyShares": int64(0), "lendablePercent": int64(0)}}}
}

func catchAllPriorityLevel() named {
	return named{"catch-all", map[string]any{"type": "Limited", "limited": map[string]any{
		"nominalConcurrencyShares": int64(5), "lendablePercent": int64(0),
		"limitResponse": map[string]any{"type": "Reject"}}}}
}

// Rule builders, after the bootstrap package's helpers.

func groups(names ...string) []any {
	out := make([]any, len(names))
	for i, n := range names {
		out[i] = map[string]any{"kind": "Group", "group": map[string]any{"name": n}}
	}
	return out
}

func users(names ...string) []any {
	out := make([]any, len(names))
	for i, n := range names {
		out[i] = map[string]any{"kind": "User", "user": map[string]any{"name": n}}
	}
	return out
}

func kubeSystemServiceAccounts() []any {
	return []any{map[string]any{"kind": "ServiceAccount", "serviceAccount": map[string]any{"name": "*", "namespace": "kube-system"}}}
}

func texts(s ...string) []any {
	out := make([]any, len(s))
	for i, x := range s {
		out[i] = x
	}
	return out
}

func resourceRule(verbs, apiGroups, resources []any, clusterScope bool) map[string]any {
	r := map[string]any{"verbs": verbs, "apiGroups": apiGroups, "resources": resources, "namespaces": texts("*")}
	if clusterScope {
		r["clusterScope"] = true
	}
	return r
}

func everything() map[string]any { return resourceRule(texts("*"), texts("*"), texts("*"), true) }

func everyURL() map[string]any {
	return map[string]any{"verbs": texts("*"), "nonResourceURLs": texts("*")}
}

// flowSchema builds a FlowSchema spec; a distinguisher "" is none.
func flowSchema(name, pl string, precedence int64, distinguisher string, subjects []any, resourceRules []any, nonResourceRules []any) named {
	rule := map[string]any{"subjects": subjects}
	if len(resourceRules) > 0 {
		rule["resourceRules"] = resourceRules
	}
	if len(nonResourceRules) > 0 {
		rule["nonResourceRules"] = nonResourceRules
	}
	spec := map[string]any{"priorityLevelConfiguration": map[string]any{"name": pl}, "matchingPrecedence": precedence, "rules": []any{rule}}
	if distinguisher != "" {
		spec["distinguisherMethod"] = map[string]any{"type": distinguisher}
	}
	return named{name, spec}
}

func exemptFlowSchema() named {
	return flowSchema("exempt", "exempt", 1, "", groups("system:masters"), []any{everything()}, []any{everyURL()})
}

func catchAllFlowSchema() named {
	return flowSchema("catch-all", "catch-all", 10000, "ByUser", groups("system:unauthenticated", "system:authenticated"), []any{everything()}, []any{everyURL()})
}

func flowSchemas() []named {
	all := func(name, pl string, precedence int64, distinguisher string, subjects []any) named {
		return flowSchema(name, pl, precedence, distinguisher, subjects, []any{everything()}, []any{everyURL()})
	}
	leases := func(verbs []any) map[string]any {
		return resourceRule(verbs, texts("coordination.k8s.io"), texts("leases"), false)
	}
	return []named{
		all("system-nodes", "system", 500, "ByUser", groups("system:nodes")),
		flowSchema("system-node-high", "node-high", 400, "ByUser", groups("system:nodes"),
			[]any{resourceRule(texts("*"), texts(""), texts("nodes", "nodes/status"), true), leases(texts("*"))}, nil),
		flowSchema("probes", "exempt", 2, "", groups("system:unauthenticated", "system:authenticated"),
			nil, []any{map[string]any{"verbs": texts("get"), "nonResourceURLs": texts("/healthz", "/readyz", "/livez")}}),
		flowSchema("system-leader-election", "leader-election", 100, "ByUser",
			append(users("system:kube-controller-manager", "system:kube-scheduler"), kubeSystemServiceAccounts()...),
			[]any{leases(texts("get", "create", "update"))}, nil),
		all("kube-controller-manager", "workload-high", 800, "ByNamespace", users("system:kube-controller-manager")),
		all("kube-scheduler", "workload-high", 800, "ByNamespace", users("system:kube-scheduler")),
		all("kube-system-service-accounts", "workload-high", 900, "ByNamespace", kubeSystemServiceAccounts()),
		all("service-accounts", "workload-low", 9000, "ByUser", groups("system:serviceaccounts")),
		all("global-default", "global-default", 9900, "ByUser", groups("system:unauthenticated", "system:authenticated")),
		exemptFlowSchema(),
		catchAllFlowSchema(),
	}
}
