package registry

import (
	"errors"
	"slices"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/core"
	"github.com/informer-lab/informer-lab/apiserver/storage"
)

// The namespace lifecycle beyond its strategy and its admission plugin: the namespace REST's
// Delete and, with NamespaceDeletionInServer, the namespace controller that empties a
// Terminating namespace and then finalizes it. Otherwise (markNamespace) the DELETE only
// marks it, as kube-apiserver's does, and controllers/namespace does the rest through the
// API. In-server, a namespace leaves only when it holds no object and its spec and metadata
// finalizers are gone, whatever write arrives meanwhile:
//
//  1. A DELETE marks it Terminating and deletes its contents one object per storage
//     transaction: O(objects in it), and nothing elsewhere waits longer than one object's
//     delete.
//  2. Once it is empty "kubernetes" is removed and, with no other spec finalizer (PUT
//     …/finalize) or metadata finalizer left, it goes. No other write ends it.

// backgroundDelete is how the namespace controller deletes a namespace's contents
// (deleteCollection in namespaced_resources_deleter.go): dependents go in the background.
var backgroundDelete = func() api.DeleteOptions {
	p := api.DeletePropagationBackground
	return api.DeleteOptions{PropagationPolicy: &p}
}()

// protectedNamespaces may not be deleted.
var protectedNamespaces = map[string]bool{"default": true, "kube-system": true, "kube-public": true}

// deleteNamespace marks the namespace Terminating, deletes its contents and removes it once
// nothing is left. Objects held by finalizers keep it Terminating until they go. A dry run
// only answers with the namespace as the delete would mark it.
func (s *Store) deleteNamespace(res *Resource, name string, opts api.DeleteOptions, dryRun bool) (DeleteResult, error) {
	if !s.NamespaceDeletionInServer {
		return s.markNamespace(res, name, opts, dryRun)
	}
	type contents struct {
		res  *Resource
		keys []string
	}
	var all []contents
	var old, cur *storage.Record
	var dry *DeleteResult
	err := s.Storage.Update(func(tx *storage.Tx) error {
		var err error
		old, err = deleteTarget(tx, res, "", name, opts)
		if err == nil && protectedNamespaces[name] {
			err = api.NewForbidden(res.Info.GroupResource(), name, errors.New("this namespace may not be deleted"))
		}
		if err != nil {
			return err
		}
		cur = old
		if old.Obj.GetDeletionTimestamp() == nil {
			obj := old.Obj.DeepCopy()
			now := s.Now()
			obj.SetDeletionTimestamp(&now)
			_ = api.SetNestedField(obj.Object, string(api.NamespaceTerminating), "status", "phase")
			if dryRun {
				dry = &DeleteResult{Rec: s.Storage.NewRecord(obj, old.Key, old.RV)}
				return nil
			}
			cur = tx.Put(res.Coll, old, obj)
		} else if dryRun {
			dry = &DeleteResult{Rec: old}
			return nil
		}
		for _, r := range s.Table.Namespaced() {
			if keys := tx.KeysIn(r.Coll, name); len(keys) > 0 {
				all = append(all, contents{r, keys})
			}
		}
		return nil
	})
	if err != nil {
		return DeleteResult{}, err
	}
	if dry != nil {
		return *dry, nil
	}

	// The namespace is Terminating, so nothing new can appear in it meanwhile; what was
	// deleted or marked by someone else in between is skipped.
	for _, c := range all {
		for _, key := range c.keys {
			_ = s.Storage.Update(func(tx *storage.Tx) error {
				if rec := tx.Get(c.res.Coll, key); rec != nil && rec.Obj.GetDeletionTimestamp() == nil {
					s.removeIn(tx, c.res, rec, backgroundDelete, false)
				}
				return nil
			})
		}
	}

	var dr DeleteResult
	_ = s.Storage.Update(func(tx *storage.Tx) error {
		switch gone := s.maybeFinishNamespace(tx, name); {
		case gone != nil:
			dr = DeleteResult{Rec: gone, Deleted: true}
		case tx.Get(res.Coll, old.Key) != nil:
			dr = DeleteResult{Rec: tx.Get(res.Coll, old.Key)}
		case tx.LastDeleted(res.Coll, old.Key) != nil: // a concurrent write finished it first
			dr = DeleteResult{Rec: tx.LastDeleted(res.Coll, old.Key), Deleted: true}
		default:
			dr = DeleteResult{Rec: cur, Deleted: true}
		}
		return nil
	})
	return dr, nil
}

// maybeFinishNamespace is the namespace controller's last step: once a Terminating
// namespace holds no object, it removes the "kubernetes" spec finalizer, and when no spec or
// metadata finalizer is left the namespace goes. It returns the deleted record, or nil when
// the namespace stays. The emptiness check is O(resources), from the per-namespace counts.
func (s *Store) maybeFinishNamespace(tx *storage.Tx, ns string) *storage.Record {
	if ns == "" {
		return nil
	}
	if !s.NamespaceDeletionInServer {
		return s.finishFinalizedNamespace(tx, ns)
	}
	nsRes := s.Table.namespaces
	rec := tx.Get(nsRes.Coll, ns)
	if rec == nil || rec.Obj.GetDeletionTimestamp() == nil {
		return nil
	}
	if s.Table.holdsObjects(tx, ns) {
		return nil
	}
	obj := rec.Obj.DeepCopy()
	before := core.SpecFinalizers(rec.Obj)
	finalized := slices.DeleteFunc(slices.Clone(before), func(f string) bool { return f == api.FinalizerKubernetes })
	changed := len(finalized) != len(before)
	core.SetSpecFinalizers(obj, finalized)
	if len(finalized) > 0 || len(obj.GetFinalizers()) > 0 {
		if changed {
			tx.Put(nsRes.Coll, rec, obj)
		}
		return nil
	}
	return tx.Remove(nsRes.Coll, rec, obj)
}

// markNamespace mirrors the namespace REST's Delete (pkg/registry/core/namespace/storage)
// when the namespace controller does the rest: the first DELETE sets deletionTimestamp, the
// Terminating phase and the garbage collector's finalizers the options ask for, and keeps
// spec.finalizers; a later one deletes the namespace once spec.finalizers is empty (its
// metadata finalizers may still hold it) and otherwise answers with it unchanged.
func (s *Store) markNamespace(res *Resource, name string, opts api.DeleteOptions, dryRun bool) (DeleteResult, error) {
	var dr DeleteResult
	err := s.Storage.Update(func(tx *storage.Tx) error {
		old, err := deleteTarget(tx, res, "", name, opts)
		if err == nil && protectedNamespaces[name] {
			err = api.NewForbidden(res.Info.GroupResource(), name, errors.New("this namespace may not be deleted"))
		}
		if err != nil {
			return err
		}
		if old.Obj.GetDeletionTimestamp() == nil {
			obj := old.Obj.DeepCopy()
			now := s.Now()
			obj.SetDeletionTimestamp(&now)
			_ = api.SetNestedField(obj.Object, string(api.NamespaceTerminating), "status", "phase")
			if fins, changed := deletionFinalizers(res, old.Obj, opts); changed {
				obj.SetFinalizers(fins)
			}
			if dryRun {
				dr = DeleteResult{Rec: s.Storage.NewRecord(obj, old.Key, old.RV)}
			} else {
				dr = DeleteResult{Rec: tx.Put(res.Coll, old, obj)}
			}
			return nil
		}
		if len(core.SpecFinalizers(old.Obj)) > 0 {
			dr = DeleteResult{Rec: old}
			return nil
		}
		dr = s.removeIn(tx, res, old, opts, dryRun)
		return nil
	})
	return dr, err
}

// finishFinalizedNamespace is what a write to a Terminating namespace can finish when the
// namespace controller runs outside: a namespace with neither spec nor metadata finalizers
// left goes (ShouldDeleteNamespaceDuringUpdate). Its contents are the controller's business.
func (s *Store) finishFinalizedNamespace(tx *storage.Tx, ns string) *storage.Record {
	nsRes := s.Table.namespaces
	rec := tx.Get(nsRes.Coll, ns)
	if rec == nil || rec.Obj.GetDeletionTimestamp() == nil {
		return nil
	}
	if len(core.SpecFinalizers(rec.Obj)) > 0 || len(rec.Obj.GetFinalizers()) > 0 {
		return nil
	}
	return tx.Remove(nsRes.Coll, rec, rec.Obj.DeepCopy())
}
