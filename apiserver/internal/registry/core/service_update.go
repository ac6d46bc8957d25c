package core

import (
	"reflect"
	"slices"
)

// What an update of a Service keeps and drops of what the server set for it
// (patchAllocatedValues in pkg/registry/core/service/storage/storage.go and
// dropTypeDependentFields in pkg/registry/core/service/strategy.go).

// needsClusterIP: every type but ExternalName has cluster IPs.
func needsClusterIP(spec map[string]any) bool { return str(spec, "type") != "ExternalName" }

// patchAllocatedValues mirrors patchAllocatedValues: a body that leaves out what the
// server allocated (a re-applied manifest) keeps it: the cluster IPs, each port's node port
// (matched by port name, unless the body gives that number to another port) and the
// health check node port.
func patchAllocatedValues(spec, old map[string]any) {
	if needsClusterIP(old) && needsClusterIP(spec) {
		if str(spec, "clusterIP") == "" && old["clusterIP"] != nil {
			spec["clusterIP"] = old["clusterIP"]
		}
		if len(strs(spec, "clusterIPs")) == 0 && len(strs(old, "clusterIPs")) > 0 {
			setStrs(spec, "clusterIPs", strs(old, "clusterIPs"))
		}
	}
	if needsNodePort(old) && needsNodePort(spec) {
		newPorts := serviceNodePorts(spec)
		var used []int
		for _, p := range serviceNodePorts(old) {
			if slices.Contains(newPorts, p) {
				used = append(used, p)
			}
		}
		byName := map[string]int{}
		for _, p := range ports(old) {
			byName[str(p, "name")] = intOf(p["nodePort"])
		}
		for _, p := range ports(spec) {
			if intOf(p["nodePort"]) != 0 {
				continue
			}
			if v := byName[str(p, "name")]; !slices.Contains(used, v) {
				if v == 0 {
					delete(p, "nodePort")
				} else {
					p["nodePort"] = int64(v)
				}
			}
		}
	}
	if needsHealthCheck(old) && needsHealthCheck(spec) && intOf(spec["healthCheckNodePort"]) == 0 && old["healthCheckNodePort"] != nil {
		spec["healthCheckNodePort"] = old["healthCheckNodePort"]
	}
}

// dropTypeDependentFields mirrors dropTypeDependentFields: a change of type wipes what the
// new type does not use, where the server may have set it and the client left it as it
// was (a changed value is validation's to refuse).
func dropTypeDependentFields(spec, old map[string]any, status map[string]any) {
	same := func(k string) bool { return reflect.DeepEqual(spec[k], old[k]) }
	if needsClusterIP(old) && !needsClusterIP(spec) {
		if str(old, "clusterIP") == str(spec, "clusterIP") && slices.Equal(strs(old, "clusterIPs"), strs(spec, "clusterIPs")) {
			delete(spec, "clusterIP")
			delete(spec, "clusterIPs")
		}
		if slices.Equal(strs(old, "ipFamilies"), strs(spec, "ipFamilies")) {
			delete(spec, "ipFamilies")
		}
		if str(old, "ipFamilyPolicy") == str(spec, "ipFamilyPolicy") {
			delete(spec, "ipFamilyPolicy")
		}
	}
	hasNodePorts := func(m map[string]any) bool { t := str(m, "type"); return t == "NodePort" || t == "LoadBalancer" }
	if hasNodePorts(old) && !hasNodePorts(spec) && sameNodePorts(spec, old) {
		for _, p := range ports(spec) {
			delete(p, "nodePort")
		}
	}
	if needsHealthCheck(old) && !needsHealthCheck(spec) && intOf(spec["healthCheckNodePort"]) == intOf(old["healthCheckNodePort"]) {
		delete(spec, "healthCheckNodePort")
	}
	if str(old, "type") == "LoadBalancer" && str(spec, "type") != "LoadBalancer" {
		if a, ok := spec["allocateLoadBalancerNodePorts"].(bool); ok {
			if b, ok := old["allocateLoadBalancerNodePorts"].(bool); ok && a == b {
				delete(spec, "allocateLoadBalancerNodePorts")
			}
		}
	}
	if str(old, "type") == "LoadBalancer" && str(spec, "type") != "LoadBalancer" && same("loadBalancerClass") {
		delete(spec, "loadBalancerClass")
	}
	if externallyAccessible(old) && !externallyAccessible(spec) && same("externalTrafficPolicy") {
		delete(spec, "externalTrafficPolicy")
	}
	if str(spec, "type") != "LoadBalancer" && status != nil {
		status["loadBalancer"] = map[string]any{}
	}
}

// sameNodePorts mirrors the strategy's sameNodePorts: the update adds no node port the
// old service did not have (ports may be added, removed or changed otherwise).
func sameNodePorts(spec, old map[string]any) bool {
	had := serviceNodePorts(old)
	for _, p := range serviceNodePorts(spec) {
		if !slices.Contains(had, p) {
			return false
		}
	}
	return true
}

// externallyAccessible mirrors ExternallyAccessible: a LoadBalancer, a NodePort, or a
// ClusterIP service with external IPs.
func externallyAccessible(spec map[string]any) bool {
	switch str(spec, "type") {
	case "LoadBalancer", "NodePort":
		return true
	case "ClusterIP":
		list, _ := spec["externalIPs"].([]any)
		return len(list) > 0
	}
	return false
}
