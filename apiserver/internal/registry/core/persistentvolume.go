package core

import (
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

// persistentVolumeStrategy mirrors pkg/registry/core/persistentvolume/strategy.go: a new
// volume is Pending since the time of its create, and its status subresource stamps every
// change of phase.
type persistentVolumeStrategy struct{ rest.Base }

// PrepareForCreate implements rest.Strategy: the body's status is replaced.
func (persistentVolumeStrategy) PrepareForCreate(ctx rest.Context, obj *api.Unstructured) {
	obj.Object["status"] = map[string]any{"phase": "Pending", "lastPhaseTransitionTime": timeText(ctx.Now)}
}

// PrepareForStatusUpdate implements rest.StatusPreparer: the same phase keeps the stored
// transition time when the body has none; a new phase is stamped now unless the body
// brings a time of its own.
func (persistentVolumeStrategy) PrepareForStatusUpdate(ctx rest.Context, obj, old *api.Unstructured) {
	status, oldStatus := child(obj.Object, "status"), child(old.Object, "status")
	if status == nil {
		status = map[string]any{}
		obj.Object["status"] = status
	}
	oldTime, hasOld := oldStatus["lastPhaseTransitionTime"]
	newTime, hasNew := status["lastPhaseTransitionTime"]
	hasNew = hasNew && newTime != nil
	switch samePhase := str(status, "phase") == str(oldStatus, "phase"); {
	case samePhase && !hasNew:
		if hasOld && oldTime != nil {
			status["lastPhaseTransitionTime"] = oldTime
		}
	case !samePhase && (!hasNew || newTime == oldTime):
		status["lastPhaseTransitionTime"] = timeText(ctx.Now)
	}
}

// Canonicalize implements rest.Strategy: the spec is always written out.
func (persistentVolumeStrategy) Canonicalize(obj *api.Unstructured) {
	rest.EnsureMember(obj.Object, map[string]any{}, "spec")
}

// WarningsOnCreate implements rest.Strategy: GetWarningsForPersistentVolume.
func (persistentVolumeStrategy) WarningsOnCreate(obj *api.Unstructured) []string {
	return pvWarnings(obj)
}

// WarningsOnUpdate implements rest.Strategy: the same warnings on every update.
func (persistentVolumeStrategy) WarningsOnUpdate(obj, _ *api.Unstructured) []string {
	return pvWarnings(obj)
}

// pvWarnings mirrors warningsForPersistentVolumeSpecAndMeta: deprecated annotations, the
// Recycle policy and the volume plugins that no longer work. (The deprecated node labels of
// a node affinity are not looked for.)
func pvWarnings(obj *api.Unstructured) []string {
	var warnings []string
	ann := obj.GetAnnotations()
	for _, d := range []struct{ key, msg string }{
		{"volume.beta.kubernetes.io/storage-class", `deprecated since v1.8; use "storageClassName" attribute instead`},
		{"volume.beta.kubernetes.io/mount-options", `deprecated since v1.31; use "mountOptions" attribute instead`},
	} {
		if _, ok := ann[d.key]; ok {
			warnings = append(warnings, "metadata.annotations["+d.key+"]: "+d.msg)
		}
	}
	spec := child(obj.Object, "spec")
	if str(spec, "persistentVolumeReclaimPolicy") == "Recycle" {
		warnings = append(warnings, "spec.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning.")
	}
	for _, p := range []struct{ field, msg string }{
		{"cephfs", "deprecated in v1.28, non-functional in v1.31+"},
		{"photonPersistentDisk", "deprecated in v1.11, non-functional in v1.16+"},
		{"scaleIO", "deprecated in v1.16, non-functional in v1.22+"},
		{"storageos", "deprecated in v1.22, non-functional in v1.25+"},
		{"glusterfs", "deprecated in v1.25, non-functional in v1.26+"},
		{"rbd", "deprecated in v1.28, non-functional in v1.31+"},
	} {
		if spec[p.field] != nil {
			path := p.field
			if path == "storageos" {
				path = "storageOS" // the warning names the Go field
			}
			warnings = append(warnings, "spec."+path+": "+p.msg)
		}
	}
	return warnings
}

// PersistentVolumes is the persistentvolumes resource (pkg/registry/core/persistentvolume).
// Its GetAttrs sets a "name" label, but core/v1 registers no field-label conversion for the
// kind, so only metadata.name may be selected on.
func PersistentVolumes() rest.Kind {
	return rest.Kind{Resource: "persistentvolumes", Kind: "PersistentVolume", ReturnDeletedObject: true, ShortNames: []string{"pv"},
		Strategy: persistentVolumeStrategy{rest.Base{GVK: gvk("PersistentVolume"), Cluster: true, Status: true, Unconditional: true}}}
}

// timeText formats t as metav1.Time travels.
func timeText(t api.Time) string { return t.UTC().Format(time.RFC3339) }
