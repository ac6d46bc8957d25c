package apps

import (
	"reflect"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// ValidateUpdate implements rest.Strategy: the immutable selector of ValidateDeploymentUpdate,
// ValidateReplicaSetUpdate and the DaemonSet strategy, and ValidateStatefulSetUpdate's rule that
// only some spec members change.
func (s workloadStrategy) ValidateUpdate(obj, old *api.Unstructured) []api.StatusCause {
	spec, oldSpec := child(obj.Object, "spec"), child(old.Object, "spec")
	switch s.GVK.Kind {
	case "Deployment", "ReplicaSet", "DaemonSet":
		if !reflect.DeepEqual(spec["selector"], oldSpec["selector"]) {
			return []api.StatusCause{validation.Invalid("spec.selector", validation.LabelSelectorOf(spec["selector"]), "field is immutable")}
		}
	case "StatefulSet":
		if statefulSetFrozenChanged(spec, oldSpec) {
			return []api.StatusCause{validation.Forbidden("spec", "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden")}
		}
	}
	return nil
}

// statefulSetMutable are the StatefulSet spec members an update may change.
var statefulSetMutable = map[string]bool{
	"replicas": true, "template": true, "updateStrategy": true, "minReadySeconds": true,
	"ordinals": true, "revisionHistoryLimit": true, "persistentVolumeClaimRetentionPolicy": true,
}

// statefulSetFrozenChanged reports whether a member outside statefulSetMutable differs.
func statefulSetFrozenChanged(spec, old map[string]any) bool {
	for k, v := range spec {
		if !statefulSetMutable[k] && !reflect.DeepEqual(v, old[k]) {
			return true
		}
	}
	for k := range old {
		if _, ok := spec[k]; !ok && !statefulSetMutable[k] {
			return true
		}
	}
	return false
}

// NameIsDNSLabel implements rest.DNSLabelNamer: a StatefulSet's name is a DNS label
// (ValidateStatefulSetName), as its pods' hostnames derive from it.
func (s workloadStrategy) NameIsDNSLabel() bool { return s.GVK.Kind == "StatefulSet" }

func child(m map[string]any, k string) map[string]any {
	c, _ := m[k].(map[string]any)
	return c
}

// WarningsOnCreate implements rest.Strategy: the pod template's warnings
// (GetWarningsForPodTemplate), as the workload strategies give them.
func (workloadStrategy) WarningsOnCreate(obj *api.Unstructured) []string {
	return validation.PodSpecWarnings(obj.Object, "spec.template")
}

// WarningsOnUpdate implements rest.Strategy: the template's warnings when the update moves
// the generation (a DaemonSet's strategy checks its template generation, which moves with
// the template).
func (workloadStrategy) WarningsOnUpdate(obj, old *api.Unstructured) []string {
	if obj.GetGeneration() == old.GetGeneration() {
		return nil
	}
	return validation.PodSpecWarnings(obj.Object, "spec.template")
}

// StatusUpdateMetadata implements rest.StatusMetadata: deploymentStatusStrategy resets the
// spec and the labels, rsStatusStrategy only the spec, so the rest of the body's metadata
// is written (the real server keeps a status update's annotations and finalizers, and a
// ReplicaSet's labels).
func (s workloadStrategy) StatusUpdateMetadata() []string {
	switch s.GVK.Kind {
	case "Deployment":
		return []string{"annotations", "finalizers"}
	case "ReplicaSet":
		return []string{"labels", "annotations", "finalizers"}
	}
	return nil
}
