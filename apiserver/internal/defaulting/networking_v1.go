package defaulting

// defaultNetworkPolicy mirrors SetObjectDefaults_NetworkPolicy of pkg/apis/networking/v1:
// policyTypes from the rules present (SetDefaults_NetworkPolicy) and TCP for every port
// (SetDefaults_NetworkPolicyPort). spec.podSelector is a struct without omitempty, so a
// typed server always writes it out.
func defaultNetworkPolicy(obj map[string]any) {
	spec := ensure(obj, "spec")
	if spec == nil {
		return
	}
	setPtr(spec, "podSelector", map[string]any{})
	if isEmptyList(spec, "policyTypes") {
		types := []any{"Ingress"}
		if !isEmptyList(spec, "egress") {
			types = append(types, "Egress")
		}
		spec["policyTypes"] = types
	}
	for _, dir := range []string{"ingress", "egress"} {
		each(spec, dir, func(rule map[string]any) {
			each(rule, "ports", func(p map[string]any) { setPtr(p, "protocol", "TCP") })
		})
	}
}

// defaultIngressClass mirrors SetDefaults_IngressClass: parameters without a scope are
// cluster-scoped.
func defaultIngressClass(obj map[string]any) {
	if params := path(obj, "spec", "parameters"); params != nil {
		setPtr(params, "scope", "Cluster")
	}
}

// defaultIngress writes out what a typed server always writes: status.loadBalancer, a
// struct, even when empty. Ingress has no defaulting function.
func defaultIngress(obj map[string]any) {
	if status := ensure(obj, "status"); status != nil {
		setPtr(status, "loadBalancer", map[string]any{})
	}
}
