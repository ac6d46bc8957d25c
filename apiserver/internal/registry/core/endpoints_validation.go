package core

import (
	"fmt"
	"slices"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// endpointsStrategy mirrors pkg/registry/core/endpoint/strategy.go.
type endpointsStrategy struct{ rest.Base }

// Validate implements rest.Strategy: validateEndpointSubsets (each subset's addresses, its
// not-ready addresses, then its ports), then presence.
func (s endpointsStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	var causes []api.StatusCause
	for i, sub := range asList(obj.Object["subsets"]) {
		sm := asMapOf(sub)
		addrs, notReady := asList(sm["addresses"]), asList(sm["notReadyAddresses"])
		if len(addrs) == 0 && len(notReady) == 0 {
			causes = append(causes, validation.Required(fmt.Sprintf("subsets[%d]", i), "must specify `addresses` or `notReadyAddresses`"))
		}
		for j, a := range addrs {
			causes = append(causes, endpointAddressCauses(asMapOf(a), fmt.Sprintf("subsets[%d].addresses[%d]", i, j))...)
		}
		for j, a := range notReady {
			causes = append(causes, endpointAddressCauses(asMapOf(a), fmt.Sprintf("subsets[%d].notReadyAddresses[%d]", i, j))...)
		}
		ports := asList(sm["ports"])
		for j, p := range ports {
			pm := asMapOf(p)
			path := fmt.Sprintf("subsets[%d].ports[%d]", i, j)
			name := str(pm, "name")
			switch {
			case len(ports) > 1 && name == "":
				causes = append(causes, validation.Required(path+".name", ""))
			case name != "":
				for _, m := range validation.IsDNS1123Label(name) {
					causes = append(causes, validation.Invalid(path+".name", name, m))
				}
			}
			if port := intOf(pm["port"]); port < 1 || port > 65535 {
				causes = append(causes, validation.Invalid(path+".port", port, "must be between 1 and 65535, inclusive"))
			}
			if pr, ok := pm["protocol"].(string); ok && !slices.Contains([]string{"SCTP", "TCP", "UDP"}, pr) {
				causes = append(causes, validation.NotSupported(path+".protocol", pr, []string{"SCTP", "TCP", "UDP"}))
			}
		}
	}
	return rest.RequiredCauses(s.GVK, obj, causes, "")
}

// endpointAddressCauses mirrors validateEndpointAddress: the legacy strict IP check, the
// hostname and nodeName, then ValidateEndpointIP's sloppy parse and special ranges (an
// empty ip fails both IP checks, as on the reference).
func endpointAddressCauses(a map[string]any, path string) []api.StatusCause {
	ip := str(a, "ip")
	causes := legacyIPCauses(path+".ip", ip)
	if h := str(a, "hostname"); h != "" {
		for _, m := range validation.IsDNS1123Label(h) {
			causes = append(causes, validation.Invalid(path+".hostname", h, m))
		}
	}
	if n, ok := a["nodeName"].(string); ok {
		for _, m := range validation.IsDNS1123Subdomain(n) {
			causes = append(causes, validation.Invalid(path+".nodeName", n, m))
		}
	}
	addr, ok := validation.ParseIPSloppy(ip)
	if !ok {
		return append(causes, validation.Invalid(path+".ip", ip, "must be a valid IP address"))
	}
	switch {
	case addr.IsUnspecified():
		causes = append(causes, validation.Invalid(path+".ip", ip, fmt.Sprintf("may not be unspecified (%v)", ip)))
	case addr.IsLoopback():
		causes = append(causes, validation.Invalid(path+".ip", ip, "may not be in the loopback range (127.0.0.0/8, ::1/128)"))
	case addr.IsLinkLocalUnicast():
		causes = append(causes, validation.Invalid(path+".ip", ip, "may not be in the link-local range (169.254.0.0/16, fe80::/10)"))
	case addr.IsLinkLocalMulticast():
		causes = append(causes, validation.Invalid(path+".ip", ip, "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)"))
	}
	return causes
}
