package core

import "github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"

// Endpoints is the endpoints resource (pkg/registry/core/endpoint).
func Endpoints() rest.Kind {
	return rest.Kind{Resource: "endpoints", Kind: "Endpoints", ShortNames: []string{"ep"},
		Deprecated: "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice",
		Strategy:   endpointsStrategy{rest.Base{GVK: gvk("Endpoints"), Unconditional: true}}}
}
