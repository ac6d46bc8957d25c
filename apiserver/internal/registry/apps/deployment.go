package apps

import (
	"reflect"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

// Deployments is the deployments resource (pkg/registry/apps/deployment), whose strategy
// also moves the generation on a change of annotations.
func Deployments() rest.Kind {
	s := workload("Deployment", true, rest.EmptyStatus)
	s.SpecChanged = func(old, obj *api.Unstructured) bool {
		return !reflect.DeepEqual(old.GetAnnotations(), obj.GetAnnotations()) || rest.SpecChanged(old, obj)
	}
	return rest.Kind{Group: "apps", Resource: "deployments", Kind: "Deployment", ShortNames: []string{"deploy"}, Categories: []string{"all"}, Strategy: s}
}
