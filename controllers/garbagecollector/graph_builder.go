package garbagecollector

import (
	"context"
	"fmt"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/processor"
)

// eventType mirrors the graph builder's addEvent, updateEvent and deleteEvent.
type eventType int

const (
	addEvent eventType = iota
	updateEvent
	deleteEvent
)

// handlerFor mirrors the handlers GraphBuilder.controllerFor installs on each monitor. The
// events are applied to the graph at once, under the collector's lock, in the order the
// informers deliver them: upstream's single graphChanges consumer, without its queue.
func (gc *GarbageCollector) handlerFor(gvr api.GroupVersionResource, kind api.GroupVersionKind) processor.ResourceEventHandler {
	apiVersion := kind.APIVersion()
	return processor.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			if u, ok := app.AsUnstructured(obj); ok {
				gc.processGraphChanges(addEvent, apiVersion, kind.Kind, nil, u)
			}
		},
		UpdateFunc: func(oldObj, newObj any) {
			o, _ := app.AsUnstructured(oldObj)
			if u, ok := app.AsUnstructured(newObj); ok {
				gc.processGraphChanges(updateEvent, apiVersion, kind.Kind, o, u)
			}
		},
		DeleteFunc: func(obj any) {
			if u, ok := app.AsUnstructured(obj); ok {
				gc.processGraphChanges(deleteEvent, apiVersion, kind.Kind, nil, u)
			}
		},
	}
}

// identityOf is the object's coordinates.
func identityOf(apiVersion, kind string, u *api.Unstructured) objectReference {
	return objectReference{APIVersion: apiVersion, Kind: kind, Name: u.GetName(), UID: u.GetUID(), Namespace: u.GetNamespace()}
}

// processGraphChanges mirrors GraphBuilder.processGraphChanges for one informer event.
// Events it reports are written after the graph's lock is released.
func (gc *GarbageCollector) processGraphChanges(typ eventType, apiVersion, kind string, oldObj, obj *api.Unstructured) {
	gc.mu.Lock()
	defer gc.reportPending()
	defer gc.mu.Unlock()
	uid := obj.GetUID()
	existing, found := gc.graph.uidToNode[uid]
	if found && existing.virtual && typ != deleteEvent {
		// The owner a dependent named is observed now: its identity is the real one, and
		// the dependents that named it otherwise are verified (the bad child, then good
		// parent order; addDependentToOwners covers the other).
		observed := identityOf(apiVersion, kind, obj)
		if observed != existing.identity {
			for dep := range existing.dependents {
				if matchesObserved(dep, observed) {
					continue
				}
				if observed.Namespace != "" && dep.identity.Namespace != observed.Namespace {
					for _, r := range dep.owners {
						if r.UID == observed.UID {
							gc.linked(dep, linked{wrongNamespace: []api.OwnerReference{r}})
						}
					}
				}
				gc.attemptToDelete.Add(dep.identity.UID)
			}
			existing.identity = observed
		}
		existing.virtual = false
	}
	switch {
	case typ != deleteEvent && !found:
		n := &node{
			identity:     identityOf(apiVersion, kind, obj),
			dependents:   map[*node]struct{}{},
			owners:       obj.GetOwnerReferences(),
			beingDeleted: obj.GetDeletionTimestamp() != nil,
		}
		gc.linked(n, gc.graph.insertNode(n))
		// The informer may have folded a create and an update into one event.
		gc.processTransitions(oldObj, obj, n)
	case typ != deleteEvent && found:
		added, removed, unblocked := referencesDiffs(existing.owners, obj.GetOwnerReferences())
		if len(added)+len(removed)+len(unblocked) > 0 {
			// An owner waiting for its dependents may be free now.
			for _, r := range append(removed, unblocked...) {
				if o, ok := gc.graph.uidToNode[r.UID]; ok && o.deletingDependents {
					gc.attemptToDelete.Add(o.identity.UID)
				}
			}
			gc.graph.removeDependentFromOwners(existing, removed)
			existing.owners = obj.GetOwnerReferences()
			gc.linked(existing, gc.graph.addDependentToOwners(existing, added))
		}
		if obj.GetDeletionTimestamp() != nil {
			existing.beingDeleted = true
		}
		gc.processTransitions(oldObj, obj, existing)
	case typ == deleteEvent && found:
		gc.removeExisting(existing)
	}
}

// removeExisting mirrors the delete branch of processGraphChanges: the node leaves the
// graph, its dependents are checked (their owner is gone), and owners waiting in foreground
// deletion are checked again. The caller holds gc.mu.
func (gc *GarbageCollector) removeExisting(n *node) {
	gc.graph.removeNode(n)
	if len(n.dependents) > 0 {
		if len(gc.absentOwners) >= absentOwnerCacheSize {
			clear(gc.absentOwners)
		}
		gc.absentOwners[n.identity] = true
	}
	for dep := range n.dependents {
		gc.attemptToDelete.Add(dep.identity.UID)
	}
	for _, r := range n.owners {
		if o, ok := gc.graph.uidToNode[r.UID]; ok && o.deletingDependents {
			gc.attemptToDelete.Add(o.identity.UID)
		}
	}
}

// processTransitions mirrors GraphBuilder.processTransitions: an object that starts waiting
// for its dependents to be orphaned goes to attemptToOrphan; one that starts waiting for
// them to be deleted (foreground) marks its node and sends its dependents and itself to
// attemptToDelete. The caller holds gc.mu.
func (gc *GarbageCollector) processTransitions(oldObj, obj *api.Unstructured, n *node) {
	if obj.GetDeletionTimestamp() == nil {
		return
	}
	if startsWaiting(oldObj, obj, api.FinalizerOrphanDependents) {
		gc.attemptToOrphan.Add(n.identity.UID)
		return
	}
	if startsWaiting(oldObj, obj, api.FinalizerDeleteDependents) {
		n.deletingDependents = true
		for dep := range n.dependents {
			gc.attemptToDelete.Add(dep.identity.UID)
		}
		gc.attemptToDelete.Add(n.identity.UID)
	}
}

// startsWaiting mirrors startsWaitingForDependentsOrphaned and
// startsWaitingForDependentsDeleted: obj is being deleted with finalizer f, and oldObj was
// not (or is unknown).
func startsWaiting(oldObj, obj *api.Unstructured, f string) bool {
	if obj.GetDeletionTimestamp() == nil || !hasFinalizer(obj, f) {
		return false
	}
	return oldObj == nil || oldObj.GetDeletionTimestamp() == nil || !hasFinalizer(oldObj, f)
}

// linked queues what adding n to its owners found (the caller holds gc.mu): virtual owners
// to verify, n itself when a reference may be wrong, and mirrors
// reportInvalidNamespaceOwnerRef for an owner observed in another namespace.
func (gc *GarbageCollector) linked(n *node, l linked) {
	for _, o := range l.virtualOwners {
		gc.attemptToDelete.Add(o.identity.UID)
	}
	if l.verify {
		gc.attemptToDelete.Add(n.identity.UID)
	}
	for _, r := range l.wrongNamespace {
		owner := objectReference{APIVersion: r.APIVersion, Kind: r.Kind, Name: r.Name, UID: r.UID, Namespace: n.identity.Namespace}
		gc.pending = append(gc.pending, pendingEvent{regarding: n.identity,
			message: fmt.Sprintf("ownerRef %s does not exist in namespace %q", owner, n.identity.Namespace)})
	}
}

// pendingEvent is a Warning OwnerRefInvalidNamespace event waiting for the lock's release.
type pendingEvent struct {
	regarding objectReference
	message   string
}

// reportPending writes the events processGraphChanges queued.
func (gc *GarbageCollector) reportPending() {
	gc.mu.Lock()
	evs := gc.pending
	gc.pending = nil
	gc.mu.Unlock()
	for _, e := range evs {
		u := &api.Unstructured{Object: map[string]any{"apiVersion": e.regarding.APIVersion, "kind": e.regarding.Kind,
			"metadata": map[string]any{"name": e.regarding.Name, "namespace": e.regarding.Namespace, "uid": e.regarding.UID}}}
		gc.cc.Recorder.Eventf(context.Background(), component, u, app.EventTypeWarning, "OwnerRefInvalidNamespace", "%s", e.message)
	}
}

// matchesObserved mirrors partitionDependents for one dependent: its reference to the
// observed owner has the owner's coordinates, and a namespaced owner is in its namespace.
func matchesObserved(dep *node, observed objectReference) bool {
	for _, r := range dep.owners {
		if r.UID != observed.UID {
			continue
		}
		if r.APIVersion != observed.APIVersion || r.Kind != observed.Kind || r.Name != observed.Name {
			return false
		}
		return observed.Namespace == "" || dep.identity.Namespace == observed.Namespace
	}
	return true
}
