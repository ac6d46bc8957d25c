package apiextensions

import (
	"sync/atomic"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/structural"
)

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
