package apiextensions

import (
	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

// Strategy mirrors the strategy of pkg/registry/customresourcedefinition in
// k8s.io/apiextensions-apiserver: generation kept, the status cleared on create (here: set
// to what its controllers write in the same write), the names, group and scope immutable.
type Strategy struct{ rest.Base }

// NewStrategy returns the CRD strategy.
func NewStrategy() Strategy {
	return Strategy{rest.Base{GVK: api.GroupVersionKind{Group: Group, Version: "v1", Kind: "CustomResourceDefinition"}, Cluster: true, Status: true, Generation: true, Unconditional: true}}
}

// PrepareForCreate implements rest.Strategy: NamesAccepted and Established, at once.
func (Strategy) PrepareForCreate(ctx rest.Context, obj *api.Unstructured) {
	obj.Object["status"] = Status(ReadSpec(obj), ctx.Now)
}

// Validate implements rest.Strategy.
func (s Strategy) Validate(obj *api.Unstructured) []api.StatusCause {
	return rest.RequiredCauses(s.GVK, obj, Causes(obj), "")
}

// ValidateUpdate implements rest.Strategy.
func (Strategy) ValidateUpdate(obj, old *api.Unstructured) []api.StatusCause {
	return UpdateCauses(obj, old)
}

// CustomResourceDefinitions is the customresourcedefinitions resource.
func CustomResourceDefinitions() rest.Kind {
	return rest.Kind{Group: Group, Resource: "customresourcedefinitions", Kind: "CustomResourceDefinition",
		ShortNames: []string{"crd", "crds"}, Categories: []string{"api-extensions"}, Strategy: NewStrategy(),
		// CRDs are still stored as v1beta1 (its storageVersionHash says so).
		Storage: api.GroupVersionKind{Group: Group, Version: "v1beta1", Kind: "CustomResourceDefinition"}}
}
