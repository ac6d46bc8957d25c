package deployment

import (
	"context"
	"fmt"
	"log/slog"
	"reflect"
	"strconv"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// syncStatusOnly mirrors syncStatusOnly: a Deployment being deleted only reports status.
func (c *Controller) syncStatusOnly(ctx context.Context, d *deployment, rsList []*api.Unstructured) error {
	newRS, oldRSs, err := c.getAllReplicaSetsAndSyncRevision(ctx, d, rsList, false)
	if err != nil {
		return err
	}
	return c.syncDeploymentStatus(ctx, append(oldRSs, newRS), newRS, d)
}

// sync mirrors sync: scale (a paused Deployment or a scaling event), clean up old
// ReplicaSets while paused, and report status.
func (c *Controller) sync(ctx context.Context, d *deployment, rsList []*api.Unstructured) error {
	newRS, oldRSs, err := c.getAllReplicaSetsAndSyncRevision(ctx, d, rsList, false)
	if err != nil {
		return err
	}
	if err := c.scale(ctx, d, newRS, oldRSs); err != nil {
		return err // a failed scale retries the whole sync
	}
	if d.paused && getRollbackTo(d) == nil {
		if err := c.cleanupDeployment(ctx, oldRSs, d); err != nil {
			return err
		}
	}
	return c.syncDeploymentStatus(ctx, append(oldRSs, newRS), newRS, d)
}

// checkPausedConditions mirrors checkPausedConditions: Progressing becomes Unknown with
// DeploymentPaused or DeploymentResumed when spec.paused flips (not after a timeout).
func (c *Controller) checkPausedConditions(ctx context.Context, d *deployment) error {
	if !d.hasProgressDeadline() {
		return nil
	}
	cond := getCondition(d.status, Progressing)
	if cond != nil && cond.Reason == TimedOutReason {
		return nil // a timed-out rollout stays so until a new one
	}
	pausedExists := cond != nil && cond.Reason == PausedDeployReason
	st := d.status
	switch {
	case d.paused && !pausedExists:
		setCondition(&st, newCondition(Progressing, "Unknown", PausedDeployReason, "Deployment is paused", c.now()))
	case !d.paused && pausedExists:
		setCondition(&st, newCondition(Progressing, "Unknown", ResumedDeployReason, "Deployment is resumed", c.now()))
	default:
		return nil
	}
	d.setStatus(st)
	return c.updateStatus(ctx, d, "paused changed")
}

// getAllReplicaSetsAndSyncRevision mirrors getAllReplicaSetsAndSyncRevision: the new
// ReplicaSet (created if asked and missing) and every old one.
func (c *Controller) getAllReplicaSetsAndSyncRevision(ctx context.Context, d *deployment, rsList []*api.Unstructured, create bool) (*api.Unstructured, []*api.Unstructured, error) {
	oldRSs := FindOldReplicaSets(d.template(), rsList)
	newRS, err := c.getNewReplicaSet(ctx, d, rsList, oldRSs, create)
	if err != nil {
		return nil, nil, err
	}
	return newRS, oldRSs, nil
}

// getNewReplicaSet mirrors getNewReplicaSet: find the ReplicaSet of the current template
// and bring its revision and annotations up to date, or create it named
// "<deployment>-<hash>", sized as the strategy allows.
func (c *Controller) getNewReplicaSet(ctx context.Context, d *deployment, rsList, oldRSs []*api.Unstructured, create bool) (*api.Unstructured, error) {
	existing := FindNewReplicaSet(d.template(), rsList)
	newRevision := strconv.FormatInt(MaxRevision(oldRSs)+1, 10)
	rsc := c.cc.Client.Resource(app.ReplicaSets).Namespace(d.u.GetNamespace())
	if existing != nil {
		rs := existing.DeepCopy()
		annotationsUpdated := setNewReplicaSetAnnotations(d, rs, newRevision, true)
		mrs, _ := app.NestedInt64(rs.Object, "spec", "minReadySeconds")
		if annotationsUpdated || int32(mrs) != d.minReadySeconds {
			app.NestedMap(rs.Object, "spec")["minReadySeconds"] = int64(d.minReadySeconds)
			out, err := rsc.Update(ctx, rs, api.UpdateOptions{})
			if trace.Enabled(c.cc.Logger) { // the cause is built only when traced
				trace.Hop(c.cc.Logger, "deployment", "update", keyOf(rs), rs.GetResourceVersion(), slog.String("cause", "new replica set revision "+rs.GetAnnotations()[RevisionAnnotation]), slog.Any("err", err))
			}
			return out, err
		}
		needsUpdate := d.setAnnotation(RevisionAnnotation, rs.GetAnnotations()[RevisionAnnotation])
		if d.hasProgressDeadline() && getCondition(d.status, Progressing) == nil {
			st := d.status
			setCondition(&st, newCondition(Progressing, "True", FoundNewRSReason, fmt.Sprintf("Found new replica set %q", rs.GetName()), c.now()))
			d.setStatus(st)
			needsUpdate = true
		}
		if needsUpdate {
			if err := c.updateStatus(ctx, d, "found new replica set"); err != nil {
				return nil, err
			}
		}
		return rs, nil
	}
	if !create {
		return nil, nil
	}
	hash := ComputeHash(d.template(), d.status.CollisionCount)
	tmpl := deepCopy(d.template())
	md, _ := tmpl["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
		tmpl["metadata"] = md
	}
	lbl, _ := md["labels"].(map[string]any)
	if lbl == nil {
		lbl = map[string]any{}
		md["labels"] = lbl
	}
	lbl[DefaultDeploymentUniqueLabelKey] = hash
	sel := deepCopy(app.NestedMap(d.u.Object, "spec", "selector"))
	if sel == nil {
		sel = map[string]any{}
	}
	ml, _ := sel["matchLabels"].(map[string]any)
	if ml == nil {
		ml = map[string]any{}
		sel["matchLabels"] = ml
	}
	ml[DefaultDeploymentUniqueLabelKey] = hash
	ref := app.NewControllerRef(d.u)
	ref.APIVersion, ref.Kind = "apps/v1", "Deployment"
	newRS := &api.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "ReplicaSet",
		"metadata": map[string]any{"name": generateReplicaSetName(d.u.GetName(), hash), "namespace": d.u.GetNamespace()},
		"spec": map[string]any{
			"replicas": int64(0), "minReadySeconds": int64(d.minReadySeconds), "selector": sel, "template": tmpl,
		},
	}}
	newRS.SetOwnerReferences([]api.OwnerReference{ref})
	newRS.SetLabels(stringMap(lbl))
	n, err := d.newRSNewReplicas(append(append([]*api.Unstructured(nil), oldRSs...), newRS), newRS)
	if err != nil {
		return nil, err
	}
	app.NestedMap(newRS.Object, "spec")["replicas"] = int64(n)
	setNewReplicaSetAnnotations(d, newRS, newRevision, false)
	created, err := rsc.Create(ctx, newRS, api.CreateOptions{})
	if trace.Enabled(c.cc.Logger) { // the cause is built only when traced
		trace.Hop(c.cc.Logger, "deployment", "create", keyOf(newRS), "", slog.String("cause", "new pod template, revision "+newRevision), slog.Int("replicas", int(n)), slog.Any("err", err))
	}
	alreadyExists := false
	switch {
	case api.IsAlreadyExists(err):
		alreadyExists = true
		o, ok, _ := c.rsInformer.GetIndexer().GetByKey(keyOf(newRS))
		rs, _ := app.AsUnstructured(o)
		if !ok || rs == nil {
			return nil, err
		}
		if ref := app.GetControllerOf(rs); ref != nil && ref.UID == d.u.GetUID() && EqualIgnoreHash(d.template(), rsTemplate(rs)) {
			created, err = rs, nil
			break
		}
		// a hash collision: another template has this name; bump collisionCount for a new hash
		st := d.status
		cc := int32(0)
		if st.CollisionCount != nil {
			cc = *st.CollisionCount
		}
		cc++
		st.CollisionCount = &cc
		d.setStatus(st)
		_ = c.updateStatus(ctx, d, "replica set name collision")
		return nil, err
	case api.HasStatusCause(err, "NamespaceTerminating"):
		return nil, err
	case err != nil:
		msg := fmt.Sprintf("Failed to create new replica set %q: %v", newRS.GetName(), err)
		if d.hasProgressDeadline() {
			st := d.status
			setCondition(&st, newCondition(Progressing, "False", FailedRSCreateReason, msg, c.now()))
			d.setStatus(st)
			_ = c.updateStatus(ctx, d, "failed to create new replica set")
		}
		c.cc.Recorder.Eventf(ctx, component, d.u, app.EventTypeWarning, FailedRSCreateReason, "%s", msg)
		return nil, err
	}
	if !alreadyExists && n > 0 {
		c.cc.Recorder.Eventf(ctx, component, d.u, app.EventTypeNormal, "ScalingReplicaSet", "Scaled up replica set %s from 0 to %d", created.GetName(), n)
	}
	needsUpdate := d.setAnnotation(RevisionAnnotation, newRevision)
	if !alreadyExists && d.hasProgressDeadline() {
		st := d.status
		setCondition(&st, newCondition(Progressing, "True", NewReplicaSetReason, fmt.Sprintf("Created new replica set %q", created.GetName()), c.now()))
		d.setStatus(st)
		needsUpdate = true
	}
	if needsUpdate {
		err = c.updateStatus(ctx, d, "created new replica set")
	}
	return created, err
}

func stringMap(m map[string]any) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}

// generateReplicaSetName mirrors generateReplicaSetName: "<deployment>-<hash>", the
// Deployment's name cut so that the whole stays a DNS subdomain.
func generateReplicaSetName(name, hash string) string {
	maxLen := 253 - 1 - len(hash)
	if len(name) > maxLen && maxLen > 0 {
		name = name[:maxLen]
	}
	return name + "-" + hash
}

// scale mirrors scale: the one active ReplicaSet takes the new size; a saturated new
// ReplicaSet lets the old ones go to 0; otherwise, mid-rollout, the change is shared among
// the active ReplicaSets in proportion to their sizes (proportional scaling).
func (c *Controller) scale(ctx context.Context, d *deployment, newRS *api.Unstructured, oldRSs []*api.Unstructured) error {
	if one := findActiveOrLatest(newRS, oldRSs); one != nil {
		if specReplicas(one) == d.replicas {
			return nil
		}
		_, _, err := c.scaleReplicaSet(ctx, one, d.replicas, d, false, "scaling event: the only active replica set")
		return err
	}
	if d.isSaturated(newRS) {
		for _, old := range filterActive(oldRSs) {
			if _, _, err := c.scaleReplicaSet(ctx, old, 0, d, false, "new replica set saturated"); err != nil {
				return err
			}
		}
		return nil
	}
	if !d.isRollingUpdate() {
		return nil
	}
	all := filterActive(append(append([]*api.Unstructured(nil), oldRSs...), newRS))
	allowed := int32(0)
	if d.replicas > 0 {
		allowed = d.replicas + d.MaxSurge()
	}
	toAdd := allowed - sumSpec(all)
	switch {
	case toAdd > 0:
		sortBySizeNewer(all)
	case toAdd < 0:
		sortBySizeOlder(all)
	}
	added := int32(0)
	size := map[string]int32{}
	for _, rs := range all {
		if toAdd != 0 {
			p := d.replicaSetProportion(rs, toAdd, added)
			size[rs.GetName()] = specReplicas(rs) + p
			added += p
		} else {
			size[rs.GetName()] = specReplicas(rs)
		}
	}
	for i, rs := range all {
		if i == 0 && toAdd != 0 {
			// the rounding leftover goes to the largest ReplicaSet
			size[rs.GetName()] = max(size[rs.GetName()]+toAdd-added, 0)
		}
		if _, _, err := c.scaleReplicaSet(ctx, rs, size[rs.GetName()], d, true, "proportional scaling"); err != nil {
			return err
		}
	}
	return nil
}

// findActiveOrLatest mirrors FindActiveOrLatest: the only active ReplicaSet, or the newest
// when none is active; nil when several are.
func findActiveOrLatest(newRS *api.Unstructured, oldRSs []*api.Unstructured) *api.Unstructured {
	if newRS == nil && len(oldRSs) == 0 {
		return nil
	}
	olds := append([]*api.Unstructured(nil), oldRSs...)
	sortByCreation(olds)
	for i, j := 0, len(olds)-1; i < j; i, j = i+1, j-1 {
		olds[i], olds[j] = olds[j], olds[i]
	}
	active := filterActive(append(olds, newRS))
	switch len(active) {
	case 0:
		if newRS != nil {
			return newRS
		}
		return olds[0]
	case 1:
		return active[0]
	}
	return nil
}

// scaleReplicaSet mirrors scaleReplicaSet: write the new size and the replicas annotations,
// and record ScalingReplicaSet with upstream's message.
func (c *Controller) scaleReplicaSet(ctx context.Context, rs *api.Unstructured, newScale int32, d *deployment, force bool, cause string) (bool, *api.Unstructured, error) {
	oldScale := specReplicas(rs)
	if !force && oldScale == newScale {
		return false, rs, nil
	}
	sizeNeedsUpdate := oldScale != newScale
	maxR := d.replicas + d.MaxSurge()
	if !sizeNeedsUpdate && !replicasAnnotationsNeedUpdate(rs, d.replicas, maxR) {
		return false, rs, nil
	}
	cp := rs.DeepCopy()
	app.NestedMap(cp.Object, "spec")["replicas"] = int64(newScale)
	setReplicasAnnotations(cp, d.replicas, maxR)
	out, err := c.cc.Client.Resource(app.ReplicaSets).Namespace(cp.GetNamespace()).Update(ctx, cp, api.UpdateOptions{})
	trace.Hop(c.cc.Logger, "deployment", "scale", keyOf(cp), cp.GetResourceVersion(), slog.String("cause", cause),
		slog.Int("from", int(oldScale)), slog.Int("to", int(newScale)), slog.Any("err", err))
	if err != nil {
		return false, rs, err
	}
	if sizeNeedsUpdate {
		op := "down"
		if oldScale < newScale {
			op = "up"
		}
		c.cc.Recorder.Eventf(ctx, component, d.u, app.EventTypeNormal, "ScalingReplicaSet", "Scaled %s replica set %s from %d to %d", op, out.GetName(), oldScale, newScale)
	}
	return sizeNeedsUpdate, out, nil
}

// cleanupDeployment mirrors cleanupDeployment: delete the oldest old ReplicaSets beyond
// revisionHistoryLimit, only those fully scaled down and synced.
func (c *Controller) cleanupDeployment(ctx context.Context, oldRSs []*api.Unstructured, d *deployment) error {
	if !hasLimit(d.revisionHistoryLimit) {
		return nil
	}
	var cleanable []*api.Unstructured
	for _, rs := range oldRSs {
		if rs != nil && rs.GetDeletionTimestamp() == nil {
			cleanable = append(cleanable, rs)
		}
	}
	diff := int32(len(cleanable)) - *d.revisionHistoryLimit
	if diff <= 0 {
		return nil
	}
	sortByRevision(cleanable)
	for _, rs := range cleanable[:diff] {
		st := rsStatus(rs)
		if st.Replicas != 0 || specReplicas(rs) != 0 || rs.GetGeneration() > st.ObservedGeneration {
			continue
		}
		err := c.cc.Client.Resource(app.ReplicaSets).Namespace(rs.GetNamespace()).Delete(ctx, rs.GetName(), api.DeleteOptions{})
		trace.Hop(c.cc.Logger, "deployment", "delete", keyOf(rs), rs.GetResourceVersion(), slog.String("cause", "beyond revisionHistoryLimit"), slog.Any("err", err))
		if err != nil && !api.IsNotFound(err) {
			return err
		}
	}
	return nil
}

// syncDeploymentStatus mirrors syncDeploymentStatus.
func (c *Controller) syncDeploymentStatus(ctx context.Context, allRSs []*api.Unstructured, newRS *api.Unstructured, d *deployment) error {
	st := c.calculateStatus(allRSs, newRS, d)
	if reflect.DeepEqual(d.status, st) {
		return nil
	}
	d.setStatus(st)
	return c.updateStatus(ctx, d, "observed replica sets")
}

// calculateStatus mirrors calculateStatus: the sums over the ReplicaSets, and Available.
func (c *Controller) calculateStatus(allRSs []*api.Unstructured, newRS *api.Unstructured, d *deployment) Status {
	avail := sumStatus(allRSs, available)
	st := Status{
		ObservedGeneration:  d.u.GetGeneration(),
		Replicas:            sumStatus(allRSs, actual),
		UpdatedReplicas:     sumStatus([]*api.Unstructured{newRS}, actual),
		ReadyReplicas:       sumStatus(allRSs, ready),
		AvailableReplicas:   avail,
		UnavailableReplicas: max(sumSpec(allRSs)-avail, 0),
		TerminatingReplicas: terminatingCount(allRSs),
		CollisionCount:      d.status.CollisionCount,
		Conditions:          append([]Condition(nil), d.status.Conditions...),
	}
	if avail >= d.replicas-d.MaxUnavailable() {
		setCondition(&st, newCondition(Available, "True", MinimumReplicasAvailable, "Deployment has minimum availability.", c.now()))
	} else {
		setCondition(&st, newCondition(Available, "False", MinimumReplicasUnavailable, "Deployment does not have minimum availability.", c.now()))
	}
	return st
}

// isScalingEvent mirrors isScalingEvent: an active ReplicaSet's desired-replicas annotation
// differs from spec.replicas.
func (c *Controller) isScalingEvent(ctx context.Context, d *deployment, rsList []*api.Unstructured) (bool, error) {
	newRS, oldRSs, err := c.getAllReplicaSetsAndSyncRevision(ctx, d, rsList, false)
	if err != nil {
		return false, err
	}
	for _, rs := range filterActive(append(oldRSs, newRS)) {
		if desired, ok := annotationInt32(rs, DesiredReplicasAnnotation); ok && desired != d.replicas {
			return true, nil
		}
	}
	return false, nil
}
