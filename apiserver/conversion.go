package apiserver

import "github.com/informer-lab/informer-lab/api"

// Kinds served in another form than they are stored in (registry.Resource.ToStorage and
// FromStorage): an events.k8s.io/v1 Event is stored as the core/v1 Event it converts to, in
// the core Events' collection, and converted back on every answer, as kube-apiserver's
// codec converts through the internal type. A request body is converted once decoded
// (decodeObject); every record a client gets goes through served: a read, a list's items,
// a watch's events, a write's answer. The converted record is cached on the stored one, so
// every watcher of a view shares its encodings.

// served returns rec as res serves it.
func (s *endpoints) served(res *resource, rec *record) *record {
	if rec == nil || res.FromStorage == nil {
		return rec
	}
	return rec.View(res, func(r *record) *record {
		return s.store.NewRecord(&api.Unstructured{Object: res.FromStorage(r.Obj.Object)}, r.Key, r.RV)
	})
}

// servedList returns lr with its items as res serves them.
func (s *endpoints) servedList(res *resource, lr listResult) listResult {
	if res.FromStorage == nil {
		return lr
	}
	items := make([]*record, len(lr.Items))
	for i, rec := range lr.Items {
		items[i] = s.served(res, rec)
	}
	lr.Items = items
	return lr
}

// toStorage converts a decoded request body into the form res stores.
func toStorage(res *resource, obj *api.Unstructured) *api.Unstructured {
	if res.ToStorage == nil {
		return obj
	}
	return &api.Unstructured{Object: res.ToStorage(obj.Object)}
}
