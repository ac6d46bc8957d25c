package apiextensions

import (
	"sync/atomic"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/structural"
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

// CustomResourceStrategy mirrors customResourceStrategy of k8s.io/apiextensions-apiserver
// pkg/registry/customresource: the status and scale subresources where the CRD declares
// them, generation kept, conditional updates only, objects checked against the served
// schema, which its CRD's updates swap.
type CustomResourceStrategy struct {
	rest.Base
	serving *atomic.Pointer[Serving]
}

// NewCustomResourceStrategy returns the strategy of a custom resource whose CRD's serving
// state is read from serving at each write.
func NewCustomResourceStrategy(namespaced, status, scale bool, serving *atomic.Pointer[Serving]) CustomResourceStrategy {
	return CustomResourceStrategy{rest.Base{Cluster: !namespaced, Status: status, Scale: scale, Generation: true}, serving}
}

// PrepareForCreate implements rest.Strategy: with a status subresource, only it writes a
// status.
func (s CustomResourceStrategy) PrepareForCreate(_ rest.Context, obj *api.Unstructured) {
	if s.Status {
		delete(obj.Object, "status")
	}
}

// Validate implements rest.Strategy: the served version's structural schema.
func (s CustomResourceStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	cs := s.serving.Load()
	if cs == nil {
		return nil
	}
	return structural.Validate(cs.Schema, obj.Object)
}

// CustomResourceDefinitions is the customresourcedefinitions resource.
func CustomResourceDefinitions() rest.Kind {
	return rest.Kind{Group: Group, Resource: "customresourcedefinitions", Kind: "CustomResourceDefinition",
		ShortNames: []string{"crd", "crds"}, Categories: []string{"api-extensions"}, Strategy: NewStrategy()}
}
