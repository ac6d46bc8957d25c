package statefulset

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/labels"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/store"
)

// write creates or updates obj of gvr and traces the write with its cause.
func (sc *setControl) write(ctx context.Context, verb string, gvr api.GroupVersionResource, obj *api.Unstructured, cause string) (*api.Unstructured, error) {
	rc := sc.c.cc.Client.Resource(gvr).Namespace(obj.GetNamespace())
	var out *api.Unstructured
	var err error
	if verb == "create" {
		out, err = rc.Create(ctx, obj, api.CreateOptions{})
	} else {
		out, err = rc.Update(ctx, obj, api.UpdateOptions{})
	}
	rv := ""
	if out != nil {
		rv = out.GetResourceVersion()
	}
	trace.Hop(sc.c.cc.Logger, name, verb, obj.GetNamespace()+"/"+obj.GetName(), rv,
		slog.String("resource", gvr.Resource), slog.String("cause", cause), slog.Any("err", err))
	return out, err
}

// event mirrors recordPodEvent and recordClaimEvent: "create Pod web-0 in StatefulSet web
// successful", with the verb capitalised in the reason, or a Warning with the error.
func (sc *setControl) event(verb, what string, err error) {
	title := strings.ToUpper(verb[:1]) + verb[1:]
	if err == nil {
		sc.c.cc.Recorder.Eventf(context.Background(), eventComponent, sc.set.u, app.EventTypeNormal, "Successful"+title,
			"%s %s in StatefulSet %s successful", verb, what, sc.set.name())
		return
	}
	sc.c.cc.Recorder.Eventf(context.Background(), eventComponent, sc.set.u, app.EventTypeWarning, "Failed"+title,
		"%s %s in StatefulSet %s failed error: %s", verb, what, sc.set.name(), err)
}

// createPod mirrors CreateStatefulPod: the claims first, then the pod, then the claims'
// owner references for the retention policy.
func (sc *setControl) createPod(ctx context.Context, pod *api.Unstructured) error {
	if err := sc.createClaims(ctx, pod); err != nil {
		sc.event("create", "Pod "+pod.GetName(), err)
		return err
	}
	created, err := sc.write(ctx, "create", app.Pods, pod, fmt.Sprintf("ordinal %d is missing", ordinalOf(pod)))
	if api.IsAlreadyExists(err) {
		return err // the cache is behind: the next sync sees it
	}
	if err == nil {
		if ferr := sc.fixClaimOwners(ctx, sc.set, created); ferr != nil {
			sc.event("update", "Pod "+pod.GetName(), ferr)
			return ferr
		}
	}
	sc.event("create", "Pod "+pod.GetName(), err)
	return err
}

// deletePod mirrors DeleteStatefulPod: a pod already gone counts as deleted.
func (sc *setControl) deletePod(ctx context.Context, pod *api.Unstructured, cause string) error {
	err := sc.c.cc.Client.Resource(app.Pods).Namespace(pod.GetNamespace()).Delete(ctx, pod.GetName(),
		api.DeleteOptions{Preconditions: &api.Preconditions{UID: ptr(pod.GetUID())}})
	trace.Hop(sc.c.cc.Logger, name, "delete", pod.GetNamespace()+"/"+pod.GetName(), pod.GetResourceVersion(),
		slog.String("resource", "pods"), slog.String("cause", cause), slog.Any("err", err))
	if err != nil && !api.IsNotFound(err) {
		sc.event("delete", "Pod "+pod.GetName(), err)
		return err
	}
	sc.event("delete", "Pod "+pod.GetName(), nil)
	return nil
}

func ptr[T any](v T) *T { return &v }

// getClaim reads a claim from the cache, nil when absent.
func (sc *setControl) getClaim(namespace, claimName string) *api.Unstructured {
	obj, exists, err := sc.c.claims.GetIndexer().GetByKey(namespace + "/" + claimName)
	if err != nil || !exists {
		return nil
	}
	u, _ := obj.(*api.Unstructured)
	return u
}

// createClaims mirrors createPersistentVolumeClaims: create each missing claim of the pod's
// ordinal; a claim being deleted is an error to retry.
func (sc *setControl) createClaims(ctx context.Context, pod *api.Unstructured) error {
	var errs []error
	for _, claim := range newClaims(sc.set, ordinalOf(pod)) {
		existing := sc.getClaim(claim.GetNamespace(), claim.GetName())
		switch {
		case existing == nil:
			_, err := sc.write(ctx, "create", app.PersistentVolumeClaims, claim, "pod "+pod.GetName()+" needs its claim")
			if err != nil && !api.IsAlreadyExists(err) {
				errs = append(errs, fmt.Errorf("failed to create PVC %s: %w", claim.GetName(), err))
			}
			if err == nil || !api.IsAlreadyExists(err) {
				what := fmt.Sprintf("Claim %s Pod %s", claim.GetName(), pod.GetName())
				if err == nil {
					sc.c.cc.Recorder.Eventf(ctx, eventComponent, sc.set.u, app.EventTypeNormal, "SuccessfulCreate",
						"create %s in StatefulSet %s success", what, sc.set.name())
				} else {
					sc.c.cc.Recorder.Eventf(ctx, eventComponent, sc.set.u, app.EventTypeWarning, "FailedCreate",
						"create Claim %s for Pod %s in StatefulSet %s failed error: %s", claim.GetName(), pod.GetName(), sc.set.name(), err)
				}
			}
		case existing.GetDeletionTimestamp() != nil:
			errs = append(errs, fmt.Errorf("pvc %s is being deleted", claim.GetName()))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%v", errs)
	}
	return nil
}

// createMissingClaims mirrors createMissingPersistentVolumeClaims: for a pending pod, the
// claims that are missing (deleted after the pod was made), then their owners.
func (sc *setControl) createMissingClaims(ctx context.Context, set *statefulSet, pod *api.Unstructured) error {
	if err := sc.createClaims(ctx, pod); err != nil {
		return err
	}
	return sc.fixClaimOwners(ctx, set, pod)
}

// claimIsStale mirrors PodClaimIsStale: with whenScaled Delete, a claim still owned by an
// earlier pod of the same name (its UID differs) blocks the new pod until the garbage
// collector removes the claim.
func (sc *setControl) claimIsStale(pod *api.Unstructured) (bool, error) {
	if _, whenScaled := sc.set.retention(); whenScaled == retainPolicy {
		return false, nil
	}
	for _, claim := range newClaims(sc.set, ordinalOf(pod)) {
		c := sc.getClaim(claim.GetNamespace(), claim.GetName())
		if c == nil {
			continue
		}
		for _, r := range c.GetOwnerReferences() {
			if r.Kind == "Pod" && r.Name == pod.GetName() && r.UID != pod.GetUID() {
				return true, nil
			}
		}
	}
	return false, nil
}

// fixClaimOwners mirrors UpdatePodClaimForRetentionPolicy with isClaimOwnerUpToDate: the
// owner references of the pod's claims follow the retention policy. whenDeleted Delete puts
// the set as the claim's controller (the garbage collector deletes the claim with the set);
// whenScaled Delete puts the pod instead once its ordinal is out of range (deleted with the
// pod). Claims held by another controller, or by a former set or pod of the same name, are
// left alone.
func (sc *setControl) fixClaimOwners(ctx context.Context, set *statefulSet, pod *api.Unstructured) error {
	whenDeleted, whenScaled := set.retention()
	scaledDown := !inOrdinalRange(set, pod)
	wantSet := whenDeleted == deletePolicy && !(whenScaled == deletePolicy && scaledDown)
	wantPod := whenScaled == deletePolicy && scaledDown
	for _, claim := range newClaims(set, ordinalOf(pod)) {
		c := sc.getClaim(claim.GetNamespace(), claim.GetName())
		if c == nil {
			continue // not in the cache yet: a later sync picks it up
		}
		refs, changed, leave := desiredClaimRefs(c.GetOwnerReferences(), set, pod, wantSet, wantPod)
		if leave || !changed {
			continue
		}
		cp := c.DeepCopy()
		cp.SetOwnerReferences(refs)
		if _, err := sc.write(ctx, "update", app.PersistentVolumeClaims, cp, "the claim's owners follow the retention policy"); err != nil {
			return fmt.Errorf("could not update claim %s for delete policy ownerRefs: %w", claim.GetName(), err)
		}
	}
	return nil
}

// desiredClaimRefs computes a claim's owner references under the policy. leave is true
// when the claim must not be touched (a stale reference, or another controller).
func desiredClaimRefs(refs []api.OwnerReference, set *statefulSet, pod *api.Unstructured, wantSet, wantPod bool) (out []api.OwnerReference, changed, leave bool) {
	isSet := func(r api.OwnerReference) bool { return r.Kind == "StatefulSet" && r.Name == set.name() }
	isPod := func(r api.OwnerReference) bool { return r.Kind == "Pod" && r.Name == pod.GetName() }
	hasSet, hasPod := false, false
	for _, r := range refs {
		switch {
		case isSet(r):
			if r.UID != set.u.GetUID() {
				return nil, false, true
			}
			hasSet = true
		case isPod(r):
			if r.UID != pod.GetUID() {
				return nil, false, true
			}
			hasPod = true
		case r.Controller != nil && *r.Controller:
			if wantSet || wantPod {
				return nil, false, true
			}
		default:
			out = append(out, r)
		}
	}
	if hasSet == wantSet && hasPod == wantPod {
		return refs, false, false
	}
	if wantSet {
		out = append(out, set.controllerRef())
	}
	if wantPod && pod.GetUID() != "" {
		t := true
		out = append(out, api.OwnerReference{APIVersion: "v1", Kind: "Pod", Name: pod.GetName(), UID: pod.GetUID(), Controller: &t, BlockOwnerDeletion: &t})
	}
	return out, true, false
}

// listRevisions mirrors ListRevisions with adoptOrphanRevisions: the set's
// ControllerRevisions by controller reference, and orphans whose labels match its selector
// (left behind by a set deleted with --cascade=orphan) adopted first.
func (sc *setControl) listRevisions(ctx context.Context) ([]*api.Unstructured, error) {
	sel, err := app.LabelSelectorAsSelector(sc.set.Spec.Selector)
	if err != nil {
		return nil, err
	}
	var out, orphans []*api.Unstructured
	_ = store.ListAllByNamespace(sc.c.revisions.GetIndexer(), sc.set.namespace(), labels.Everything(), func(obj any) {
		r, ok := obj.(*api.Unstructured)
		if !ok {
			return
		}
		switch ref := app.GetControllerOf(r); {
		case ref != nil && ref.UID == sc.set.u.GetUID():
			out = append(out, r)
		case ref == nil && !sel.Empty() && sel.Matches(labels.Set(r.GetLabels())) && sc.set.u.GetDeletionTimestamp() == nil:
			orphans = append(orphans, r)
		}
	})
	for _, r := range orphans {
		if err := sc.canAdopt(ctx); err != nil {
			return nil, err
		}
		cp := r.DeepCopy()
		cp.SetOwnerReferences(append(cp.GetOwnerReferences(), sc.set.controllerRef()))
		adopted, err := sc.write(ctx, "update", app.ControllerRevisions, cp, "adopt: an orphan revision matches the selector")
		if err != nil {
			if api.IsNotFound(err) {
				continue
			}
			return nil, err
		}
		out = append(out, adopted)
	}
	return out, nil
}

// claimPods mirrors getPodsForStatefulSet with ClaimPods: the set's own pods, orphans that
// match the selector and the set's naming adopted, and own pods that no longer match
// released.
func (sc *setControl) claimPods(ctx context.Context, sel labels.Selector) ([]*api.Unstructured, error) {
	c, set := sc.c, sc.set
	var candidates []*api.Unstructured
	_ = store.ListAllByNamespace(c.pods.GetIndexer(), set.namespace(), labels.Everything(), func(obj any) {
		if p, ok := obj.(*api.Unstructured); ok {
			candidates = append(candidates, p)
		}
	})
	var out []*api.Unstructured
	for _, p := range candidates {
		ref := app.GetControllerOf(p)
		matches := sel.Matches(labels.Set(p.GetLabels())) && isMemberOf(set, p)
		switch {
		case ref != nil && ref.UID == set.u.GetUID():
			if matches {
				out = append(out, p)
				continue
			}
			if p.GetDeletionTimestamp() != nil || set.u.GetDeletionTimestamp() != nil {
				continue
			}
			cp := p.DeepCopy()
			var keep []api.OwnerReference
			for _, r := range cp.GetOwnerReferences() {
				if r.UID != set.u.GetUID() {
					keep = append(keep, r)
				}
			}
			cp.SetOwnerReferences(keep)
			if _, err := sc.write(ctx, "update", app.Pods, cp, "release: the pod no longer matches the selector"); err != nil && !api.IsNotFound(err) {
				return nil, err
			}
		case ref == nil && matches && p.GetDeletionTimestamp() == nil && set.u.GetDeletionTimestamp() == nil:
			if err := sc.canAdopt(ctx); err != nil {
				return nil, err
			}
			cp := p.DeepCopy()
			cp.SetOwnerReferences(append(cp.GetOwnerReferences(), set.controllerRef()))
			adopted, err := sc.write(ctx, "update", app.Pods, cp, "adopt: an orphan pod matches the selector")
			if err != nil {
				if api.IsNotFound(err) {
					continue
				}
				return nil, err
			}
			out = append(out, adopted)
		}
	}
	return out, nil
}

// canAdopt runs app.CanAdopt once per pass, before the first adoption.
func (sc *setControl) canAdopt(ctx context.Context) error {
	if !sc.adoptChecked {
		sc.adoptChecked = true
		sc.adoptErr = app.CanAdopt(ctx, sc.c.cc.Client, app.StatefulSets, sc.set.u)
	}
	return sc.adoptErr
}
