// Package deltafifo holds the queues between the Reflector and the informer: DeltaFIFO, the
// classic queue the articles describe (client-go informers up to v0.32), RealFIFO, the queue
// client-go v0.33+ informers use (non-atomic in v0.33–v0.35, atomic in v0.36+), and FIFO, the
// latest-state queue kept for contrast. It mirrors client-go tools/cache delta_fifo.go,
// the_real_fifo.go and fifo.go.
//
// The contract (IDs are those of docs/behaviour/client-go.md):
//
//  1. A delta records one change: Added, Updated, Deleted, Replaced, Sync, and in atomic
//     RealFIFO also ReplacedAll, SyncAll and Bookmark. A Deleted delta's object may be a
//     store.DeletedFinalStateUnknown tombstone, which handlers must unwrap.
//  2. DeltaFIFO keeps every pending delta of a key together and keeps the key where it first
//     entered the queue; one Pop hands over the key's whole history (DF-2, DF-3, D-1).
//  3. DeltaFIFO merges only two consecutive deletions, keeping the more informative object,
//     and drops a delete of a key that is neither queued nor known (DF-4, DF-5, D-2).
//  4. Replace tombstones the keys that vanished: DeltaFIFO after the list's deltas, non-atomic
//     RealFIFO before them, atomic RealFIFO not at all (the informer finds them when it
//     processes the single ReplacedAll delta) (DF-7, RF-4, RF-5, D-4).
//  5. Resync replays known objects as Sync deltas and skips keys with pending deltas; atomic
//     RealFIFO appends one SyncAll instead (DF-8, RF-6, D-3). Resync never calls the server.
//  6. RealFIFO appends exactly one delta per event and pops them in arrival order, one per Pop
//     or a batch of distinct keys per PopBatch (RF-2, RF-11).
//  7. Pop blocks until there is an item, and returns ErrFIFOClosed once the queue is closed and
//     empty. An error from the process function is returned and the item is not requeued:
//     ErrRequeue was removed in client-go v0.33 (DF-9, DF-10, DF-12, RF-9).
//  8. HasSynced turns true once the initial population has been popped (DeltaFIFO) or
//     processed (RealFIFO), and never turns false; Done is closed at that moment (DF-11,
//     RF-9, D-7).
//  9. With a logger, each enqueue, pop and tombstone logs one Debug hop (component "fifo");
//     without one, tracing costs nothing.
package deltafifo
