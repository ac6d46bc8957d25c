package core

import (
	"path"
	"slices"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// Validate implements rest.Strategy: the access modes of ValidatePersistentVolumeSpec, then
// presence.
func (s persistentVolumeStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	spec := child(obj.Object, "spec")
	causes := append(validation.PVSpecCauses(spec, "spec"), pvSourceCauses(spec)...)
	causes = rest.RequiredCauses(s.GVK, obj, causes, "")
	// The GCE disk's causes name the Go field ("persistentDisk"), so the schema's own path
	// for the same missing pdName is not reported twice.
	if _, ok := spec["gcePersistentDisk"].(map[string]any); ok {
		causes = slices.DeleteFunc(causes, func(c api.StatusCause) bool { return c.Field == "spec.gcePersistentDisk.pdName" })
	}
	return causes
}

// pvSourceCauses mirrors the volume source checks of ValidatePersistentVolumeSpec for the
// GCE disk and NFS sources: a GCE disk's causes are under spec.persistentDisk, as the real
// validation names them, and an NFS path must be absolute.
func pvSourceCauses(spec map[string]any) []api.StatusCause {
	var causes []api.StatusCause
	if pd, ok := spec["gcePersistentDisk"].(map[string]any); ok {
		if name, _ := pd["pdName"].(string); name == "" {
			causes = append(causes, validation.Required("spec.persistentDisk.pdName", ""))
		}
	}
	if nfs, ok := spec["nfs"].(map[string]any); ok {
		if server, _ := nfs["server"].(string); server == "" {
			causes = append(causes, validation.Required("spec.nfs.server", ""))
		}
		p, _ := nfs["path"].(string)
		if p == "" {
			causes = append(causes, validation.Required("spec.nfs.path", ""))
		}
		if !path.IsAbs(p) {
			causes = append(causes, validation.Invalid("spec.nfs.path", p, "must be an absolute path"))
		}
	}
	return causes
}

// persistentVolumeClaimStrategy mirrors pkg/registry/core/persistentvolumeclaim/strategy.go.
type persistentVolumeClaimStrategy struct{ rest.Base }

// Validate implements rest.Strategy: the access modes of ValidatePersistentVolumeClaimSpec,
// then presence.
func (s persistentVolumeClaimStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	return rest.RequiredCauses(s.GVK, obj, validation.PVCSpecCauses(child(obj.Object, "spec"), "spec"), "")
}
