package core

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// serviceSpecCauses mirrors validateService (pkg/apis/core/validation) up to the node port
// rules (nodePortCauses): ports, the type's own rules, session affinity, the type itself;
// then the traffic policies.
func serviceSpecCauses(spec map[string]any) []api.StatusCause {
	var causes []api.StatusCause
	typ := str(spec, "type")
	headless := str(spec, "clusterIP") == "None"
	ps := ports(spec)
	if len(ps) == 0 && !headless && typ != "ExternalName" {
		causes = append(causes, validation.Required("spec.ports", ""))
	}
	switch typ {
	case "LoadBalancer", "NodePort":
		if headless {
			causes = append(causes, validation.Invalid("spec.clusterIPs[0]", "None", "may not be set to 'None' for "+typ+" services"))
		}
	case "ExternalName":
		if cname := strings.TrimSuffix(str(spec, "externalName"), "."); cname == "" {
			causes = append(causes, validation.Required("spec.externalName", ""))
		} else {
			for _, m := range validation.IsDNS1123Subdomain(cname) {
				causes = append(causes, validation.Invalid("spec.externalName", cname, m))
			}
		}
	}
	names := map[string]bool{}
	for i, p := range ps {
		path := fmt.Sprintf("spec.ports[%d]", i)
		name := str(p, "name")
		switch {
		case len(ps) > 1 && name == "":
			causes = append(causes, validation.Required(path+".name", ""))
		case name != "":
			for _, m := range validation.IsDNS1123Label(name) {
				causes = append(causes, validation.Invalid(path+".name", name, m))
			}
			if names[name] {
				causes = append(causes, validation.Duplicate(path+".name", name))
			}
			names[name] = true
		}
		if port := intOf(p["port"]); port < 1 || port > 65535 {
			causes = append(causes, validation.Invalid(path+".port", port, "must be between 1 and 65535, inclusive"))
		}
		if pr, ok := p["protocol"].(string); ok && !slices.Contains([]string{"SCTP", "TCP", "UDP"}, pr) {
			causes = append(causes, validation.NotSupported(path+".protocol", pr, []string{"SCTP", "TCP", "UDP"}))
		}
		causes = append(causes, validation.PortNumOrNameCauses(p["targetPort"], path+".targetPort")...)
	}
	if sa, ok := spec["sessionAffinity"].(string); ok && sa != "ClientIP" && sa != "None" {
		causes = append(causes, validation.NotSupported("spec.sessionAffinity", sa, []string{"ClientIP", "None"}))
	}
	if !slices.Contains([]string{"ClusterIP", "ExternalName", "LoadBalancer", "NodePort"}, typ) {
		causes = append(causes, validation.NotSupported("spec.type", typ, []string{"ClusterIP", "ExternalName", "LoadBalancer", "NodePort"}))
	}
	return causes
}

// serviceTrafficCauses mirrors validateServiceExternalTrafficPolicy and
// validateServiceInternalTrafficFieldsValue, which come after the node port rules.
func serviceTrafficCauses(spec map[string]any) []api.StatusCause {
	var causes []api.StatusCause
	if etp, ok := spec["externalTrafficPolicy"].(string); ok && etp != "" {
		switch {
		case !externallyAccessible(spec):
			causes = append(causes, validation.Invalid("spec.externalTrafficPolicy", etp, "may only be set for externally-accessible services"))
		case etp != "Cluster" && etp != "Local":
			causes = append(causes, validation.NotSupported("spec.externalTrafficPolicy", etp, []string{"Cluster", "Local"}))
		}
	}
	if itp, ok := spec["internalTrafficPolicy"].(string); ok && itp != "Cluster" && itp != "Local" {
		causes = append(causes, validation.NotSupported("spec.internalTrafficPolicy", itp, []string{"Cluster", "Local"}))
	}
	return causes
}

// ValidateUpdate implements rest.Strategy: ValidateServiceClusterIPsRelatedFields' rule that
// a set cluster IP does not change (unless the service becomes an ExternalName one).
func (serviceStrategy) ValidateUpdate(obj, old *api.Unstructured) []api.StatusCause {
	spec, oldSpec := child(obj.Object, "spec"), child(old.Object, "spec")
	if str(spec, "type") == "ExternalName" || str(oldSpec, "type") == "ExternalName" {
		return nil
	}
	oldIPs, newIPs := oldSpec["clusterIPs"], spec["clusterIPs"]
	if oldIPs == nil || reflect.DeepEqual(oldIPs, newIPs) {
		return nil
	}
	o, n := stringList(oldIPs), stringList(newIPs)
	if len(o) > 0 && (len(n) == 0 || o[0] != n[0]) {
		return []api.StatusCause{validation.Invalid("spec.clusterIPs[0]", n, "may not change once set")}
	}
	return nil
}

func stringList(v any) []string {
	var out []string
	for _, e := range asList(v) {
		s, _ := e.(string)
		out = append(out, s)
	}
	return out
}

func asList(v any) []any { l, _ := v.([]any); return l }

// NameIsDNSLabel implements rest.DNSLabelNamer: a Service's name is a DNS label.
func (serviceStrategy) NameIsDNSLabel() bool { return true }
