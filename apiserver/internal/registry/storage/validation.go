package storage

import (
	"fmt"
	"regexp"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// The checks of pkg/apis/storage/validation for the kinds whose Go types hold members the
// OpenAPI schema calls required as plain values: a missing one is the zero value there,
// which the real validation judges by its own rules (an empty node name is an invalid DNS
// subdomain, an empty audience is allowed), so the schema's presence causes for those
// members are left out.

// Validate implements rest.Strategy: validateTokenRequests (an empty audience is allowed,
// a duplicate is not), then presence.
func (s csiDriverStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	var causes []api.StatusCause
	audiences := map[string]bool{}
	reqs, _ := spec(obj)["tokenRequests"].([]any)
	for i, r := range reqs {
		rm, _ := r.(map[string]any)
		path := fmt.Sprintf("spec.tokenRequests[%d]", i)
		aud, _ := rm["audience"].(string)
		if audiences[aud] {
			causes = append(causes, validation.Duplicate(path+".audience", aud))
			continue
		}
		audiences[aud] = true
		exp, ok := api.AsInt64(rm["expirationSeconds"])
		if !ok {
			continue
		}
		if exp < 600 {
			causes = append(causes, validation.Invalid(path+".expirationSeconds", exp, "may not specify a duration less than 10 minutes"))
		}
		if exp > 1<<32 {
			causes = append(causes, validation.Invalid(path+".expirationSeconds", exp, "may not specify a duration larger than 2^32 seconds"))
		}
	}
	return rest.RequiredCausesExcept(s.GVK, obj, causes, regexp.MustCompile(`^spec\.tokenRequests\[\d+\]\.audience$`))
}

// csiNodeStrategy mirrors pkg/registry/storage/csinode/strategy.go.
type csiNodeStrategy struct{ rest.Base }

// Validate implements rest.Strategy: validateCSINodeDrivers, each driver's name, node ID
// and allocatable count; a CSINode without spec or drivers is valid.
func (s csiNodeStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	var causes []api.StatusCause
	names := map[string]bool{}
	drivers, _ := spec(obj)["drivers"].([]any)
	for i, d := range drivers {
		dm, _ := d.(map[string]any)
		path := fmt.Sprintf("spec.drivers[%d]", i)
		name, _ := dm["name"].(string)
		causes = append(causes, validation.CSIDriverNameCauses(name, path+".name")...)
		id, _ := dm["nodeID"].(string)
		if id == "" {
			causes = append(causes, validation.Required(path+".nodeID", ""))
		}
		if len(id) > 192 {
			causes = append(causes, validation.Invalid(path+".nodeID", id, "must be 192 characters or less"))
		}
		alloc, _ := dm["allocatable"].(map[string]any)
		causes = append(causes, validation.NonNegative(alloc, "count", path+".allocatable.count")...)
		if names[name] {
			causes = append(causes, validation.Duplicate(path+".name", name))
		}
		names[name] = true
	}
	return rest.RequiredCausesExcept(s.GVK, obj, causes, regexp.MustCompile(`^spec(\.drivers)?$`))
}

// volumeAttachmentStrategy mirrors pkg/registry/storage/volumeattachment/strategy.go.
type volumeAttachmentStrategy struct{ rest.Base }

// Validate implements rest.Strategy: validateVolumeAttachmentSpec's attacher, source and
// node name, then the persistent volume's name (a DNS subdomain).
func (s volumeAttachmentStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	sp := spec(obj)
	attacher, _ := sp["attacher"].(string)
	causes := validation.CSIDriverNameCauses(attacher, "spec.attacher")
	src, _ := sp["source"].(map[string]any)
	pvName, hasPV := src["persistentVolumeName"].(string)
	_, hasInline := src["inlineVolumeSpec"].(map[string]any)
	const exactlyOne = "must specify exactly one of inlineVolumeSpec and persistentVolumeName"
	switch {
	case !hasPV && !hasInline:
		causes = append(causes, validation.Required("spec.source", exactlyOne))
	case hasPV && hasInline:
		causes = append(causes, validation.Forbidden("spec.source", exactlyOne))
	case hasPV && pvName == "":
		causes = append(causes, validation.Required("spec.source.persistentVolumeName", "must specify non empty persistentVolumeName"))
	}
	nodeName, _ := sp["nodeName"].(string)
	for _, msg := range validation.IsDNS1123Subdomain(nodeName) {
		causes = append(causes, validation.Invalid("spec.nodeName", nodeName, msg))
	}
	if hasPV {
		for _, msg := range validation.IsDNS1123Subdomain(pvName) {
			causes = append(causes, validation.Invalid("spec.source.persistentVolumeName", pvName, msg))
		}
	}
	return rest.RequiredCausesExcept(s.GVK, obj, causes, regexp.MustCompile(`^spec$`))
}

// Validate implements rest.Strategy: ValidateCSIStorageCapacity's node topology and
// storage class name (an empty one is an invalid DNS subdomain), then presence.
func (s capacityStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	var causes []api.StatusCause
	if sel, ok := obj.Object["nodeTopology"].(map[string]any); ok {
		causes = append(causes, validation.LabelSelectorCauses(sel, "nodeTopology")...)
	}
	class, _ := obj.Object["storageClassName"].(string)
	for _, msg := range validation.IsDNS1123Subdomain(class) {
		causes = append(causes, validation.Invalid("storageClassName", class, msg))
	}
	return rest.RequiredCausesExcept(s.GVK, obj, causes, regexp.MustCompile(`^$`))
}

// Canonicalize implements rest.Strategy: a token request's audience is always written out,
// empty when unset.
func (csiDriverStrategy) Canonicalize(obj *api.Unstructured) {
	reqs, _ := spec(obj)["tokenRequests"].([]any)
	for _, r := range reqs {
		if rm, ok := r.(map[string]any); ok {
			rest.EnsureMember(rm, "", "audience")
		}
	}
}
