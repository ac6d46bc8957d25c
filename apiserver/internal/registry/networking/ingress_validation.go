package networking

import (
	"fmt"
	"slices"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

var pathTypes = []string{"Exact", "ImplementationSpecific", "Prefix"}

// Validate implements rest.Strategy: validateHTTPIngressRuleValue's path type, backend kind
// and service port number of each path, then presence.
func (s ingressStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	spec, _ := obj.Object["spec"].(map[string]any)
	var causes []api.StatusCause
	rules, _ := spec["rules"].([]any)
	for i, r := range rules {
		rm, _ := r.(map[string]any)
		http, _ := rm["http"].(map[string]any)
		paths, _ := http["paths"].([]any)
		for j, p := range paths {
			pm, _ := p.(map[string]any)
			pp := fmt.Sprintf("spec.rules[%d].http.paths[%d]", i, j)
			switch pt, ok := pm["pathType"].(string); {
			case !ok || pt == "":
				causes = append(causes, validation.Required(pp+".pathType", "pathType must be specified"))
			case !slices.Contains(pathTypes, pt):
				causes = append(causes, validation.NotSupported(pp+".pathType", pt, pathTypes))
			}
			backend, _ := pm["backend"].(map[string]any)
			svc, hasSvc := backend["service"].(map[string]any)
			if _, hasRes := backend["resource"].(map[string]any); !hasSvc && !hasRes {
				causes = append(causes, validation.Invalid(pp+".backend", "", "resource or service backend is required"))
			}
			port, _ := svc["port"].(map[string]any)
			if n, ok := api.AsInt64(port["number"]); ok && n != 0 && (n < 1 || n > 65535) {
				causes = append(causes, validation.Invalid(pp+".backend.service.port.number", n, "must be between 1 and 65535, inclusive"))
			}
		}
	}
	return rest.RequiredCauses(s.GVK, obj, causes, "")
}
