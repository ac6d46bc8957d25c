package apiserver

import (
	"strconv"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/apiserver/internal/decode"
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
// (DryRunnableStorage.Delete and GuaranteedUpdate).
func (s *Server) remove(res *resource, ns, name string, opts api.DeleteOptions) (deleteResult, error) {
	if isNamespaces(res) {
		return s.removeNamespace(res, name, opts)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	old, err := s.deleteTargetLocked(res, ns, name, opts)
	if err != nil {
		return deleteResult{}, err
	}
	dr := s.removeLocked(res, old, decode.IsDryRun(opts))
	if dr.deleted && !decode.IsDryRun(opts) && res.info.Namespaced {
		s.maybeFinishNamespaceLocked(ns)
	}
	return dr, nil
}

// deleteTargetLocked finds the object to delete and checks the preconditions of opts.
func (s *Server) deleteTargetLocked(res *resource, ns, name string, opts api.DeleteOptions) (*record, error) {
	gr := res.info.GroupResource()
	old := res.objects[objectKey(ns, name)]
	if old == nil {
		return nil, api.NewNotFound(gr, name)
	}
	if p := opts.Preconditions; p != nil {
		if p.UID != nil && *p.UID != old.meta.GetUID() {
			return nil, api.NewConflict(gr, name, preconditionFailed("UID", *p.UID, old.meta.GetUID()))
		}
		if p.ResourceVersion != nil && *p.ResourceVersion != strconv.FormatUint(old.rv, 10) {
			return nil, api.NewConflict(gr, name, preconditionFailed("ResourceVersion", *p.ResourceVersion, strconv.FormatUint(old.rv, 10)))
		}
	}
	return old, nil
}

// removeLocked deletes one record, or marks it with a deletionTimestamp when finalizers hold
// it. A dry run answers the same without writing: the marked copy keeps the stored RV. The
// caller finishes a namespace the delete may have emptied.
func (s *Server) removeLocked(res *resource, old *record, dryRun bool) deleteResult {
	if len(old.meta.GetFinalizers()) > 0 {
		if old.meta.GetDeletionTimestamp() != nil {
			return deleteResult{rec: old}
		}
		obj := old.obj.DeepCopy()
		now := s.now()
		obj.SetDeletionTimestamp(&now)
		zero := int64(0)
		obj.SetDeletionGracePeriodSeconds(&zero)
		if dryRun {
			return deleteResult{rec: newRecord(obj, old.key, old.rv)}
		}
		return deleteResult{rec: s.commit(res, watch.Modified, old.key, obj, old).obj}
	}
	if dryRun {
		return deleteResult{rec: old, deleted: true}
	}
	rec := s.commit(res, watch.Deleted, old.key, old.obj.DeepCopy(), old).obj
	if isCRDs(res) {
		s.dropCRDLocked(rec.obj)
	}
	return deleteResult{rec: rec, deleted: true}
}
