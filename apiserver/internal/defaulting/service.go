package defaulting

// defaultClientIPTimeoutSeconds is the session affinity timeout, three hours.
const defaultClientIPTimeoutSeconds = int64(10800)

// defaultService mirrors SetObjectDefaults_Service in pkg/apis/core/v1. The IP family
// fields and the cluster IPs are the service REST storage's (registry/core's
// ServiceAllocators), which fills them on create and update, dry runs included.
func defaultService(obj map[string]any) {
	spec := ensure(obj, "spec")
	if spec == nil {
		return
	}
	setString(spec, "sessionAffinity", "None")
	switch str(spec, "sessionAffinity") {
	case "None":
		delete(spec, "sessionAffinityConfig")
	case "ClientIP":
		if path(spec, "sessionAffinityConfig", "clientIP")["timeoutSeconds"] == nil {
			spec["sessionAffinityConfig"] = map[string]any{
				"clientIP": map[string]any{"timeoutSeconds": defaultClientIPTimeoutSeconds},
			}
		}
	}
	setString(spec, "type", "ClusterIP")
	typ := str(spec, "type")
	each(spec, "ports", func(p map[string]any) {
		setString(p, "protocol", "TCP")
		if t, isString := p["targetPort"].(string); isZeroNumber(p["targetPort"]) || isString && t == "" {
			if p["port"] != nil {
				p["targetPort"] = p["port"]
			}
		}
	})
	external := typ == "LoadBalancer" || typ == "NodePort" || typ == "ClusterIP" && !isEmptyList(spec, "externalIPs")
	if external {
		setString(spec, "externalTrafficPolicy", "Cluster")
	}
	if typ == "ClusterIP" || typ == "NodePort" || typ == "LoadBalancer" {
		setPtr(spec, "internalTrafficPolicy", "Cluster")
	}
	if typ == "LoadBalancer" {
		setPtr(spec, "allocateLoadBalancerNodePorts", true)
		each(path(obj, "status", "loadBalancer"), "ingress", func(ing map[string]any) {
			if str(ing, "ip") != "" {
				setPtr(ing, "ipMode", "VIP")
			}
		})
	}
}
