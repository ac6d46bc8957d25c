package garbagecollector

import (
	"context"
	"errors"
	"log/slog"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// errNamespacedOwnerOfClusterScoped mirrors namespacedOwnerOfClusterScopedObjectErr: a
// cluster-scoped object cannot be owned by a namespaced one; the item is dropped.
var errNamespacedOwnerOfClusterScoped = errors.New("cluster-scoped objects cannot refer to namespaced owners")

// snapshot is what a worker reads of a node under the lock.
type snapshot struct {
	n                  *node
	identity           objectReference
	virtual            bool
	beingDeleted       bool
	deletingDependents bool
	dependents         []*node
	blocking           []objectReference
}

func (gc *GarbageCollector) snapshot(uid string) (snapshot, bool) {
	gc.mu.Lock()
	defer gc.mu.Unlock()
	n, ok := gc.graph.uidToNode[uid]
	if !ok {
		return snapshot{}, false
	}
	s := snapshot{n: n, identity: n.identity, virtual: n.virtual, beingDeleted: n.beingDeleted, deletingDependents: n.deletingDependents}
	for d := range n.dependents {
		s.dependents = append(s.dependents, d)
	}
	for _, d := range n.blockingDependents() {
		if !d.deletingDependents {
			s.blocking = append(s.blocking, d.identity)
		}
	}
	return s, true
}

// attemptToDeleteWorker mirrors attemptToDeleteWorker: one item of attemptToDelete.
func (gc *GarbageCollector) attemptToDeleteWorker(ctx context.Context, uid string) error {
	s, ok := gc.snapshot(uid)
	if !ok {
		return nil // gone from the graph meanwhile
	}
	trace.Hop(gc.cc.Logger, component, "attempt-to-delete", s.identity.String(), "")
	err := gc.attemptToDeleteItem(ctx, s)
	trace.Hop(gc.cc.Logger, component, "attempt-to-delete-done", s.identity.String(), "", resultAttr(err))
	switch {
	case errors.Is(err, errNamespacedOwnerOfClusterScoped):
		return nil
	case err != nil:
		return err
	case s.virtual && gc.stillVirtual(uid):
		// A virtual node whose object exists: wait until an informer shows it, or a node
		// added and removed while a watch was down would stay in the graph for ever.
		return errNotObserved
	}
	return nil
}

func (gc *GarbageCollector) stillVirtual(uid string) bool {
	gc.mu.Lock()
	defer gc.mu.Unlock()
	n, ok := gc.graph.uidToNode[uid]
	return ok && n.virtual
}

// attemptToDeleteItem mirrors GarbageCollector.attemptToDeleteItem.
func (gc *GarbageCollector) attemptToDeleteItem(ctx context.Context, s snapshot) error {
	// Being deleted is a one-way trip; its dependents are handled once it is gone.
	if s.beingDeleted && !s.deletingDependents {
		return nil
	}
	latest, err := gc.getObject(ctx, s.identity)
	switch {
	case api.IsNotFound(err):
		gc.virtualDelete(s)
		return nil
	case err != nil:
		return err
	}
	if latest.GetUID() != s.identity.UID {
		gc.virtualDelete(s)
		return nil
	}
	if s.deletingDependents {
		return gc.processDeletingDependentsItem(ctx, s, latest)
	}
	refs := latest.GetOwnerReferences()
	if len(refs) == 0 {
		return nil
	}
	solid, dangling, waiting, err := gc.classifyReferences(ctx, s, refs)
	if err != nil {
		return err
	}
	switch {
	case len(solid) != 0:
		if len(dangling) == 0 && len(waiting) == 0 {
			return nil
		}
		// The references to owners that are gone, or wait for their dependents, go;
		// otherwise a foreground owner would wait for ever.
		drop := map[string]bool{}
		for _, r := range append(dangling, waiting...) {
			drop[r.UID] = true
		}
		return gc.removeOwnerRefs(ctx, s.identity, drop, "owner-gone")
	case len(waiting) != 0 && len(s.dependents) != 0:
		for _, dep := range s.dependents {
			if gc.isDeletingDependents(dep) {
				// A cycle could block for ever: the item's own references stop blocking.
				if err := gc.unblockOwnerRefs(ctx, s.identity); err != nil {
					return err
				}
				break
			}
		}
		return gc.deleteObject(ctx, s.identity, latest, api.DeletePropagationForeground, "owner-deleting-dependents")
	default:
		policy := api.DeletePropagationBackground
		switch {
		case hasFinalizer(latest, api.FinalizerOrphanDependents):
			policy = api.DeletePropagationOrphan
		case hasFinalizer(latest, api.FinalizerDeleteDependents):
			policy = api.DeletePropagationForeground
		}
		return gc.deleteObject(ctx, s.identity, latest, policy, "all-owners-gone")
	}
}

func (gc *GarbageCollector) isDeletingDependents(n *node) bool {
	gc.mu.Lock()
	defer gc.mu.Unlock()
	return n.deletingDependents
}

// virtualDelete mirrors enqueueVirtualDeleteEvent and its processing: a live GET found the
// item gone (or replaced by another UID), so its node leaves the graph, unless an informer
// has since observed an object of that UID under other coordinates.
func (gc *GarbageCollector) virtualDelete(s snapshot) {
	gc.mu.Lock()
	defer gc.mu.Unlock()
	n, ok := gc.graph.uidToNode[s.identity.UID]
	if !ok || n != s.n {
		return
	}
	if !n.virtual && n.identity != s.identity {
		return
	}
	trace.Hop(gc.cc.Logger, component, "virtual-delete", s.identity.String(), "", traceCause("not-found"))
	gc.removeExisting(n)
}

// classifyReferences mirrors classifyReferences: owners that exist (solid), are gone or
// replaced (dangling), or are being deleted in the foreground (waiting).
func (gc *GarbageCollector) classifyReferences(ctx context.Context, s snapshot, refs []api.OwnerReference) (solid, dangling, waiting []api.OwnerReference, err error) {
	for _, r := range refs {
		isDangling, owner, err := gc.isDangling(ctx, r, s.identity)
		if err != nil {
			return nil, nil, nil, err
		}
		switch {
		case isDangling:
			dangling = append(dangling, r)
		case owner.GetDeletionTimestamp() != nil && hasFinalizer(owner, api.FinalizerDeleteDependents):
			waiting = append(waiting, r)
		default:
			solid = append(solid, r)
		}
	}
	return solid, dangling, waiting, nil
}

// isDangling mirrors GarbageCollector.isDangling: the owner is verified with a live GET (the
// graph may lag), and one found missing is remembered.
func (gc *GarbageCollector) isDangling(ctx context.Context, r api.OwnerReference, item objectReference) (bool, *api.Unstructured, error) {
	key := objectReference{APIVersion: r.APIVersion, Kind: r.Kind, Name: r.Name, UID: r.UID}
	gc.mu.Lock()
	absent := gc.absentOwners[key]
	key.Namespace = item.Namespace
	absent = absent || gc.absentOwners[key]
	gc.mu.Unlock()
	if absent {
		return true, nil, nil
	}
	m, err := gc.mapper.lookup(r.APIVersion, r.Kind)
	if err != nil {
		return false, nil, err
	}
	if !m.namespaced {
		key.Namespace = ""
	}
	if item.Namespace == "" && m.namespaced {
		return false, nil, errNamespacedOwnerOfClusterScoped
	}
	owner, err := gc.cc.Client.Resource(m.gvr).Namespace(key.Namespace).Get(ctx, r.Name, api.GetOptions{})
	switch {
	case api.IsNotFound(err):
	case err != nil:
		return false, nil, err
	case owner.GetUID() == r.UID:
		return false, owner, nil
	}
	gc.mu.Lock()
	if len(gc.absentOwners) >= absentOwnerCacheSize {
		clear(gc.absentOwners) // upstream keeps an LRU of this size; forgetting costs a GET
	}
	gc.absentOwners[key] = true
	gc.mu.Unlock()
	return true, nil, nil
}

// absentOwnerCacheSize mirrors the size of upstream's absentOwnerCache.
const absentOwnerCacheSize = 500

// processDeletingDependentsItem mirrors the function of that name: an owner deleted in the
// foreground loses its foregroundDeletion finalizer once no dependent blocks it; until then
// its blocking dependents are sent to attemptToDelete.
func (gc *GarbageCollector) processDeletingDependentsItem(ctx context.Context, s snapshot, latest *api.Unstructured) error {
	gc.mu.Lock()
	blocking := s.n.blockingDependents()
	gc.mu.Unlock()
	if len(blocking) == 0 {
		return gc.removeFinalizer(ctx, s.identity, api.FinalizerDeleteDependents, "no-blocking-dependents")
	}
	for _, dep := range blocking {
		if !gc.isDeletingDependents(dep) {
			gc.attemptToDelete.Add(dep.identity.UID)
		}
	}
	return nil
}

// attemptToOrphanWorker mirrors attemptToOrphanWorker: every dependent loses its reference
// to the owner, then the owner loses the orphan finalizer.
func (gc *GarbageCollector) attemptToOrphanWorker(ctx context.Context, uid string) error {
	s, ok := gc.snapshot(uid)
	if !ok {
		return nil
	}
	trace.Hop(gc.cc.Logger, component, "attempt-to-orphan", s.identity.String(), "")
	err := gc.orphanDependents(ctx, s)
	trace.Hop(gc.cc.Logger, component, "attempt-to-orphan-done", s.identity.String(), "", resultAttr(err))
	return err
}

// orphanDependents strips the references to the owner, then its orphan finalizer.
func (gc *GarbageCollector) orphanDependents(ctx context.Context, s snapshot) error {
	for _, dep := range s.dependents {
		gc.mu.Lock()
		id := dep.identity
		gc.mu.Unlock()
		if err := gc.removeOwnerRefs(ctx, id, map[string]bool{s.identity.UID: true}, "orphan"); err != nil && !api.IsNotFound(err) {
			return err
		}
	}
	return gc.removeFinalizer(ctx, s.identity, api.FinalizerOrphanDependents, "dependents-orphaned")
}

// resultAttr is a worker's outcome for its end hop.
func resultAttr(err error) slog.Attr {
	if err != nil {
		return slog.String("result", err.Error())
	}
	return slog.String("result", "ok")
}
