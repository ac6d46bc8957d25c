package discovery

import (
	"reflect"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

// EndpointSlices is the endpointslices resource.
func EndpointSlices() rest.Kind {
	return rest.Kind{Group: "discovery.k8s.io", Resource: "endpointslices", Kind: "EndpointSlice",
		Strategy: rest.Base{GVK: api.GroupVersionKind{Group: "discovery.k8s.io", Version: "v1", Kind: "EndpointSlice"}, Generation: true, Unconditional: true,
			SpecChanged: func(old, obj *api.Unstructured) bool {
				return !reflect.DeepEqual(old.GetLabels(), obj.GetLabels()) || rest.SpecChanged(old, obj)
			}}}
}
