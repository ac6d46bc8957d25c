package daemonset

import (
	"context"
	"fmt"
	"log/slog"
	"sort"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/labels"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/store"
)

// rollingUpdate mirrors rollingUpdate of pkg/controller/daemon/update.go. Without surge it
// deletes old pods (those not available first, then up to maxUnavailable available ones)
// and manage replaces them; with maxSurge it first creates the new pod beside the old one
// on up to maxSurge nodes, and manage deletes the old pod once the new one is available.
func (dc *dsControl) rollingUpdate(ctx context.Context) error {
	byNode, err := dc.nodesToDaemonPods(ctx, false)
	if err != nil {
		return fmt.Errorf("couldn't get node to daemon pod mapping for daemon set %q: %v", dc.d.u.GetName(), err)
	}
	desired := 0
	shouldRun := map[string]bool{}
	for _, n := range dc.nodes {
		if run, _ := nodeShouldRunDaemonPod(n, dc.d); run {
			desired++
			shouldRun[n.GetName()] = true
			if _, ok := byNode[n.GetName()]; !ok {
				byNode[n.GetName()] = nil
			}
		}
	}
	maxUnavailable, err := dc.d.unavailableCount(desired)
	if err != nil {
		return fmt.Errorf("invalid value for MaxUnavailable: %v", err)
	}
	maxSurge, err := dc.d.surgeCount(desired)
	if err != nil {
		return fmt.Errorf("invalid value for MaxSurge: %v", err)
	}
	if desired > 0 && maxUnavailable == 0 && maxSurge == 0 {
		maxUnavailable = 1 // upstream falls back to accepting unavailability
	}
	nodeNames := make([]string, 0, len(byNode))
	for n := range byNode {
		nodeNames = append(nodeNames, n)
	}
	sort.Strings(nodeNames)
	available := func(p *api.Unstructured) bool { return app.IsPodAvailable(p, dc.d.Spec.MinReadySeconds, dc.now) }
	gen := dc.d.templateGeneration()

	if maxSurge == 0 {
		numUnavailable := 0
		var allowed, candidates []victim
		for _, n := range nodeNames {
			newPod, oldPod, ok := findUpdatedPodsOnNode(byNode[n], dc.hash, gen)
			switch {
			case !ok:
				numUnavailable++ // more than one pod of a kind: manage cleans it up
			case (oldPod == nil) == (newPod == nil):
				numUnavailable++
			case newPod != nil:
				if !available(newPod) {
					numUnavailable++
				}
			case !available(oldPod):
				allowed = append(allowed, victim{oldPod, "rolling update: an old pod that is not available"})
				numUnavailable++
			case numUnavailable < maxUnavailable:
				candidates = append(candidates, victim{oldPod, "rolling update: the pod is of an old revision"})
			}
		}
		remaining := min(max(maxUnavailable-numUnavailable, 0), len(candidates))
		return dc.syncNodes(ctx, append(allowed, candidates[:remaining]...), nil)
	}

	var oldToDelete, shouldNotRun []victim
	var candidateNodes, allowedNodes []string
	numSurge, numAvailable := 0, 0
	for _, n := range nodeNames {
		newPod, oldPod, ok := findUpdatedPodsOnNode(byNode[n], dc.hash, gen)
		if !ok {
			numSurge++
			continue
		}
		if oldPod != nil && available(oldPod) || oldPod == nil && newPod != nil && available(newPod) {
			numAvailable++
		}
		switch {
		case oldPod == nil:
		case newPod == nil:
			if !available(oldPod) {
				if !shouldRun[n] {
					oldToDelete = append(oldToDelete, victim{oldPod, "rolling update: an old pod, not available, on a node that no longer fits"})
					continue
				}
				allowedNodes = append(allowedNodes, n)
				continue
			}
			if !shouldRun[n] {
				shouldNotRun = append(shouldNotRun, victim{oldPod, "rolling update: an old pod on a node that no longer fits"})
				continue
			}
			if numSurge >= maxSurge {
				continue
			}
			candidateNodes = append(candidateNodes, n)
		default:
			if !available(newPod) {
				numSurge++
				continue
			}
			oldToDelete = append(oldToDelete, victim{oldPod, "rolling update: the new pod on node " + n + " is available"})
		}
	}
	if deletable := numAvailable - desired; deletable > 0 {
		oldToDelete = append(oldToDelete, shouldNotRun[:min(deletable, len(shouldNotRun))]...)
	}
	remaining := min(max(maxSurge-numSurge, 0), len(candidateNodes))
	return dc.syncNodes(ctx, oldToDelete, append(allowedNodes, candidateNodes[:remaining]...))
}

// findUpdatedPodsOnNode mirrors findUpdatedPodsOnNode: the node's one new and one old pod;
// ok is false when there are two of either.
func findUpdatedPodsOnNode(pods []*api.Unstructured, hash string, gen *int64) (newPod, oldPod *api.Unstructured, ok bool) {
	for _, p := range pods {
		if p.GetDeletionTimestamp() != nil {
			continue
		}
		if isPodUpdated(p, hash, gen) {
			if newPod != nil {
				return nil, nil, false
			}
			newPod = p
		} else {
			if oldPod != nil {
				return nil, nil, false
			}
			oldPod = p
		}
	}
	return newPod, oldPod, true
}

// controlledHistories mirrors controlledHistories with ClaimControllerRevisions: the
// DaemonSet's ControllerRevisions, orphans matching its selector adopted.
func (dc *dsControl) controlledHistories(ctx context.Context) ([]*api.Unstructured, error) {
	sel, err := app.LabelSelectorAsSelector(dc.d.Spec.Selector)
	if err != nil {
		return nil, err
	}
	var out, orphans []*api.Unstructured
	_ = store.ListAllByNamespace(dc.c.revisions.GetIndexer(), dc.d.u.GetNamespace(), labels.Everything(), func(obj any) {
		r, ok := obj.(*api.Unstructured)
		if !ok {
			return
		}
		switch ref := app.GetControllerOf(r); {
		case ref != nil && ref.UID == dc.d.u.GetUID():
			out = append(out, r)
		case ref == nil && !sel.Empty() && sel.Matches(labels.Set(r.GetLabels())):
			orphans = append(orphans, r)
		}
	})
	for _, r := range orphans {
		if err := dc.canAdopt(ctx); err != nil {
			return nil, err
		}
		cp := r.DeepCopy()
		cp.SetOwnerReferences(append(cp.GetOwnerReferences(), dc.d.controllerRef()))
		adopted, err := dc.writeRevision(ctx, "update", cp, "adopt: an orphan revision matches the selector")
		if err != nil {
			if api.IsNotFound(err) {
				continue
			}
			return nil, err
		}
		out = append(out, adopted)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].GetName() < out[j].GetName() })
	return out, nil
}

// constructHistory mirrors constructHistory: the revision whose data is the current
// template (created when missing, renumbered to the top when older ones exist above it)
// and the old ones.
func (dc *dsControl) constructHistory(ctx context.Context) (cur *api.Unstructured, old []*api.Unstructured, err error) {
	want := string(canonical(revisionPatch(dc.d)))
	histories, err := dc.controlledHistories(ctx)
	if err != nil {
		return nil, nil, err
	}
	var current []*api.Unstructured
	for _, h := range histories {
		if string(canonical(h.Object["data"])) == want {
			current = append(current, h)
		} else {
			old = append(old, h)
		}
	}
	next := maxRevision(old) + 1
	switch len(current) {
	case 0:
		cur, err = dc.snapshot(ctx, next)
		if err != nil {
			return nil, nil, err
		}
	default:
		cur = current[0]
		for _, h := range current[1:] { // dedupCurHistories: keep the highest revision
			if app.RevisionNumber(h) >= app.RevisionNumber(cur) {
				cur = h
			}
		}
		if app.RevisionNumber(cur) < next {
			cp := cur.DeepCopy()
			cp.Object["revision"] = next
			cur, err = dc.writeRevision(ctx, "update", cp, "rollback: an older revision matches the template")
			if err != nil {
				return nil, nil, err
			}
		}
	}
	return cur, old, nil
}

func maxRevision(hs []*api.Unstructured) int64 {
	var m int64
	for _, h := range hs {
		m = max(m, app.RevisionNumber(h))
	}
	return m
}

// snapshot mirrors snapshot: a ControllerRevision named <ds>-<hash of the template>; when
// that name holds other data, the collision count goes up in status and the sync retries.
func (dc *dsControl) snapshot(ctx context.Context, revision int64) (*api.Unstructured, error) {
	patch := revisionPatch(dc.d)
	hash := app.HashRevisionData(canonical(dc.d.Spec.Template), dc.d.Status.CollisionCount)
	l := map[string]string{}
	for k, v := range app.NestedMap(dc.d.Spec.Template, "metadata", "labels") {
		if s, ok := v.(string); ok {
			l[k] = s
		}
	}
	l[hashLabel] = hash
	cr := &api.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "ControllerRevision", "metadata": map[string]any{},
		"data": patch, "revision": revision,
	}}
	cr.SetName(app.ControllerRevisionName(dc.d.u.GetName(), hash))
	cr.SetNamespace(dc.d.u.GetNamespace())
	cr.SetLabels(l)
	if a := dc.d.u.GetAnnotations(); len(a) > 0 {
		cr.SetAnnotations(a)
	}
	cr.SetOwnerReferences([]api.OwnerReference{dc.d.controllerRef()})
	out, err := dc.writeRevision(ctx, "create", cr, "the template changed: a new revision")
	if err == nil || !api.IsAlreadyExists(err) {
		return out, err
	}
	rc := dc.c.cc.Client.Resource(app.ControllerRevisions).Namespace(cr.GetNamespace())
	existing, gerr := rc.Get(ctx, cr.GetName(), api.GetOptions{})
	if gerr != nil {
		return nil, gerr
	}
	if string(canonical(existing.Object["data"])) == string(canonical(patch)) {
		return existing, nil
	}
	fresh, gerr := dc.c.cc.Client.Resource(app.DaemonSets).Namespace(cr.GetNamespace()).Get(ctx, dc.d.u.GetName(), api.GetOptions{})
	if gerr != nil {
		return nil, gerr
	}
	n, _ := app.NestedInt64(fresh.Object, "status", "collisionCount")
	st := app.NestedMap(fresh.Object, "status")
	if st == nil {
		st = map[string]any{}
		fresh.Object["status"] = st
	}
	st["collisionCount"] = n + 1
	if _, uerr := dc.c.cc.Client.Resource(app.DaemonSets).Namespace(cr.GetNamespace()).UpdateStatus(ctx, fresh, api.UpdateOptions{}); uerr != nil {
		return nil, uerr
	}
	return nil, err
}

func (dc *dsControl) writeRevision(ctx context.Context, verb string, cr *api.Unstructured, cause string) (*api.Unstructured, error) {
	rc := dc.c.cc.Client.Resource(app.ControllerRevisions).Namespace(cr.GetNamespace())
	var out *api.Unstructured
	var err error
	if verb == "create" {
		out, err = rc.Create(ctx, cr, api.CreateOptions{})
	} else {
		out, err = rc.Update(ctx, cr, api.UpdateOptions{})
	}
	rv := ""
	if out != nil {
		rv = out.GetResourceVersion()
	}
	trace.Hop(dc.c.cc.Logger, name, verb, cr.GetNamespace()+"/"+cr.GetName(), rv,
		slog.String("resource", "controllerrevisions"), slog.String("cause", cause), slog.Any("err", err))
	return out, err
}

// cleanupHistory mirrors cleanupHistory: delete the oldest old revisions beyond
// revisionHistoryLimit that no pod uses.
func (dc *dsControl) cleanupHistory(ctx context.Context, old []*api.Unstructured) error {
	limit := defaultHistoryLimit
	if dc.d.Spec.RevisionHistoryLimit != nil {
		limit = int(*dc.d.Spec.RevisionHistoryLimit)
	}
	toKill := len(old) - limit
	if toKill <= 0 {
		return nil
	}
	byNode, err := dc.nodesToDaemonPods(ctx, true)
	if err != nil {
		return err
	}
	live := map[string]bool{}
	for _, pods := range byNode {
		for _, p := range pods {
			live[p.GetLabels()[hashLabel]] = true
		}
	}
	sort.SliceStable(old, func(i, j int) bool { return app.RevisionNumber(old[i]) < app.RevisionNumber(old[j]) })
	for _, h := range old {
		if toKill <= 0 {
			break
		}
		if live[h.GetLabels()[hashLabel]] {
			continue
		}
		err := dc.c.cc.Client.Resource(app.ControllerRevisions).Namespace(h.GetNamespace()).Delete(ctx, h.GetName(), api.DeleteOptions{})
		trace.Hop(dc.c.cc.Logger, name, "delete", h.GetNamespace()+"/"+h.GetName(), h.GetResourceVersion(),
			slog.String("resource", "controllerrevisions"), slog.String("cause", "beyond revisionHistoryLimit"), slog.Any("err", err))
		if err != nil && !api.IsNotFound(err) {
			return err
		}
		toKill--
	}
	return nil
}
