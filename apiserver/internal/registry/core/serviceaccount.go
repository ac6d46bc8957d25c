package core

import (
	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

// ServiceAccounts is the serviceaccounts resource (pkg/registry/core/serviceaccount).
func ServiceAccounts() rest.Kind {
	return rest.Kind{Resource: "serviceaccounts", Kind: "ServiceAccount", ShortNames: []string{"sa"}, ReturnDeletedObject: true,
		Subresources: []rest.Subresource{{Name: "token", Kind: api.GroupVersionKind{Group: "authentication.k8s.io", Version: "v1", Kind: "TokenRequest"}, Verbs: []string{"create"}}},
		Strategy:     rest.Base{GVK: gvk("ServiceAccount"), Unconditional: true}}
}
