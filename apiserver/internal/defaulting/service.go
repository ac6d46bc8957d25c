package defaulting

import "github.com/informer-lab/informer-lab/apiserver/internal/validation"

// DefaultServiceIPFamily is the family of a single-stack cluster's service range: the
// kubeadm default 10.96.0.0/12 is IPv4.
const DefaultServiceIPFamily = "IPv4"

// defaultClientIPTimeoutSeconds is the session affinity timeout, three hours.
const defaultClientIPTimeoutSeconds = int64(10800)

// defaultService mirrors SetObjectDefaults_Service in pkg/apis/core/v1, then the create
// half of the service REST storage that fills the IP family fields (normalizeClusterIPs and
// initIPFamilyFields in pkg/registry/core/service/storage), which a client sees even on a
// dry run. Allocating the cluster IP is left to ClusterIPAllocator.
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
	if typ != "ExternalName" {
		defaultServiceIPFamilies(spec)
	}
}

// defaultServiceIPFamilies fills clusterIPs from clusterIP, ipFamilyPolicy and ipFamilies
// as a create on a single-stack cluster of DefaultServiceIPFamily does. A headless service
// without a selector asks for both families; any other service for one.
func defaultServiceIPFamilies(spec map[string]any) {
	ip := str(spec, "clusterIP")
	if ip != "" && isEmptyList(spec, "clusterIPs") {
		spec["clusterIPs"] = []any{ip}
	}
	headlessNoSelector := ip == "None" && isEmptyObject(spec, "selector")
	if headlessNoSelector {
		setPtr(spec, "ipFamilyPolicy", "RequireDualStack")
	} else {
		setPtr(spec, "ipFamilyPolicy", "SingleStack")
	}
	families, isList := spec["ipFamilies"].([]any)
	if !isList && spec["ipFamilies"] != nil {
		return
	}
	// A family the user did not name follows from the cluster IP given in its place.
	if ips, ok := spec["clusterIPs"].([]any); ok {
		for i, v := range ips {
			s, _ := v.(string)
			if s == "None" || s == "" {
				break
			}
			if i >= len(families) {
				if fam := validation.IPFamilyOf(s); fam != "" {
					families = append(families, fam)
				}
			}
		}
	}
	if len(families) == 0 {
		families = []any{DefaultServiceIPFamily}
	}
	if headlessNoSelector && len(families) == 1 && str(spec, "ipFamilyPolicy") != "SingleStack" {
		if families[0] == "IPv6" {
			families = append(families, "IPv4")
		} else {
			families = append(families, "IPv6")
		}
	}
	spec["ipFamilies"] = families
}
