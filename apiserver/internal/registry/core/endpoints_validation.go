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

// Validate implements rest.Strategy: the ports of each subset (validateEndpointPort), then
// presence.
func (s endpointsStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	var causes []api.StatusCause
	for i, sub := range asList(obj.Object["subsets"]) {
		ports := asList(asMapOf(sub)["ports"])
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
