package apiserver

import (
	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/decode"
	"github.com/informer-lab/informer-lab/apiserver/storage"
)

// Deletes are immediate, pods included (the simulator plays a kubelet that has already
// stopped the containers, so kubectl delete returns at once, wire spec T6), unless finalizers
// hold the object: it is then marked with deletionTimestamp, may gain no new finalizer (422),
// and goes when an update empties them. Namespaces follow their own lifecycle
// (namespace_lifecycle.go).

// deleteResult is what a DELETE answers with (D4): the object's state after the call, and
// whether it is gone (false when finalizers or namespace termination keep it).
type deleteResult struct {
	rec     *record
	deleted bool
}

// remove deletes an object (Store.Delete; D1–D4, NS3, NS4). With dryRun in opts everything
// is checked and the answer is what the delete would leave, but nothing is written
// (DryRunnableStorage.Delete and GuaranteedUpdate). It runs in one storage transaction, so
// the finalizer check and the delete or mark see the same object.
func (s *Server) remove(res *resource, ns, name string, opts api.DeleteOptions) (deleteResult, error) {
	if isNamespaces(res) {
		return s.removeNamespace(res, name, opts)
	}
	var dr deleteResult
	err := s.store.Update(func(tx *storage.Tx) error {
		old, err := deleteTarget(tx, res, ns, name, opts)
		if err != nil {
			return err
		}
		dr = s.removeIn(tx, res, old, decode.IsDryRun(opts))
		if dr.deleted && !decode.IsDryRun(opts) && res.info.Namespaced {
			s.maybeFinishNamespace(tx, ns)
		}
		return nil
	})
	return dr, err
}

// deleteTarget finds the object to delete and checks the preconditions of opts.
func deleteTarget(tx *storage.Tx, res *resource, ns, name string, opts api.DeleteOptions) (*record, error) {
	gr := res.info.GroupResource()
	old := tx.Get(res.coll, objectKey(ns, name))
	if old == nil {
		return nil, api.NewNotFound(gr, name)
	}
	if p := opts.Preconditions; p != nil {
		pre := storage.Preconditions{UID: p.UID, ResourceVersion: p.ResourceVersion}
		if err := pre.Check(old); err != nil {
			return nil, api.NewConflict(gr, name, err)
		}
	}
	return old, nil
}

// removeIn deletes one record, or marks it with a deletionTimestamp when finalizers hold
// it. A dry run answers the same without writing: the marked copy keeps the stored RV. The
// caller finishes a namespace the delete may have emptied.
func (s *Server) removeIn(tx *storage.Tx, res *resource, old *record, dryRun bool) deleteResult {
	if len(old.Obj.GetFinalizers()) > 0 {
		if old.Obj.GetDeletionTimestamp() != nil {
			return deleteResult{rec: old}
		}
		obj := old.Obj.DeepCopy()
		now := s.now()
		obj.SetDeletionTimestamp(&now)
		zero := int64(0)
		obj.SetDeletionGracePeriodSeconds(&zero)
		if dryRun {
			return deleteResult{rec: s.store.NewRecord(obj, old.Key, old.RV)}
		}
		return deleteResult{rec: tx.Put(res.coll, old, obj)}
	}
	if dryRun {
		return deleteResult{rec: old, deleted: true}
	}
	rec := tx.Remove(res.coll, old, old.Obj.DeepCopy())
	if isServices(res) {
		s.serviceIPs.ReleaseService(rec.Obj.Object)
	}
	if isCRDs(res) {
		s.dropCRD(tx, rec.Obj)
	}
	return deleteResult{rec: rec, deleted: true}
}
