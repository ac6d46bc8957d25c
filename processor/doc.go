// Package processor is the fan-out stage of a shared informer: SharedProcessor distributes
// each notification to every handler's ProcessorListener, which buffers it in a growing ring
// and calls the handler from its own goroutine. It mirrors sharedProcessor and
// processorListener (client-go tools/cache/shared_informer.go), the handler types
// (controller.go), synctrack and k8s.io/utils/buffer's RingGrowing, exported here because the
// informer lives in another package and their structure is the lesson.
//
// The contract (IDs are those of docs/behaviour/client-go.md, §9):
//
//  1. A RingGrowing starts with its initial capacity, doubles on the write that finds it full
//     (a zero-capacity ring grows to 16), keeps FIFO order across growth, clears each slot it
//     reads and never shrinks. It is not safe for concurrent use (RB-1 … RB-5).
//  2. A ProcessorListener has two goroutines: pop takes from addCh, keeps one notification
//     for nextCh and rings the rest (initial capacity 1024); run calls the handler. Add never
//     waits for a handler; a stalled one only grows its own ring (PL-1, PL-2, PL-6, N-1).
//  3. A listener receives its notifications in Distribute order; listeners are not ordered or
//     coupled with one another (PL-3).
//  4. Distribute sends a non-sync notification to every listener and a sync notification only
//     to listeners whose syncing flag is set. When listeners are registered but Run has not
//     started them, it waits for Run (SP-2).
//  5. A listener is syncing when added; ShouldResync flags the due ones (period set, now ≥
//     nextResync, which starts at creation + period), moves their nextResync one period past
//     now and reports whether any is due (SP-1, SP-3, SP-4, SP-7); ResyncCheckPeriodChanged
//     recomputes periods with DetermineResyncPeriod (SP-5, SI-13.3).
//  6. Run starts every listener (AddListener at once once it runs), and when its context ends
//     stops them all and returns after every goroutine has exited; it runs once (SP-1, SP-6).
//  7. A registration's HasSynced is true once the informer's checker is done and every
//     initial-list add queued to this listener has returned from the handler; it never turns
//     false, and HasSyncedChecker exposes it as a channel (PL-4, PL-7, SI-15).
//  8. RemoveListener is idempotent: the listener drops its buffer, finishes the call in
//     progress and starts no other; ShutdownChan closes when its run goroutine exits (SI-16,
//     SI-17).
//  9. A handler panic follows the listener's PanicPolicy: ReallyCrash (the default) re-panics
//     and crashes the process; SkipAndContinue skips that notification and delivers the next
//     one after one second on the listener's clock. A skipped initial-list add leaves the
//     registration unsynced forever (PL-5, N-5).
//  10. ResourceEventHandlerFuncs drops isInInitialList, ResourceEventHandlerDetailedFuncs
//     passes it on, and FilteringResourceEventHandler turns an update that enters the filter
//     into OnAdd(obj, false) and one that leaves it into OnDelete(old) (C-12, SI-19).
//  11. With a logger, Distribute logs a "processor" distribute hop and each listener its add,
//     buffer, pop and deliver hops ("listener"); without one, tracing costs nothing.
//
// Where it differs from client-go on purpose is listed in shared_processor.go.
package processor
