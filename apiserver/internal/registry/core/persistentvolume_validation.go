package core

import (
	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// Validate implements rest.Strategy: the access modes of ValidatePersistentVolumeSpec, then
// presence.
func (s persistentVolumeStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	return rest.RequiredCauses(s.GVK, obj, validation.PVSpecCauses(child(obj.Object, "spec"), "spec"), "")
}

// persistentVolumeClaimStrategy mirrors pkg/registry/core/persistentvolumeclaim/strategy.go.
type persistentVolumeClaimStrategy struct{ rest.Base }

// Validate implements rest.Strategy: the access modes of ValidatePersistentVolumeClaimSpec,
// then presence.
func (s persistentVolumeClaimStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	return rest.RequiredCauses(s.GVK, obj, validation.PVCSpecCauses(child(obj.Object, "spec"), "spec"), "")
}
