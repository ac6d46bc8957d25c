package core

import "github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"

// ResourceQuotas is the resourcequotas resource (pkg/registry/core/resourcequota): a create
// starts with an empty status, which only the status subresource (the quota controller)
// writes.
func ResourceQuotas() rest.Kind {
	return rest.Kind{Resource: "resourcequotas", Kind: "ResourceQuota", ShortNames: []string{"quota"},
		Strategy: rest.Base{GVK: gvk("ResourceQuota"), Status: true, Unconditional: true, ResetStatus: rest.EmptyStatus}}
}
