package networking

import (
	"fmt"
	"slices"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// Validate implements rest.Strategy: ValidateNetworkPolicySpec's pod selector, the ports
// and peers' selectors of each ingress then egress rule, the policy types; then presence.
func (s networkPolicyStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	spec, _ := obj.Object["spec"].(map[string]any)
	sel, _ := spec["podSelector"].(map[string]any)
	causes := validation.LabelSelectorCauses(sel, "spec.podSelector")
	for _, dir := range []struct{ rules, peers string }{{"ingress", "from"}, {"egress", "to"}} {
		rules, _ := spec[dir.rules].([]any)
		for i, r := range rules {
			rm, _ := r.(map[string]any)
			rp := fmt.Sprintf("spec.%s[%d]", dir.rules, i)
			ports, _ := rm["ports"].([]any)
			for j, p := range ports {
				pm, _ := p.(map[string]any)
				causes = append(causes, networkPolicyPortCauses(pm, fmt.Sprintf("%s.ports[%d]", rp, j))...)
			}
			peers, _ := rm[dir.peers].([]any)
			for j, p := range peers {
				pm, _ := p.(map[string]any)
				pp := fmt.Sprintf("%s.%s[%d]", rp, dir.peers, j)
				for _, k := range []string{"podSelector", "namespaceSelector"} {
					if ps, ok := pm[k].(map[string]any); ok {
						causes = append(causes, validation.LabelSelectorCauses(ps, pp+"."+k)...)
					}
				}
			}
		}
	}
	types, _ := spec["policyTypes"].([]any)
	for i, t := range types {
		if s, _ := t.(string); s != "Ingress" && s != "Egress" {
			causes = append(causes, validation.NotSupported(fmt.Sprintf("spec.policyTypes[%d]", i), s, []string{"Ingress", "Egress"}))
		}
	}
	return rest.RequiredCauses(s.GVK, obj, causes, "")
}

// networkPolicyPortCauses mirrors ValidateNetworkPolicyPort.
func networkPolicyPortCauses(p map[string]any, path string) []api.StatusCause {
	var causes []api.StatusCause
	if pr, ok := p["protocol"].(string); ok && !slices.Contains([]string{"TCP", "UDP", "SCTP"}, pr) {
		causes = append(causes, validation.NotSupported(path+".protocol", pr, []string{"TCP", "UDP", "SCTP"}))
	}
	port, hasPort := p["port"]
	endPort, hasEnd := api.AsInt64(p["endPort"])
	switch {
	case !hasPort || port == nil:
		if hasEnd {
			causes = append(causes, validation.Invalid(path+".endPort", endPort, "may not be specified when `port` is not specified"))
		}
	case isString(port):
		if hasEnd {
			causes = append(causes, validation.Invalid(path+".endPort", endPort, "may not be specified when `port` is non-numeric"))
		}
		causes = append(causes, validation.PortNumOrNameCauses(port, path+".port")...)
	default:
		n, _ := api.AsInt64(port)
		causes = append(causes, validation.PortNumOrNameCauses(port, path+".port")...)
		if hasEnd {
			if endPort < n {
				causes = append(causes, validation.Invalid(path+".endPort", n, "must be greater than or equal to `port`"))
			}
			causes = append(causes, validation.PortNumOrNameCauses(endPort, path+".endPort")...)
		}
	}
	return causes
}

func isString(v any) bool { _, ok := v.(string); return ok }
