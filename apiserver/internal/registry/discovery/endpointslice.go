package discovery

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// EndpointSlices is the endpointslices resource.
func EndpointSlices() rest.Kind {
	return rest.Kind{Group: "discovery.k8s.io", Resource: "endpointslices", Kind: "EndpointSlice",
		Strategy: endpointSliceStrategy{rest.Base{GVK: api.GroupVersionKind{Group: "discovery.k8s.io", Version: "v1", Kind: "EndpointSlice"}, Generation: true, Unconditional: true,
			SpecChanged: func(old, obj *api.Unstructured) bool {
				return !reflect.DeepEqual(old.GetLabels(), obj.GetLabels()) || rest.SpecChanged(old, obj)
			}}}}
}

// endpointSliceStrategy mirrors pkg/registry/discovery/endpointslice/strategy.go.
type endpointSliceStrategy struct{ rest.Base }

// The sets ValidateEndpointSlice checks against, sorted as sets.List prints them.
var (
	addressTypes  = []string{"FQDN", "IPv4", "IPv6"}
	portProtocols = []string{"SCTP", "TCP", "UDP"}
)

// Validate implements rest.Strategy: ValidateEndpointSlice's order, the address type, the
// ports (name, duplicates, protocol), then each endpoint's addresses, then presence.
func (s endpointSliceStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	var causes []api.StatusCause
	if at, ok := obj.Object["addressType"].(string); ok && at != "" && !slices.Contains(addressTypes, at) {
		causes = append(causes, validation.NotSupported("addressType", at, addressTypes))
	}
	ports, _ := obj.Object["ports"].([]any)
	var names []string
	for i, p := range ports {
		pm, _ := p.(map[string]any)
		path := fmt.Sprintf("ports[%d]", i)
		name, _ := pm["name"].(string)
		if name != "" {
			for _, msg := range validation.IsDNS1123Label(name) {
				causes = append(causes, validation.Invalid(path+".name", name, msg))
			}
		}
		if slices.Contains(names, name) {
			causes = append(causes, validation.Duplicate(path+".name", name))
		} else {
			names = append(names, name)
		}
		if proto, ok := pm["protocol"].(string); ok && !slices.Contains(portProtocols, proto) {
			causes = append(causes, validation.NotSupported(path+".protocol", proto, portProtocols))
		}
	}
	eps, _ := obj.Object["endpoints"].([]any)
	for i, e := range eps {
		em, _ := e.(map[string]any)
		if addrs, _ := em["addresses"].([]any); len(addrs) == 0 {
			causes = append(causes, validation.Required(fmt.Sprintf("endpoints[%d].addresses", i), "must contain at least 1 address"))
		}
	}
	return rest.RequiredCauses(s.GVK, obj, causes, "")
}
