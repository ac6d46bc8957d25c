package apiserver

import (
	"errors"
	"fmt"
	"slices"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/decode"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
	"github.com/informer-lab/informer-lab/apiserver/storage"
)

// The namespace lifecycle (NS1–NS4): the namespace strategy, the NamespaceLifecycle
// admission check, the namespace REST's Delete, and the namespace controller that empties a
// Terminating namespace and then finalizes it. A namespace leaves only when it holds no
// object and its spec and metadata finalizers are gone, whatever write arrives meanwhile:
//
//  1. A namespace is created with the spec finalizer "kubernetes".
//  2. A DELETE marks it Terminating and deletes its contents one object per hold of the
//     storage lock: O(objects in it), and nothing elsewhere waits longer than one object's
//     delete.
//  3. Once it is empty "kubernetes" is removed and, with no other spec finalizer (PUT
//     …/finalize) or metadata finalizer left, it goes. No other write ends it.
//  4. Creating in a missing namespace is 404, in a terminating one 403.

func isNamespaces(res *resource) bool {
	return res.info.builtin && res.info.Kind == "Namespace"
}

// prepareNamespaceForCreate mirrors the namespace strategy's PrepareForCreate: the phase is
// Active and the spec finalizer "kubernetes" is always there, so the namespace controller
// decides when the namespace may go.
func prepareNamespaceForCreate(ns *api.Unstructured) {
	ns.Object["status"] = map[string]any{"phase": string(api.NamespaceActive)}
	fin := specFinalizers(ns)
	if !slices.Contains(fin, api.FinalizerKubernetes) {
		setSpecFinalizers(ns, append(fin, api.FinalizerKubernetes))
	}
}

// prepareNamespaceForUpdate mirrors the namespace strategy's PrepareForUpdate: a write to
// the main resource keeps the stored spec finalizers (only the finalize subresource changes
// them) and, once deletion has begun, the Terminating phase.
func prepareNamespaceForUpdate(ns, stored *api.Unstructured) {
	setSpecFinalizers(ns, specFinalizers(stored))
	if ns.GetDeletionTimestamp() != nil {
		_ = api.SetNestedField(ns.Object, string(api.NamespaceTerminating), "status", "phase")
	}
}

// withNamespaceFinalizersOf is the finalize subresource (namespaceFinalizeStrategy): a copy
// of stored with only the spec finalizers of updated.
func withNamespaceFinalizersOf(stored, updated *api.Unstructured) *api.Unstructured {
	out := stored.DeepCopy()
	setSpecFinalizers(out, specFinalizers(updated))
	return out
}

// specFinalizers reads a namespace's spec.finalizers.
func specFinalizers(ns *api.Unstructured) []string {
	list, _ := nestedSlice(ns.Object, "spec", "finalizers")
	out := make([]string, 0, len(list))
	for _, f := range list {
		if s, ok := f.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// setSpecFinalizers writes spec.finalizers, removing the member when there are none.
func setSpecFinalizers(ns *api.Unstructured, fin []string) {
	if len(fin) == 0 {
		if spec, ok := ns.Object["spec"].(map[string]any); ok {
			delete(spec, "finalizers")
		}
		return
	}
	list := make([]any, len(fin))
	for i, f := range fin {
		list[i] = f
	}
	_ = api.SetNestedField(ns.Object, list, "spec", "finalizers")
}

// namespacePhase reads status.phase.
func namespacePhase(ns *api.Unstructured) api.NamespacePhase {
	p, _, _ := api.NestedString(ns.Object, "status", "phase")
	return api.NamespacePhase(p)
}

// namespaceAccepts is the NamespaceLifecycle admission check (NS1, NS2).
func (s *Server) namespaceAccepts(tx *storage.Tx, res *resource, m api.MetaObject) error {
	rec := tx.Get(s.namespaces.coll, m.GetNamespace())
	if rec == nil {
		return api.NewNotFound(api.GroupResource{Resource: "namespaces"}, m.GetNamespace())
	}
	if namespacePhase(rec.Obj) == api.NamespaceTerminating || rec.Obj.GetDeletionTimestamp() != nil {
		st := api.NewForbidden(res.info.GroupResource(), m.GetName(), fmt.Errorf(
			"unable to create new content in namespace %s because it is being terminated", m.GetNamespace()))
		st.Details.Causes = []api.StatusCause{{
			Type:    api.NamespaceTerminatingCause,
			Message: fmt.Sprintf("namespace %s is being terminated", m.GetNamespace()),
			Field:   "metadata.namespace",
		}}
		return st
	}
	return nil
}

// removeNamespace marks the namespace Terminating, deletes its contents and removes it once
// nothing is left (NS4). Objects held by finalizers keep it Terminating until they go.
//
// The contents are deleted one object per storage transaction, as the namespace controller
// deletes them one request at a time, so a namespace of 100k objects never stalls requests
// elsewhere: the cost is O(objects in it), and nothing else waits longer than one object's
// delete. A dry run only answers with the namespace as the delete would mark it.
func (s *Server) removeNamespace(res *resource, name string, opts api.DeleteOptions) (deleteResult, error) {
	type contents struct {
		res  *resource
		keys []string
	}
	var all []contents
	var old, cur *record
	var dry *deleteResult
	err := s.store.Update(func(tx *storage.Tx) error {
		var err error
		old, err = deleteTarget(tx, res, "", name, opts)
		if err == nil && protectedNamespaces[name] {
			err = api.NewForbidden(res.info.GroupResource(), name, errors.New("this namespace may not be deleted"))
		}
		if err != nil {
			return err
		}
		cur = old
		if old.Obj.GetDeletionTimestamp() == nil {
			obj := old.Obj.DeepCopy()
			now := s.now()
			obj.SetDeletionTimestamp(&now)
			_ = api.SetNestedField(obj.Object, string(api.NamespaceTerminating), "status", "phase")
			if decode.IsDryRun(opts) {
				dry = &deleteResult{rec: s.store.NewRecord(obj, old.Key, old.RV)}
				return nil
			}
			cur = tx.Put(res.coll, old, obj)
		} else if decode.IsDryRun(opts) {
			dry = &deleteResult{rec: old}
			return nil
		}
		for _, r := range s.namespacedResources() {
			if keys := tx.KeysIn(r.coll, name); len(keys) > 0 {
				all = append(all, contents{r, keys})
			}
		}
		return nil
	})
	if err != nil {
		return deleteResult{}, err
	}
	if dry != nil {
		return *dry, nil
	}

	// The namespace is Terminating, so nothing new can appear in it meanwhile; what was
	// deleted or marked by someone else in between is skipped.
	for _, c := range all {
		for _, key := range c.keys {
			_ = s.store.Update(func(tx *storage.Tx) error {
				if rec := tx.Get(c.res.coll, key); rec != nil && rec.Obj.GetDeletionTimestamp() == nil {
					s.removeIn(tx, c.res, rec, false)
				}
				return nil
			})
		}
	}

	var dr deleteResult
	_ = s.store.Update(func(tx *storage.Tx) error {
		switch gone := s.maybeFinishNamespace(tx, name); {
		case gone != nil:
			dr = deleteResult{rec: gone, deleted: true}
		case tx.Get(res.coll, old.Key) != nil:
			dr = deleteResult{rec: tx.Get(res.coll, old.Key)}
		case tx.LastDeleted(res.coll, old.Key) != nil: // a concurrent write finished it first
			dr = deleteResult{rec: tx.LastDeleted(res.coll, old.Key), deleted: true}
		default:
			dr = deleteResult{rec: cur, deleted: true}
		}
		return nil
	})
	return dr, nil
}

// namespacedResources returns the namespaced resources in table order.
func (s *Server) namespacedResources() []*resource {
	s.tableMu.RLock()
	defer s.tableMu.RUnlock()
	var out []*resource
	for _, id := range sortedKeys(s.resources) {
		if r := s.resources[id]; r.info.Namespaced {
			out = append(out, r)
		}
	}
	return out
}

// namespaceHoldsObjects reports whether any resource has an object in ns.
func (s *Server) namespaceHoldsObjects(tx *storage.Tx, ns string) bool {
	s.tableMu.RLock()
	defer s.tableMu.RUnlock()
	for _, r := range s.resources {
		if r.info.Namespaced && tx.CountIn(r.coll, ns) > 0 {
			return true
		}
	}
	return false
}

// maybeFinishNamespace is the namespace controller's last step: once a Terminating
// namespace holds no object, it removes the "kubernetes" spec finalizer, and when no spec or
// metadata finalizer is left the namespace goes. It returns the deleted record, or nil when
// the namespace stays. The emptiness check is O(resources), from the per-namespace counts.
func (s *Server) maybeFinishNamespace(tx *storage.Tx, ns string) *record {
	if ns == "" {
		return nil
	}
	rec := tx.Get(s.namespaces.coll, ns)
	if rec == nil || rec.Obj.GetDeletionTimestamp() == nil {
		return nil
	}
	if s.namespaceHoldsObjects(tx, ns) {
		return nil
	}
	obj := rec.Obj.DeepCopy()
	before := specFinalizers(rec.Obj)
	finalized := slices.DeleteFunc(slices.Clone(before), func(f string) bool { return f == api.FinalizerKubernetes })
	changed := len(finalized) != len(before)
	setSpecFinalizers(obj, finalized)
	if len(finalized) > 0 || len(obj.GetFinalizers()) > 0 {
		if changed {
			tx.Put(s.namespaces.coll, rec, obj)
		}
		return nil
	}
	return tx.Remove(s.namespaces.coll, rec, obj)
}

// servesSubresource says which subresources a resource has: status where the kind has one,
// scale for deployments, replicasets and statefulsets, and finalize for namespaces.
func servesSubresource(res *resource, sub string) bool {
	switch sub {
	case "status":
		return res.info.hasStatus()
	case "finalize":
		return isNamespaces(res)
	case "scale":
		return res.info.hasScale()
	}
	return false
}

// namespacePhaseCauses mirrors ValidateNamespaceStatusUpdate: the phase follows the
// deletionTimestamp, so no status write can bring a Terminating namespace back to Active.
func namespacePhaseCauses(ns *api.Unstructured) []api.StatusCause {
	phase := namespacePhase(ns)
	switch {
	case ns.GetDeletionTimestamp() == nil && phase != api.NamespaceActive:
		return []api.StatusCause{validation.Invalid("status.Phase", string(phase), "may only be 'Active' if `deletionTimestamp` is empty")}
	case ns.GetDeletionTimestamp() != nil && phase != api.NamespaceTerminating:
		return []api.StatusCause{validation.Invalid("status.Phase", string(phase), "may only be 'Terminating' if `deletionTimestamp` is not empty")}
	}
	return nil
}
