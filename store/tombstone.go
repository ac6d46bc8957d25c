package store

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
