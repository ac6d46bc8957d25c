// Package store is the informer's local cache: Store, Indexer and the ThreadSafeStore beneath
// them (threadSafeMap plus storeIndex), the key functions every other package shares, the
// DeletedFinalStateUnknown tombstone, and listers. It mirrors client-go tools/cache store.go,
// index.go, thread_safe_store.go, listers.go, object-names.go and listers/generic_helpers.go.
//
// The contract (IDs are those of docs/behaviour/client-go.md):
//
//  1. MetaNamespaceKeyFunc keys an object "namespace/name", or "name" when cluster-scoped; an
//     ExplicitKey is its own key; an object without metadata is an error, not a panic (K-1).
//  2. SplitMetaNamespaceKey inverts it; a key with more than one "/" is an error (K-2).
//  3. DeletionHandlingMetaNamespaceKeyFunc keys a DeletedFinalStateUnknown by its Key (K-3);
//     KeyAndResourceVersion adds the resourceVersion of the object, or of the last state a
//     tombstone carries, for trace lines and handlers.
//  4. Add and Update are one operation; a write refiles the key from the old object's index
//     values to the new object's, with a fast path when a single value is unchanged (TS-1, TS-2).
//  5. An index never keeps an empty value set, so ListIndexFuncValues lists only values that
//     have keys (TS-3).
//  6. An IndexFunc error during a write panics: it is a programming error (TS-4).
//  7. A delete unfiles the key using the stored object, never the caller's (TS-5).
//  8. Replace swaps the whole map and rebuilds every index; a key error aborts it untouched;
//     of two items with one key the later wins (TS-6, ST-4).
//  9. Get, List, Index and ByIndex return the stored pointers. Never mutate them: the index
//     would silently go stale (TS-7).
//  10. IndexKeys is sorted; an unknown index name is an error for Index, ByIndex and IndexKeys
//     and an empty list for ListIndexFuncValues (TS-8 … TS-11).
//  11. AddIndexers refuses a name clash and otherwise indexes the items already stored (TS-12).
//  12. LastStoreSyncResourceVersion is the RV of the last write, delete-with-object, Replace or
//     Bookmark; WithResourceVersionTracking(false) makes it "" as in client-go before v0.36
//     (TS-14).
//  13. One RWMutex guards everything; reads share it (TS-15).
//  14. A transformer runs after the key is computed, and its error stores nothing (ST-2).
//  15. Listers read only the cache; a missing object is a NotFound Status (L-1 … L-3).
//  16. With WithLogger, every write logs one Debug hop (component "indexer", op, key, rv); with
//     no logger or Debug disabled, tracing allocates nothing.
package store
