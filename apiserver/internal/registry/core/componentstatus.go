package core

import "github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"

// ComponentStatuses is the componentstatuses resource (pkg/registry/core/componentstatus):
// no storage, only get and list, each answered by probing the control plane's components
// (the endpoints layer's handler).
func ComponentStatuses() rest.Kind {
	return rest.Kind{Resource: "componentstatuses", Kind: "ComponentStatus", ShortNames: []string{"cs"},
		Verbs:      []string{"get", "list"},
		Deprecated: "v1 ComponentStatus is deprecated in v1.19+",
		Strategy:   rest.Base{Cluster: true}}
}
