package core

import "github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"

// Bindings is the legacy bindings resource (LegacyBindingREST of
// pkg/registry/core/pod/storage): create only, binding the pod the body names; the
// endpoints layer's handler does what pods/binding does.
func Bindings() rest.Kind {
	return rest.Kind{Resource: "bindings", Kind: "Binding", Verbs: []string{"create"},
		Strategy: rest.Base{GVK: gvk("Binding")}}
}
