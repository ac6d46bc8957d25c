package registry

import (
	"context"
	"errors"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/admission"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/storage"
)

// Deletes are immediate unless finalizers hold the object: it is then marked with
// deletionTimestamp, may gain no new finalizer (422), and goes when an update empties them.
// A pod bound to a node is deleted gracefully as upstream's (graceful.go): it is marked with
// deletionTimestamp now+grace and waits for its kubelet's final delete with
// gracePeriodSeconds=0; with no kubelet it stays Terminating, as on a real server. A
// Foreground or Orphan delete (and the default of a few kinds) first adds the garbage
// collector's finalizer (delete_gc.go), so such an object stays until the collector, or
// anyone, removes it. Namespaces follow their own lifecycle.

// DeleteResult is what a DELETE answers with: the object's state after the call, and
// whether it is gone (false when finalizers or namespace termination keep it).
type DeleteResult struct {
	Rec     *storage.Record
	Deleted bool
}

// Delete deletes an object (Store.Delete). With dryRun everything is checked and the answer
// is what the delete would leave, but nothing is written (DryRunnableStorage.Delete and
// GuaranteedUpdate). It runs in one storage transaction, so the finalizer check and the
// delete or mark see the same object.
func (s *Store) Delete(ctx context.Context, res *Resource, ns, name string, opts api.DeleteOptions, dryRun bool) (DeleteResult, error) {
	if isNamespaces(res) {
		return s.deleteNamespace(res, name, opts, dryRun)
	}
	var dr DeleteResult
	err := s.Storage.Update(func(tx *storage.Tx) error {
		old, err := deleteTarget(tx, res, ns, name, opts)
		if err != nil {
			return err
		}
		if err := s.admitDelete(ctx, tx, res, old, dryRun); err != nil {
			return err
		}
		if g, ok := res.Strategy.(rest.GracefulDeleter); ok {
			var done bool
			if dr, done = s.deleteGracefully(tx, res, g, old, opts, dryRun); done {
				return nil
			}
		}
		dr = s.removeIn(tx, res, old, opts, dryRun)
		if dr.Deleted && !dryRun && res.Info.Namespaced {
			s.maybeFinishNamespace(tx, ns)
		}
		return nil
	})
	return dr, err
}

// deleteTarget finds the object to delete and checks the preconditions of opts.
func deleteTarget(tx *storage.Tx, res *Resource, ns, name string, opts api.DeleteOptions) (*storage.Record, error) {
	gr := res.Info.GroupResource()
	old := tx.Get(res.Coll, storage.ObjectKey(ns, name))
	if old == nil {
		return nil, api.NewNotFound(gr, name)
	}
	if p := opts.Preconditions; p != nil {
		pre := storage.Preconditions{UID: p.UID, ResourceVersion: p.ResourceVersion}
		if err := pre.Check(old); err != nil {
			var ie *storage.InvalidObjError
			if errors.As(err, &ie) {
				return nil, api.NewConflict(gr, name, ie)
			}
			return nil, err
		}
	}
	return old, nil
}

// removeIn deletes one record, or marks it with a deletionTimestamp when finalizers hold
// it (updateForGracefulDeletionAndFinalizers): the garbage collector's finalizers first
// follow opts (orphan, foregroundDeletion; deletionFinalizers), so a Foreground or Orphan
// delete keeps the object for the collector, as a real server does. A dry run answers the
// same without writing: the marked copy keeps the stored RV. The caller finishes a
// namespace the delete may have emptied.
func (s *Store) removeIn(tx *storage.Tx, res *Resource, old *storage.Record, opts api.DeleteOptions, dryRun bool) DeleteResult {
	if isCRDs(res) && old.Obj.GetDeletionTimestamp() == nil {
		return s.deleteCRD(tx, res, old, dryRun)
	}
	fins, changed := deletionFinalizers(res, old.Obj, opts)
	if len(fins) > 0 {
		// Marked already: nothing to write, unless the mark came without a grace period (a
		// CRD's first DELETE), which markAsDeleting then sets to 0, as upstream's does.
		if old.Obj.GetDeletionTimestamp() != nil && !changed && old.Obj.GetDeletionGracePeriodSeconds() != nil {
			return DeleteResult{Rec: old}
		}
		obj := old.Obj.DeepCopy()
		if changed {
			obj.SetFinalizers(fins)
		}
		markAsDeleting(obj, s.Now())
		if dryRun {
			return DeleteResult{Rec: s.Storage.NewRecord(obj, old.Key, old.RV)}
		}
		return DeleteResult{Rec: tx.Put(res.Coll, old, obj)}
	}
	if dryRun {
		return DeleteResult{Rec: old, Deleted: true}
	}
	rec := tx.Remove(res.Coll, old, old.Obj.DeepCopy())
	if isCRDs(res) {
		s.dropCRD(tx, rec.Obj)
		s.syncCRDAPIServices(tx, rec.Obj)
	} else if hooks, ok := res.Strategy.(rest.Hooks); ok {
		hooks.AfterDelete(rec.Obj)
	}
	if res.Terminating.Load() {
		s.kickCRDFinalizer() // its CRD may be waiting for this one
	}
	return DeleteResult{Rec: rec, Deleted: true}
}

// admitDelete runs the validating admission of a delete (the ValidatingAdmissionPolicies
// that match DELETE): oldObject is the stored object, object is null.
func (s *Store) admitDelete(ctx context.Context, tx *storage.Tx, res *Resource, old *storage.Record, dryRun bool) error {
	attrs := s.attributes(admission.Delete, res, nil, old.Obj, "", dryRun)
	attrs.Name = old.Obj.GetName()
	if res.Info.Namespaced {
		attrs.Namespace = old.Obj.GetNamespace()
	}
	attrs.Namespaces = s.namespaceReader(tx)
	attrs.Store = s.admissionStore(tx, false)
	return s.Admission.Validate(ctx, attrs)
}

// markAsDeleting mirrors the function of that name in store.go: the first mark bumps a
// generation the kind keeps and sets deletionTimestamp; the grace period is zero.
func markAsDeleting(obj *api.Unstructured, now api.Time) {
	if obj.GetDeletionTimestamp() == nil {
		if g := obj.GetGeneration(); g > 0 {
			obj.SetGeneration(g + 1)
		}
		obj.SetDeletionTimestamp(&now)
	}
	zero := int64(0)
	obj.SetDeletionGracePeriodSeconds(&zero)
}
