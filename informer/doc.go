// Package informer is the top of the pipeline: the low-level controller (Config, New,
// processLoop, processDeltas), the non-shared informer of the articles (NewInformer,
// NewIndexerInformer), SharedIndexInformer, and SharedInformerFactory. It mirrors client-go
// tools/cache/controller.go, shared_informer.go and informers/factory.go.
//
// The contract:
//
//  1. The queue between reflector and informer is chosen by Profile: ProfileCurrent (the
//     zero value; client-go v0.37: atomic RealFIFO, lock released while processing, batched
//     pops, watch-list), ProfileInOrder (v0.33–v0.34: RealFIFO) or ProfileClassic (≤ v0.32:
//     DeltaFIFO, what the articles describe). docs/behaviour/client-go.md §14 lists what handlers see differently.
//     Only ProfileCurrent's cache reports LastStoreSyncResourceVersion (D-8, TS-14).
//  2. Cache first, then notify: every handler call happens after the indexer holds the
//     object it reports (C-5..C-9, SI-8). Whether a change is an add or an update is decided
//     by the cache, not by the delta type.
//  3. A Deleted delta always reaches OnDelete, possibly as a store.DeletedFinalStateUnknown.
//  4. processLoop never retries: an error from processing drops the item (C-3). Retrying is
//     the workqueue's job.
//  5. A shared informer runs once. Its HasSynced latches true when the queue has handed out
//     the initial list and stays false if it stopped before that (SI-4).
//  6. A handler added to a running informer first receives one add per cached object, marked
//     isInInitialList, before any later event (SI-14). Its registration's HasSynced turns true
//     when those adds have returned (SI-15).
//  7. An update whose old and new objects carry the same resourceVersion is a resync, sent only
//     to handlers whose resync period is due (SI-10, SP-3).
//  8. The factory builds one informer per type, starts only what was asked for, and Shutdown
//     waits for every informer it started (FA-1..FA-5).
//  9. Objects handed to handlers and listers are shared with the cache: never mutate them.
//  10. A Pauser (ours, not client-go's) holds processLoop before its next pop while the queue
//     keeps filling, so tests and chapters can show how each profile hands over a backlog.
//  11. Bad input is not a panic: a nil handler of NewInformer does nothing, a factory without a
//     source builds informers that report the problem and never sync.
//  12. A typed handler (TypedResourceEventHandler[T], registered with AddTypedEventHandler)
//     receives its deletes as DeletedObject[T]: a tombstone sets FinalStateUnknown and, when it
//     carries one, OptionalObj; GetKey is the tombstone's key, else the object's (C-13).
package informer
