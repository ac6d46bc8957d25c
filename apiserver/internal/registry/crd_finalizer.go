package registry

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/apiextensions"
	"github.com/informer-lab/informer-lab/apiserver/storage"
)

// The CRD finalizer of apiextensions-apiserver (pkg/controller/finalizer), which runs inside
// the apiserver, so here whatever controllers the server runs. A CRD's DELETE only marks it
// (deleteCRD); this worker then, for each CRD with a deletionTimestamp and the cleanup
// finalizer:
//
//  1. sets Terminating True "InstanceDeletionInProgress";
//  2. deletes each custom object in a storage transaction of its own, as the finalizer's
//     DeleteCollection does through the storage (no admission), each with a DELETED event,
//     and first waits for room in the watchers' queues (WaitForRoom), so a reading watcher
//     gets every one. Meanwhile the resource is served for reads and deletes (a watch broken
//     now is re-listed and resumed, and learns the rest); creates are refused;
//  3. when objects held by their own finalizers remain, waits for them: a delete of one wakes
//     it. After a minute without the last one gone the round ends as upstream's poll does
//     (Terminating "InstanceDeletionCheck") and a new one starts;
//  4. once none is left, removes its finalizer with Terminating False
//     "InstanceDeletionCompleted" ("NeverEstablished" for a CRD never established). With no
//     other finalizer the CRD goes (its DELETED carries its last stored state, as etcd's
//     delete does), and in that write its resource's watches end and it leaves the table.
//
// The worker is started by the first CRD delete and returns when no CRD is left to finalize;
// the server's Close stops it (Background). A round sweeps the CRD's objects once (linear in
// them); a wake-up while it waits only counts them, so deleting held objects one by one
// costs O(1) each, not a sweep each.

// instanceDeletionTimeout is how long a round waits for the last objects: the finalizer's
// poll of deleteInstances gives up after a minute.
const instanceDeletionTimeout = time.Minute

// errCreateWhileTerminating is the reason of the 403 a create meets while the CRD is
// terminating (forbidCreateAdmission).
var errCreateWhileTerminating = errors.New("create not allowed while custom resource definition is terminating")

// overlappingBuiltIns mirrors OverlappingBuiltInResources: the CRDs whose objects would be
// built-in objects in storage, which the finalizer never deletes.
var overlappingBuiltIns = map[string]bool{
	"apiregistration.k8s.io/apiservices":             true,
	"apiextensions.k8s.io/customresourcedefinitions": true,
}

// refuseCreateWhileTerminating is crdHandler's forbidCreateAdmission: a create of a custom
// object whose CRD is terminating is forbidden, before any admission plugin runs.
func refuseCreateWhileTerminating(res *Resource, name string) error {
	if res.Terminating.Load() {
		return api.NewForbidden(res.Info.GroupResource(), name, errCreateWhileTerminating)
	}
	return nil
}

// CRDFinalizer mirrors apiextensions-apiserver's CRDFinalizer controller: its worker state.
type CRDFinalizer struct {
	// Background runs fn in a goroutine the server owns: closing the server cancels ctx and
	// waits for fn to return. It reports false, running nothing, once the server is closed.
	// Nil runs nothing: a deleted CRD then stays Terminating.
	Background func(fn func(ctx context.Context)) bool

	mu      sync.Mutex
	running bool
	wake    chan struct{} // one slot: there may be work
	// rounds holds the current round of each CRD (by uid); the worker's own.
	rounds map[string]*finalizerRound
}

// finalizerRound is one round of the finalizer over a CRD: it began at start, and swept
// tells that its objects have been deleted, so a wake-up only counts what is left. A round
// thus sweeps once, and waiting for held objects costs O(1) per wake-up.
type finalizerRound struct {
	start time.Time
	swept bool
}

// kickCRDFinalizer wakes the CRD finalizer, starting its worker when none runs. It takes no
// storage lock, so a transaction may call it.
func (s *Store) kickCRDFinalizer() {
	f := &s.CRDFinalizer
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.wake == nil {
		f.wake = make(chan struct{}, 1)
	}
	select {
	case f.wake <- struct{}{}:
	default:
	}
	if !f.running && f.Background != nil {
		f.running = f.Background(s.runCRDFinalizer)
	}
}

// runCRDFinalizer is the worker: a pass over the CRDs to finalize each time it is woken, or
// when a round's minute is up, until none is left or ctx ends.
func (s *Store) runCRDFinalizer(ctx context.Context) {
	f := &s.CRDFinalizer
	for {
		select {
		case <-f.wake: // this pass does what the wake-up asked for
		default:
		}
		wait, busy := s.finalizeCRDs(ctx)
		f.mu.Lock()
		if ctx.Err() != nil || !busy && len(f.wake) == 0 {
			f.running = false // a wake-up from now on starts another worker
			f.mu.Unlock()
			return
		}
		f.mu.Unlock()
		if !busy {
			continue // woken during the pass
		}
		t := s.Clock.NewTimer(wait)
		select {
		case <-ctx.Done():
		case <-f.wake:
		case <-t.C():
		}
		t.Stop()
	}
}

// finalizeCRDs runs the finalizer once over every CRD being deleted. busy reports that some
// still wait for their objects; wait is how long until the first of their rounds ends.
func (s *Store) finalizeCRDs(ctx context.Context) (wait time.Duration, busy bool) {
	crds := s.Table.Get(apiextensions.Group, "customresourcedefinitions")
	if crds == nil {
		return 0, false
	}
	var todo []*api.Unstructured
	_ = s.Storage.View(func(tx *storage.Tx) error {
		for _, key := range tx.Keys(crds.Coll) {
			if obj := tx.Get(crds.Coll, key).Obj; obj.GetDeletionTimestamp() != nil && slices.Contains(obj.GetFinalizers(), cleanupFinalizer) {
				todo = append(todo, obj)
			}
		}
		return nil
	})
	f := &s.CRDFinalizer
	live := map[string]*finalizerRound{}
	for _, crd := range todo {
		if r, ok := f.rounds[crd.GetUID()]; ok {
			live[crd.GetUID()] = r
		}
	}
	f.rounds = live // rounds of CRDs gone meanwhile are forgotten
	for _, crd := range todo {
		if ctx.Err() != nil {
			return 0, false
		}
		if left, waiting := s.finalizeCRD(ctx, crds, crd); waiting && (!busy || left < wait) {
			wait, busy = left, true
		}
	}
	return wait, busy
}

// finalizeCRD is CRDFinalizer.sync for one CRD: it reports whether the CRD still waits for
// objects, and for how long its round lasts.
func (s *Store) finalizeCRD(ctx context.Context, crds *Resource, crd *api.Unstructured) (time.Duration, bool) {
	f := &s.CRDFinalizer
	uid := crd.GetUID()
	round := f.rounds[uid]
	if round == nil {
		ok := s.writeCRD(crds, crd, func(obj *api.Unstructured) {
			apiextensions.SetTerminating(obj, "True", "InstanceDeletionInProgress", "CustomResource deletion is in progress", s.Now())
		})
		if !ok {
			return 0, false
		}
		round = &finalizerRound{start: s.Clock.Now()}
		f.rounds[uid] = round
	}
	spec := apiextensions.ReadSpec(crd)
	status, reason, message := "False", "InstanceDeletionCompleted", "removed all instances"
	switch r := s.Table.Get(spec.Group, spec.Names.Plural); {
	case overlappingBuiltIns[spec.Group+"/"+spec.Names.Plural]:
		reason, message = "OverlappingBuiltInResource", "instances overlap with built-in resources in storage"
	case !apiextensions.Established(crd):
		reason, message = "NeverEstablished", "resource was never established"
	case r == nil || r.CRDName != crd.GetName():
		// Not served (or shadowed by another resource): nothing of its own to delete.
	default:
		var left int
		if round.swept {
			_ = s.Storage.View(func(tx *storage.Tx) error {
				left = tx.Count(r.Coll)
				return nil
			})
		} else {
			var again bool
			left, again = s.deleteInstances(ctx, r)
			if ctx.Err() != nil {
				return 0, false
			}
			// An object created while the CRD was being marked: sweep again.
			round.swept = !again
		}
		if left > 0 {
			if !round.swept {
				return 0, true
			}
			elapsed := s.Clock.Since(round.start)
			if elapsed < instanceDeletionTimeout {
				return instanceDeletionTimeout - elapsed, true
			}
			delete(f.rounds, uid)
			ok := s.writeCRD(crds, crd, func(obj *api.Unstructured) {
				apiextensions.SetTerminating(obj, "True", "InstanceDeletionCheck", "could not confirm zero CustomResources remaining: context deadline exceeded", s.Now())
			})
			return 0, ok // the next round starts at once
		}
	}
	delete(f.rounds, uid)
	s.removeCleanupFinalizer(crds, crd, status, reason, message)
	return 0, false
}

// deleteInstances deletes every object of r that no finalizer holds yet, one transaction
// each, after waiting for room in the watchers' queues. It returns how many objects are
// left, and whether one of them is not marked for deletion (created meanwhile).
func (s *Store) deleteInstances(ctx context.Context, r *Resource) (left int, unmarked bool) {
	var keys []string
	_ = s.Storage.View(func(tx *storage.Tx) error {
		keys = slices.Clone(tx.Keys(r.Coll))
		return nil
	})
	for _, key := range keys {
		if ctx.Err() != nil {
			break
		}
		s.Storage.WaitForRoom(ctx, r.Coll) // every reading watcher gets every DELETED
		_ = s.Storage.Update(func(tx *storage.Tx) error {
			rec := tx.Get(r.Coll, key)
			if rec == nil || rec.Obj.GetDeletionTimestamp() != nil {
				return nil
			}
			if dr := s.removeIn(tx, r, rec, backgroundDelete, false); dr.Deleted && r.Info.Namespaced {
				s.maybeFinishNamespace(tx, rec.Namespace())
			}
			return nil
		})
	}
	_ = s.Storage.View(func(tx *storage.Tx) error {
		keys := tx.Keys(r.Coll)
		left = len(keys)
		unmarked = slices.ContainsFunc(keys, func(k string) bool { return tx.Get(r.Coll, k).Obj.GetDeletionTimestamp() == nil })
		return nil
	})
	return left, unmarked
}

// writeCRD applies change to the CRD as stored now, if it is still the same CRD being
// finalized, and writes it when it changed (an UpdateStatus). It reports whether the CRD is
// still there to finalize.
func (s *Store) writeCRD(crds *Resource, crd *api.Unstructured, change func(obj *api.Unstructured)) bool {
	ok := false
	_ = s.Storage.Update(func(tx *storage.Tx) error {
		cur := tx.Get(crds.Coll, storage.ObjectKey("", crd.GetName()))
		if cur == nil || cur.Obj.GetUID() != crd.GetUID() || !slices.Contains(cur.Obj.GetFinalizers(), cleanupFinalizer) {
			return nil
		}
		ok = true
		next := cur.Obj.DeepCopy()
		change(next)
		if !reflect.DeepEqual(next.Object["status"], cur.Obj.Object["status"]) { // change is a status update
			s.afterWrite(tx, crds, tx.Put(crds.Coll, cur, next), watch.Modified)
		}
		return nil
	})
	return ok
}

// removeCleanupFinalizer is the finalizer's last UpdateStatus: the Terminating condition
// given, the cleanup finalizer gone. With no finalizer left the CRD goes, as the store's
// update deletes an object whose last finalizer went; the DELETED carries the state stored
// before (etcd's prevKV), and the write ends the resource (dropCRD).
func (s *Store) removeCleanupFinalizer(crds *Resource, crd *api.Unstructured, status, reason, message string) {
	_ = s.Storage.Update(func(tx *storage.Tx) error {
		cur := tx.Get(crds.Coll, storage.ObjectKey("", crd.GetName()))
		if cur == nil || cur.Obj.GetUID() != crd.GetUID() || !slices.Contains(cur.Obj.GetFinalizers(), cleanupFinalizer) {
			return nil
		}
		next := cur.Obj.DeepCopy()
		apiextensions.SetTerminating(next, status, reason, message, s.Now())
		next.SetFinalizers(slices.DeleteFunc(next.GetFinalizers(), func(f string) bool { return f == cleanupFinalizer }))
		if len(next.GetFinalizers()) > 0 {
			s.afterWrite(tx, crds, tx.Put(crds.Coll, cur, next), watch.Modified)
			return nil
		}
		s.afterWrite(tx, crds, tx.Remove(crds.Coll, cur, cur.Obj.DeepCopy()), watch.Deleted)
		return nil
	})
}
