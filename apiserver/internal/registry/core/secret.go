package core

import "github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"

// Secrets is the secrets resource (pkg/registry/core/secret).
func Secrets() rest.Kind {
	return rest.Kind{Resource: "secrets", Kind: "Secret",
		Fields:   map[string]rest.FieldRead{"type": rest.TextField("type")},
		Strategy: secretStrategy{rest.Base{GVK: gvk("Secret"), Unconditional: true}}}
}
