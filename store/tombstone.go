package store

import "github.com/informer-lab/informer-lab/api"

// DeletedFinalStateUnknown mirrors cache.DeletedFinalStateUnknown in client-go
// tools/cache/delta_fifo.go (K-5). The queue produces one when a relist shows that an object is
// gone but the delete event was never seen. Obj is the last state the client knew: it may be
// stale, and it may be nil. Handlers receive this value, not the object, in OnDelete, so they
// must unwrap it before a type assertion.
type DeletedFinalStateUnknown struct {
	Key string
	Obj any
}

// DeletionHandlingMetaNamespaceKeyFunc mirrors cache.DeletionHandlingMetaNamespaceKeyFunc
// (K-3): a tombstone's Key is returned without looking at Obj; anything else goes to
// MetaNamespaceKeyFunc. Informer indexers use it so that tombstones can be keyed.
func DeletionHandlingMetaNamespaceKeyFunc(obj any) (string, error) {
	if d, ok := obj.(DeletedFinalStateUnknown); ok {
		return d.Key, nil
	}
	return MetaNamespaceKeyFunc(obj)
}

// DeletionHandlingObjectToName mirrors cache.DeletionHandlingObjectToName.
func DeletionHandlingObjectToName(obj any) (ObjectName, error) {
	if d, ok := obj.(DeletedFinalStateUnknown); ok {
		return ParseObjectName(d.Key)
	}
	return ObjectToName(obj)
}

// KeyAndResourceVersion is ours: client-go has no such helper, yet every trace line, handler
// and controller that reports an object wants it. It returns the key
// DeletionHandlingMetaNamespaceKeyFunc gives obj ("" when it has none), the resourceVersion of
// obj or, for a DeletedFinalStateUnknown, of the last state the tombstone carries ("" when it
// carries none or has no metadata), and whether obj was a tombstone.
func KeyAndResourceVersion(obj any) (key, rv string, tombstone bool) {
	key, _ = DeletionHandlingMetaNamespaceKeyFunc(obj)
	if d, ok := obj.(DeletedFinalStateUnknown); ok {
		obj, tombstone = d.Obj, true
	}
	if m, err := api.Accessor(obj); err == nil {
		rv = m.GetResourceVersion()
	}
	return key, rv, tombstone
}
