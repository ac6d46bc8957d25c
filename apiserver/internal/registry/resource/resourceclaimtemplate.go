package resource

import "github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"

// ResourceClaimTemplates is the resourceclaimtemplates resource
// (pkg/registry/resource/resourceclaimtemplate): its claim spec drops nothing in v1.36, as
// a claim's does not.
func ResourceClaimTemplates() rest.Kind {
	return rest.Kind{Group: "resource.k8s.io", Resource: "resourceclaimtemplates", Kind: "ResourceClaimTemplate", ReturnDeletedObject: true,
		Strategy: claimStrategy{rest.Base{GVK: gvk("ResourceClaimTemplate"), Unconditional: true}, "spec.spec"}}
}
