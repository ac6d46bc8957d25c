package core

import (
	"reflect"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// podUpdateForbidden is the detail of ValidatePodUpdate's refusal. The real message goes on
// with a diff of the two internal pod specs, which is not reproduced.
const podUpdateForbidden = "pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)"

// ValidateUpdate implements rest.Strategy: ValidatePodUpdate's rule that only the images,
// the deadline, added tolerations and the grace period of a pod's spec change.
func (podStrategy) ValidateUpdate(obj, old *api.Unstructured) []api.StatusCause {
	spec, oldSpec := child(obj.Object, "spec"), child(old.Object, "spec")
	if spec == nil || oldSpec == nil {
		return nil
	}
	// The old spec with what may change taken from the new one must be the new one.
	merged := api.DeepCopyJSONValue(oldSpec).(map[string]any)
	for _, list := range []string{"containers", "initContainers"} {
		newCs, oldCs := asList(spec[list]), asList(merged[list])
		if len(newCs) != len(oldCs) {
			continue // a different count differs anyway
		}
		for i := range oldCs {
			om, nm := asMapOf(oldCs[i]), asMapOf(newCs[i])
			if om != nil && nm != nil {
				om["image"] = nm["image"]
			}
		}
	}
	for _, k := range []string{"activeDeadlineSeconds", "terminationGracePeriodSeconds"} {
		copyMember(merged, spec, k)
	}
	if tolerationsAdded(asList(oldSpec["tolerations"]), asList(spec["tolerations"])) {
		copyMember(merged, spec, "tolerations")
	}
	if reflect.DeepEqual(merged, spec) {
		return nil
	}
	return []api.StatusCause{validation.Forbidden("spec", podUpdateForbidden)}
}

func asMapOf(v any) map[string]any { m, _ := v.(map[string]any); return m }

// copyMember gives dst src's member k, or removes it when src has none.
func copyMember(dst, src map[string]any, k string) {
	if v, ok := src[k]; ok {
		dst[k] = v
	} else {
		delete(dst, k)
	}
}

// tolerationsAdded reports whether every old toleration is still among the new ones.
func tolerationsAdded(old, cur []any) bool {
	for _, o := range old {
		found := false
		for _, n := range cur {
			if reflect.DeepEqual(o, n) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
