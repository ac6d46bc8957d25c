package deployment

import (
	"strconv"
	"strings"

	"github.com/informer-lab/informer-lab/api"
)

// maxRevHistoryLengthInChars mirrors the limit of the revision-history annotation.
const maxRevHistoryLengthInChars = 2000

// setNewReplicaSetAnnotations mirrors SetNewReplicaSetAnnotations: copy the Deployment's
// annotations to the new ReplicaSet, move its revision up to newRevision (remembering the
// old one in revision-history), and on creation set desired-replicas and max-replicas. It
// reports whether anything changed.
func setNewReplicaSetAnnotations(d *deployment, rs *api.Unstructured, newRevision string, exists bool) bool {
	changed := copyDeploymentAnnotationsToReplicaSet(d, rs)
	a := rs.GetAnnotations()
	if a == nil {
		a = map[string]string{}
	}
	oldRevision, had := a[RevisionAnnotation]
	oldInt, err := strconv.ParseInt(oldRevision, 10, 64)
	if err != nil {
		if oldRevision != "" {
			return false
		}
		oldInt = 0
	}
	newInt, err := strconv.ParseInt(newRevision, 10, 64)
	if err != nil {
		return false
	}
	if oldInt < newInt {
		a[RevisionAnnotation] = newRevision
		changed = true
	}
	if had && oldInt < newInt {
		history := a[RevisionHistoryAnnotation]
		olds := strings.Split(history, ",")
		if len(olds[0]) == 0 {
			a[RevisionHistoryAnnotation] = oldRevision
		} else {
			total := len(history) + len(oldRevision) + 1
			start := 0
			for total > maxRevHistoryLengthInChars && start < len(olds) {
				total -= len(olds[start]) + 1
				start++
			}
			if total <= maxRevHistoryLengthInChars {
				a[RevisionHistoryAnnotation] = strings.Join(append(olds[start:], oldRevision), ",")
			}
		}
	}
	rs.SetAnnotations(a)
	if !exists && setReplicasAnnotations(rs, d.replicas, d.replicas+d.MaxSurge()) {
		changed = true
	}
	return changed
}

// copyDeploymentAnnotationsToReplicaSet mirrors copyDeploymentAnnotationsToReplicaSet.
func copyDeploymentAnnotationsToReplicaSet(d *deployment, rs *api.Unstructured) bool {
	a := rs.GetAnnotations()
	if a == nil {
		a = map[string]string{}
	}
	changed := false
	for k, v := range d.u.GetAnnotations() {
		if cur, ok := a[k]; annotationsToSkip[k] || (ok && cur == v) {
			continue
		}
		a[k] = v
		changed = true
	}
	rs.SetAnnotations(a)
	return changed
}

// setReplicasAnnotations mirrors SetReplicasAnnotations: desired-replicas and max-replicas,
// which proportional scaling reads back.
func setReplicasAnnotations(rs *api.Unstructured, desired, maxReplicas int32) bool {
	a := rs.GetAnnotations()
	if a == nil {
		a = map[string]string{}
	}
	changed := false
	for k, v := range map[string]string{
		DesiredReplicasAnnotation: strconv.Itoa(int(desired)),
		MaxReplicasAnnotation:     strconv.Itoa(int(maxReplicas)),
	} {
		if a[k] != v {
			a[k] = v
			changed = true
		}
	}
	rs.SetAnnotations(a)
	return changed
}

// replicasAnnotationsNeedUpdate mirrors ReplicasAnnotationsNeedUpdate.
func replicasAnnotationsNeedUpdate(rs *api.Unstructured, desired, maxReplicas int32) bool {
	a := rs.GetAnnotations()
	return a[DesiredReplicasAnnotation] != strconv.Itoa(int(desired)) || a[MaxReplicasAnnotation] != strconv.Itoa(int(maxReplicas))
}

// setDeploymentAnnotationsTo mirrors SetDeploymentAnnotationsTo: on rollback the Deployment
// takes the ReplicaSet's annotations, keeping only its own skipped ones.
func setDeploymentAnnotationsTo(d *deployment, rs *api.Unstructured) {
	a := map[string]string{}
	for k, v := range d.u.GetAnnotations() {
		if annotationsToSkip[k] {
			a[k] = v
		}
	}
	for k, v := range rs.GetAnnotations() {
		if !annotationsToSkip[k] {
			a[k] = v
		}
	}
	d.u.SetAnnotations(a)
}
