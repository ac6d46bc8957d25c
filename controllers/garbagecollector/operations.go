package garbagecollector

import (
	"context"
	"encoding/json"
	"log/slog"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/client/dynamic"
	"github.com/informer-lab/informer-lab/internal/trace"
)

func traceCause(c string) slog.Attr { return slog.String("cause", c) }

// resourceFor mirrors GarbageCollector.apiResource: the client of the item's resource.
func (gc *GarbageCollector) resourceFor(id objectReference) (dynamic.ResourceInterface, error) {
	m, err := gc.mapper.lookup(id.APIVersion, id.Kind)
	if err != nil {
		return nil, err
	}
	ns := id.Namespace
	if !m.namespaced {
		ns = ""
	}
	return gc.cc.Client.Resource(m.gvr).Namespace(ns), nil
}

// getObject mirrors GarbageCollector.getObject: a live GET, never the cache. A namespaced
// identity without a namespace can only be a virtual owner that a cluster-scoped dependent
// named: no GET can find it, and a 404 must not make it absent (its dependent would then be
// collected as dangling), so it is the marker error, which drops the item.
func (gc *GarbageCollector) getObject(ctx context.Context, id objectReference) (*api.Unstructured, error) {
	m, err := gc.mapper.lookup(id.APIVersion, id.Kind)
	if err != nil {
		return nil, err
	}
	if m.namespaced && id.Namespace == "" {
		return nil, errNamespacedOwnerOfClusterScoped
	}
	rc, err := gc.resourceFor(id)
	if err != nil {
		return nil, err
	}
	return rc.Get(ctx, id.Name, api.GetOptions{})
}

// deleteObject mirrors GarbageCollector.deleteObject: the delete carries the UID and the
// resourceVersion it decided on, so an object replaced or changed meanwhile is not deleted
// (409, and the item is tried again).
func (gc *GarbageCollector) deleteObject(ctx context.Context, id objectReference, latest *api.Unstructured, policy, cause string) error {
	rc, err := gc.resourceFor(id)
	if err != nil {
		return err
	}
	uid, rv := id.UID, latest.GetResourceVersion()
	trace.Hop(gc.cc.Logger, component, "delete", id.String(), rv, traceCause(cause), slog.String("propagationPolicy", policy))
	err = rc.Delete(ctx, id.Name, api.DeleteOptions{
		Preconditions:     &api.Preconditions{UID: &uid, ResourceVersion: &rv},
		PropagationPolicy: &policy,
	})
	if api.IsNotFound(err) {
		return nil // gone already: its delete event cleans the graph
	}
	return err
}

// metaPatch sends a JSON merge patch of metadata guarded by the resourceVersion it was
// computed from; upstream patches the same fields (with a strategic merge patch where the
// kind has one, a merge patch otherwise).
func (gc *GarbageCollector) metaPatch(ctx context.Context, rc dynamic.ResourceInterface, latest *api.Unstructured, meta map[string]any) error {
	meta["resourceVersion"] = latest.GetResourceVersion()
	meta["uid"] = latest.GetUID()
	b, err := json.Marshal(map[string]any{"metadata": meta})
	if err != nil {
		return err
	}
	_, err = rc.Patch(ctx, latest.GetName(), api.MergePatchType, b, api.PatchOptions{})
	return err
}

// removeOwnerRefs mirrors the patch that drops references (GenerateDeleteOwnerRefStrategicMergeBytes
// and deleteOwnerRefJSONMergePatch): the item loses its references to the owners in drop.
func (gc *GarbageCollector) removeOwnerRefs(ctx context.Context, id objectReference, drop map[string]bool, cause string) error {
	rc, err := gc.resourceFor(id)
	if err != nil {
		return err
	}
	latest, err := rc.Get(ctx, id.Name, api.GetOptions{})
	if err != nil {
		return err
	}
	if latest.GetUID() != id.UID {
		return nil
	}
	keep := []any{}
	changed := false
	for _, r := range latest.GetOwnerReferences() {
		if drop[r.UID] {
			changed = true
			continue
		}
		keep = append(keep, r)
	}
	if !changed {
		return nil
	}
	trace.Hop(gc.cc.Logger, component, "remove-owner-refs", id.String(), latest.GetResourceVersion(), traceCause(cause))
	return gc.metaPatch(ctx, rc, latest, map[string]any{"ownerReferences": listOrNull(keep)})
}

// unblockOwnerRefs mirrors unblockOwnerReferencesStrategicMergePatch: every reference of the
// item stops blocking its owner's foreground deletion.
func (gc *GarbageCollector) unblockOwnerRefs(ctx context.Context, id objectReference) error {
	rc, err := gc.resourceFor(id)
	if err != nil {
		return err
	}
	latest, err := rc.Get(ctx, id.Name, api.GetOptions{})
	if err != nil {
		return err
	}
	refs := []any{}
	f := false
	for _, r := range latest.GetOwnerReferences() {
		r.BlockOwnerDeletion = &f
		refs = append(refs, r)
	}
	trace.Hop(gc.cc.Logger, component, "unblock-owner-refs", id.String(), latest.GetResourceVersion(), traceCause("dependency-cycle"))
	return gc.metaPatch(ctx, rc, latest, map[string]any{"ownerReferences": refs})
}

// removeFinalizer mirrors GarbageCollector.removeFinalizer: read the latest object and drop
// one finalizer, retrying on conflicts through the queue.
func (gc *GarbageCollector) removeFinalizer(ctx context.Context, id objectReference, finalizer, cause string) error {
	rc, err := gc.resourceFor(id)
	if err != nil {
		return err
	}
	latest, err := rc.Get(ctx, id.Name, api.GetOptions{})
	if api.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if latest.GetUID() != id.UID || !hasFinalizer(latest, finalizer) {
		return nil
	}
	keep := []any{}
	for _, f := range latest.GetFinalizers() {
		if f != finalizer {
			keep = append(keep, f)
		}
	}
	trace.Hop(gc.cc.Logger, component, "remove-finalizer", id.String(), latest.GetResourceVersion(), traceCause(cause), slog.String("finalizer", finalizer))
	err = gc.metaPatch(ctx, rc, latest, map[string]any{"finalizers": listOrNull(keep)})
	if api.IsNotFound(err) {
		return nil
	}
	return err
}

// listOrNull is a merge patch's value for a list: null removes the field when nothing is
// left, as upstream's strategic merge patch ($patch: delete of the last item) leaves it.
func listOrNull(l []any) any {
	if len(l) == 0 {
		return nil
	}
	return l
}
