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

// PersistentVolumes is the persistentvolumes resource (pkg/registry/core/persistentvolume).
// Its GetAttrs sets a "name" label, but core/v1 registers no field-label conversion for the
// kind, so only metadata.name may be selected on.
func PersistentVolumes() rest.Kind {
	return rest.Kind{Resource: "persistentvolumes", Kind: "PersistentVolume", ShortNames: []string{"pv"},
		Strategy: persistentVolumeStrategy{rest.Base{GVK: gvk("PersistentVolume"), Cluster: true, Status: true, Unconditional: true}}}
}

// timeText formats t as metav1.Time travels.
func timeText(t api.Time) string { return t.UTC().Format(time.RFC3339) }
