package statefulset

import (
	"context"
	"errors"
	"log/slog"
	"sort"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// setControl is one pass over one set: defaultStatefulSetControl with the set, its key and
// the time of the pass.
type setControl struct {
	c   *Controller
	set *statefulSet
	key string
	now time.Time

	adoptChecked bool  // canAdopt asked the server
	adoptErr     error // and its answer
}

// updateStatefulSet mirrors defaultStatefulSetControl.UpdateStatefulSet and performUpdate:
// settle the revisions, make the pods match, write the status, then trim the history.
func (sc *setControl) updateStatefulSet(ctx context.Context, pods []*api.Unstructured) (*setStatus, error) {
	revisions, err := sc.listRevisions(ctx)
	if err != nil {
		return nil, err
	}
	sortRevisions(revisions)
	current, update, collisionCount, err := sc.getRevisions(ctx, revisions)
	if err != nil {
		return nil, err
	}
	status, err := sc.updatePods(ctx, current, update, collisionCount, pods)
	if status != nil {
		if serr := sc.updateStatus(ctx, status); err == nil {
			err = serr
		}
	}
	if herr := sc.truncateHistory(ctx, pods, revisions, current, update); err == nil {
		err = herr
	}
	return status, err
}

// getRevisions mirrors getStatefulSetRevisions: the update revision is the one whose data
// matches the set's template (the newest such, renumbered to the top when it is an older
// one: a rollback), created when none matches; the current revision is the one status
// names, or the update revision when there is none.
func (sc *setControl) getRevisions(ctx context.Context, revisions []*api.Unstructured) (current, update *api.Unstructured, collisionCount int32, err error) {
	if sc.set.Status.CollisionCount != nil {
		collisionCount = *sc.set.Status.CollisionCount
	}
	next := int64(1)
	if n := len(revisions); n > 0 {
		next = app.RevisionNumber(revisions[n-1]) + 1
	}
	patch := revisionPatch(sc.set)
	want := canonical(patch)
	var equal []*api.Unstructured
	for _, r := range revisions {
		if string(revisionData(r)) == string(want) {
			equal = append(equal, r)
		}
	}
	switch {
	case len(equal) > 0 && equal[len(equal)-1] == revisions[len(revisions)-1]:
		update = revisions[len(revisions)-1]
	case len(equal) > 0:
		cp := equal[len(equal)-1].DeepCopy()
		cp.Object["revision"] = next
		update, err = sc.write(ctx, "update", app.ControllerRevisions, cp, "rollback: an older revision matches the template")
		if err != nil {
			return nil, nil, collisionCount, err
		}
	default:
		update, err = sc.createRevision(ctx, patch, next, &collisionCount)
		if err != nil {
			return nil, nil, collisionCount, err
		}
	}
	for _, r := range revisions {
		if r.GetName() == sc.set.Status.CurrentRevision {
			current = r
			break
		}
	}
	if current == nil {
		current = update
	}
	return current, update, collisionCount, nil
}

// createRevision mirrors realHistory.CreateControllerRevision with newRevision: name the
// revision by the hash of its data and the collision count; when a revision of that name
// holds other data, count a collision and try the next name.
func (sc *setControl) createRevision(ctx context.Context, patch map[string]any, revision int64, collisionCount *int32) (*api.Unstructured, error) {
	data := canonical(patch)
	ref := sc.set.controllerRef()
	for {
		hash := app.HashRevisionData(data, collisionCount)
		l := templateLabels(sc.set.Spec.Template)
		if l == nil {
			l = map[string]string{}
		}
		l[app.ControllerRevisionHashLabel] = hash
		cr := &api.Unstructured{Object: map[string]any{
			"apiVersion": "apps/v1",
			"kind":       "ControllerRevision",
			"metadata":   map[string]any{},
			"data":       patch,
			"revision":   revision,
		}}
		cr.SetName(app.ControllerRevisionName(sc.set.name(), hash))
		cr.SetNamespace(sc.set.namespace())
		cr.SetLabels(l)
		if a := sc.set.u.GetAnnotations(); len(a) > 0 {
			cr.SetAnnotations(a)
		}
		cr.SetOwnerReferences([]api.OwnerReference{ref})
		created, err := sc.write(ctx, "create", app.ControllerRevisions, cr, "the pod template changed: a new revision")
		if err == nil {
			return created, nil
		}
		if !api.IsAlreadyExists(err) {
			return nil, err
		}
		existing, gerr := sc.c.cc.Client.Resource(app.ControllerRevisions).Namespace(sc.set.namespace()).Get(ctx, cr.GetName(), api.GetOptions{})
		if gerr != nil {
			return nil, gerr
		}
		if string(revisionData(existing)) == string(data) {
			return existing, nil
		}
		*collisionCount++
	}
}

// updatePods mirrors updateStatefulSet: sort the pods into replicas (in ordinal range) and
// condemned (out of it), create what is missing, replace failed pods, delete the condemned
// from the highest ordinal, and roll pods to the update revision.
func (sc *setControl) updatePods(ctx context.Context, currentRev, updateRev *api.Unstructured, collisionCount int32, pods []*api.Unstructured) (*setStatus, error) {
	set := sc.set
	currentSet := applyRevision(set, currentRev)
	updateSet := applyRevision(set, updateRev)
	status := &setStatus{
		ObservedGeneration: set.u.GetGeneration(),
		CurrentRevision:    currentRev.GetName(),
		UpdateRevision:     updateRev.GetName(),
		CollisionCount:     &collisionCount,
	}
	n := set.replicas()
	replicas := make([]*api.Unstructured, n)
	var condemned []*api.Unstructured
	for _, p := range pods {
		switch o := ordinalOf(p); {
		case inOrdinalRange(set, p):
			replicas[o-set.startOrdinal()] = p
		case o >= 0:
			condemned = append(condemned, p)
		}
	}
	for i := range replicas {
		if replicas[i] == nil {
			replicas[i] = sc.versionedPod(currentSet, updateSet, currentRev.GetName(), updateRev.GetName(), set.startOrdinal()+i)
		}
	}
	sort.Slice(condemned, func(i, j int) bool { return ordinalOf(condemned[i]) > ordinalOf(condemned[j]) })
	var firstUnhealthy *api.Unstructured
	for _, p := range replicas {
		if sc.unavailable(p) {
			firstUnhealthy = p
			break
		}
	}
	if firstUnhealthy == nil {
		for i := len(condemned) - 1; i >= 0; i-- {
			if sc.unavailable(condemned[i]) {
				firstUnhealthy = condemned[i]
				break
			}
		}
	}
	recount := func() { sc.countStatus(status, currentRev.GetName(), updateRev.GetName(), replicas, condemned) }
	recount()
	if set.u.GetDeletionTimestamp() != nil {
		return status, nil
	}
	monotonic := set.Spec.PodManagementPolicy != parallelPodManagement

	if stop, err := runForAll(len(replicas), monotonic, func(i int) (bool, error) {
		return sc.processReplica(ctx, updateSet, monotonic, replicas, i)
	}); stop || err != nil {
		recount()
		return status, err
	}
	if stop, err := runForAll(len(condemned), monotonic, func(i int) (bool, error) {
		return false, sc.fixClaimOwners(ctx, updateSet, condemned[i])
	}); stop || err != nil {
		recount()
		return status, err
	}
	if stop, err := runForAll(len(condemned), monotonic, func(i int) (bool, error) {
		return sc.processCondemned(ctx, monotonic, condemned[i], firstUnhealthy)
	}); stop || err != nil {
		recount()
		return status, err
	}
	recount()
	if set.Spec.UpdateStrategy.Type == onDelete {
		return status, nil
	}
	return status, sc.rollingUpdate(ctx, replicas, updateRev.GetName(), status)
}

// rollingUpdate mirrors updateStatefulSetAfterInvariantEstablished: with every replica in
// place, delete up to maxUnavailable (less those already unavailable) pods of an old
// revision, from the highest ordinal down to the partition. maxUnavailable is honoured as
// when the MaxUnavailableStatefulSet gate is on; unset it is 1, upstream's behaviour.
func (sc *setControl) rollingUpdate(ctx context.Context, replicas []*api.Unstructured, updateRevision string, status *setStatus) error {
	maxUnavailable := 1
	if r := sc.set.Spec.UpdateStrategy.RollingUpdate; r != nil && r.MaxUnavailable != nil {
		v, err := app.ScaledValueFromIntOrPercent(r.MaxUnavailable, len(replicas), false)
		if err != nil {
			return err
		}
		maxUnavailable = max(v, 1)
	}
	unavailable := 0
	for _, p := range replicas {
		if sc.unavailable(p) {
			unavailable++
		}
	}
	if unavailable >= maxUnavailable {
		return nil
	}
	budget := maxUnavailable - unavailable
	floor := sc.set.partition()
	for target := len(replicas) - 1; target >= floor && budget > 0; target-- {
		p := replicas[target]
		if p.GetLabels()[revisionLabel] != updateRevision && p.GetDeletionTimestamp() == nil {
			if err := sc.deletePod(ctx, p, "rolling update: the pod is of an old revision"); err != nil {
				return err
			}
			budget--
			status.CurrentReplicas--
		}
	}
	return nil
}

// runForAll mirrors runForAll: in order, stopping at the first pod that blocks, when
// monotonic; otherwise every pod, in slow-start batches as upstream does (here one by one,
// which is the same writes).
func runForAll(n int, monotonic bool, fn func(i int) (bool, error)) (bool, error) {
	var errs []error
	for i := range n {
		stop, err := fn(i)
		if monotonic && (stop || err != nil) {
			return true, err
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return true, errors.Join(errs...)
	}
	return false, nil
}

// versionedPod mirrors newVersionedStatefulSetPod: below the partition a missing pod is
// recreated at the current revision, otherwise at the update revision.
func (sc *setControl) versionedPod(currentSet, updateSet *statefulSet, currentRev, updateRev string, ordinal int) *api.Unstructured {
	if currentSet.Spec.UpdateStrategy.Type == rollingUpdate {
		if r := currentSet.Spec.UpdateStrategy.RollingUpdate; (r == nil && ordinal < currentSet.startOrdinal()+int(currentSet.Status.CurrentReplicas)) ||
			(r != nil && ordinal < currentSet.startOrdinal()+currentSet.partition()) {
			return newPod(currentSet, ordinal, currentRev)
		}
	}
	return newPod(updateSet, ordinal, updateRev)
}

// processReplica mirrors processReplica: replace a finished pod, create a missing one (and
// its claims), and in monotonic mode stop at the first pod that is not Running, Ready and
// available; then fix the pod's identity and its claims' owners.
func (sc *setControl) processReplica(ctx context.Context, updateSet *statefulSet, monotonic bool, replicas []*api.Unstructured, i int) (bool, error) {
	p := replicas[i]
	if phase := app.PodPhase(p); phase == "Failed" || phase == "Succeeded" {
		if p.GetDeletionTimestamp() == nil {
			if err := sc.deletePod(ctx, p, "the pod is "+phase+": it is replaced"); err != nil {
				return true, err
			}
		}
		return true, nil
	}
	if p.GetUID() == "" { // not created yet
		if stale, err := sc.claimIsStale(p); err != nil || stale {
			return true, err
		}
		if err := sc.createPod(ctx, p); err != nil {
			return true, err
		}
		if monotonic {
			return true, nil
		}
		return false, nil
	}
	if app.PodPhase(p) == "Pending" || app.PodPhase(p) == "" {
		if err := sc.createMissingClaims(ctx, updateSet, p); err != nil {
			return true, err
		}
	}
	if monotonic && p.GetDeletionTimestamp() != nil {
		return true, nil // wait for graceful deletion to finish
	}
	if monotonic && !(app.PodPhase(p) == "Running" && app.IsPodAvailable(p, sc.set.Spec.MinReadySeconds, sc.now)) {
		return true, nil
	}
	if !identityMatches(sc.set, p) {
		cp := p.DeepCopy()
		updateIdentity(cp)
		if _, err := sc.write(ctx, "update", app.Pods, cp, "the pod's identity labels do not match the set"); err != nil {
			return true, err
		}
	}
	return false, sc.fixClaimOwners(ctx, updateSet, p)
}

// processCondemned mirrors processCondemned: in monotonic mode wait for a terminating pod,
// and for every other pod to be healthy unless this is the first unhealthy one; then delete.
func (sc *setControl) processCondemned(ctx context.Context, monotonic bool, p, firstUnhealthy *api.Unstructured) (bool, error) {
	if p.GetDeletionTimestamp() != nil {
		return monotonic, nil
	}
	if monotonic && p != firstUnhealthy && sc.unavailable(p) {
		return true, nil
	}
	return true, sc.deletePod(ctx, p, "scale down: the ordinal is out of range")
}

// unavailable mirrors isUnavailable: not created, terminating, or not available.
func (sc *setControl) unavailable(p *api.Unstructured) bool {
	return p.GetUID() == "" || p.GetDeletionTimestamp() != nil || !app.IsPodAvailable(p, sc.set.Spec.MinReadySeconds, sc.now)
}

// countStatus mirrors updateStatus and computeReplicaStatus: count the created pods, the
// Running and Ready ones, the available ones, and those of each revision.
func (sc *setControl) countStatus(st *setStatus, currentRev, updateRev string, lists ...[]*api.Unstructured) {
	st.Replicas, st.ReadyReplicas, st.AvailableReplicas, st.CurrentReplicas, st.UpdatedReplicas = 0, 0, 0, 0, 0
	for _, l := range lists {
		for _, p := range l {
			if p.GetUID() == "" {
				continue
			}
			st.Replicas++
			if app.PodPhase(p) == "Running" && app.IsPodReady(p) {
				st.ReadyReplicas++
				if app.IsPodAvailable(p, sc.set.Spec.MinReadySeconds, sc.now) {
					st.AvailableReplicas++
				}
			}
			if p.GetDeletionTimestamp() != nil {
				continue
			}
			switch p.GetLabels()[revisionLabel] {
			case currentRev:
				st.CurrentReplicas++
			}
			if p.GetLabels()[revisionLabel] == updateRev {
				st.UpdatedReplicas++
			}
		}
	}
}

// updateStatus mirrors updateStatefulSetStatus: complete a finished rolling update (the
// update revision becomes current), and write the status only when it changed.
func (sc *setControl) updateStatus(ctx context.Context, st *setStatus) error {
	set := sc.set
	n := int32(set.replicas())
	if set.Spec.UpdateStrategy.Type == rollingUpdate && st.UpdatedReplicas == n && st.ReadyReplicas == n && st.Replicas == n {
		st.CurrentReplicas = st.UpdatedReplicas
		st.CurrentRevision = st.UpdateRevision
	}
	old := set.Status
	if st.ObservedGeneration <= old.ObservedGeneration && st.Replicas == old.Replicas && st.CurrentReplicas == old.CurrentReplicas &&
		st.ReadyReplicas == old.ReadyReplicas && st.UpdatedReplicas == old.UpdatedReplicas && st.CurrentRevision == old.CurrentRevision &&
		st.AvailableReplicas == old.AvailableReplicas && st.UpdateRevision == old.UpdateRevision &&
		equalCount(st.CollisionCount, old.CollisionCount) {
		return nil
	}
	u := set.u.DeepCopy()
	m, err := app.ToUnstructured(st)
	if err != nil {
		return err
	}
	if conds, ok := app.Nested(u.Object, "status", "conditions"); ok {
		m.Object["conditions"] = conds
	}
	u.Object["status"] = m.Object
	out, err := sc.c.cc.Client.Resource(app.StatefulSets).Namespace(set.namespace()).UpdateStatus(ctx, u, api.UpdateOptions{})
	rv := ""
	if out != nil {
		rv = out.GetResourceVersion()
	}
	trace.Hop(sc.c.cc.Logger, name, "update-status", sc.key, rv,
		slog.String("cause", "the pods changed"), slog.Int("replicas", int(st.Replicas)),
		slog.Int("ready", int(st.ReadyReplicas)), slog.Int("updated", int(st.UpdatedReplicas)), slog.Any("err", err))
	return err
}

func equalCount(a, b *int32) bool {
	av, bv := int32(0), int32(0)
	if a != nil {
		av = *a
	}
	if b != nil {
		bv = *b
	}
	return av == bv
}

// truncateHistory mirrors truncateHistory: keep the revisions pods still use and the
// current and update revisions; delete the oldest of the rest beyond revisionHistoryLimit.
func (sc *setControl) truncateHistory(ctx context.Context, pods, revisions []*api.Unstructured, current, update *api.Unstructured) error {
	live := map[string]bool{}
	if current != nil {
		live[current.GetName()] = true
	}
	if update != nil {
		live[update.GetName()] = true
	}
	for _, p := range pods {
		live[p.GetLabels()[revisionLabel]] = true
	}
	var history []*api.Unstructured
	for _, r := range revisions {
		if !live[r.GetName()] {
			history = append(history, r)
		}
	}
	limit := 10
	if sc.set.Spec.RevisionHistoryLimit != nil {
		limit = int(*sc.set.Spec.RevisionHistoryLimit)
	}
	for i := 0; i < len(history)-limit; i++ {
		err := sc.c.cc.Client.Resource(app.ControllerRevisions).Namespace(sc.set.namespace()).Delete(ctx, history[i].GetName(), api.DeleteOptions{})
		trace.Hop(sc.c.cc.Logger, name, "delete", sc.set.namespace()+"/"+history[i].GetName(), history[i].GetResourceVersion(),
			slog.String("resource", "controllerrevisions"), slog.String("cause", "beyond revisionHistoryLimit"), slog.Any("err", err))
		if err != nil && !api.IsNotFound(err) {
			return err
		}
	}
	return nil
}
