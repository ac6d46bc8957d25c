package registry

import (
	"errors"
	"fmt"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/admission"
	"github.com/informer-lab/informer-lab/apiserver/storage"
)

// txStore binds admission.Store to one storage transaction: what the real plugins read
// through their informers' listers and write through their clients.
type txStore struct {
	s     *Store
	tx    *storage.Tx
	write bool // inside storage.Update: UpdateStatus may write
}

var _ admission.Store = txStore{}

// admissionStore returns the admission.Store of tx.
func (s *Store) admissionStore(tx *storage.Tx, write bool) admission.Store {
	return txStore{s: s, tx: tx, write: write}
}

// Get implements admission.Store.
func (t txStore) Get(group, resource, ns, name string) *api.Unstructured {
	r := t.s.Table.getNoAlloc(group, resource)
	if r == nil {
		return nil
	}
	if rec := t.tx.Get(r.Coll, storage.ObjectKey(ns, name)); rec != nil {
		return rec.Obj
	}
	return nil
}

// List implements admission.Store.
func (t txStore) List(group, resource, ns string) []*api.Unstructured {
	r := t.s.Table.getNoAlloc(group, resource)
	if r == nil {
		return nil
	}
	var keys []string
	if ns != "" {
		keys = t.tx.KeysIn(r.Coll, ns)
	} else {
		keys = t.tx.Keys(r.Coll)
	}
	out := make([]*api.Unstructured, 0, len(keys))
	for _, k := range keys {
		if rec := t.tx.Get(r.Coll, k); rec != nil {
			out = append(out, rec.Obj)
		}
	}
	return out
}

// errReadOnly is UpdateStatus outside a write transaction.
var errReadOnly = errors.New("admission: a write outside a write transaction")

// UpdateStatus implements admission.Store: obj replaces the stored object of its key.
func (t txStore) UpdateStatus(group, resource string, obj *api.Unstructured) error {
	if !t.write {
		return errReadOnly
	}
	r := t.s.Table.Get(group, resource)
	if r == nil {
		return fmt.Errorf("admission: no resource %s.%s", resource, group)
	}
	old := t.tx.Get(r.Coll, storage.ObjectKey(obj.GetNamespace(), obj.GetName()))
	if old == nil {
		return api.NewNotFound(r.Info.GroupResource(), obj.GetName())
	}
	t.tx.Put(r.Coll, old, obj)
	return nil
}

var _ admission.KindResolver = txStore{}

// ResourceFor implements admission.KindResolver.
func (t txStore) ResourceFor(group, version, kind string) (string, bool, bool) {
	r := t.s.Table.ForKind(api.GroupVersionKind{Group: group, Version: version, Kind: kind})
	if r == nil {
		return "", false, false
	}
	return r.Info.Resource, r.Info.Namespaced, true
}
