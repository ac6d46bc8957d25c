// Package processor is the fan-out stage of a shared informer: the SharedProcessor that
// distributes each notification to every registered handler, the ProcessorListener that
// buffers notifications for one handler in a growing ring and calls it from its own goroutine,
// the sync tracker behind each registration's HasSynced, and the handler interfaces. It
// mirrors the sharedProcessor, processorListener and notification types of client-go
// tools/cache/shared_informer.go, the handler types of tools/cache/controller.go,
// tools/cache/synctrack (SingleFileTracker) and k8s.io/utils/buffer (RingGrowing). client-go
// keeps the processor types unexported; they are exported here because the informer lives in
// another package and because their structure is the lesson.
//
// The contract (IDs refer to the behaviour specification, §9):
//
//  1. A RingGrowing starts with its initial capacity, doubles on the write that finds it full
//     (a zero-capacity ring grows to 16), keeps FIFO order across growth, clears each slot it
//     reads and never shrinks. It is not safe for concurrent use (RB-1 … RB-5).
//  2. Each registration is one ProcessorListener with two goroutines: Add sends on the
//     unbuffered addCh to pop, which keeps at most one notification for the unbuffered nextCh
//     and puts the rest in a ring of initial capacity 1024; run takes from nextCh and calls
//     the handler. pop is always ready to receive, so Add never waits for a handler, and a
//     stalled handler only grows its own ring (PL-1, PL-2, PL-6, N-1).
//  3. A listener receives its notifications in Distribute order; listeners are not ordered or
//     coupled with one another (PL-3).
//  4. Distribute sends a non-sync notification to every listener and a sync notification only
//     to listeners whose syncing flag is set. When listeners are registered but Run has not
//     started them, it waits for Run (SP-2).
//  5. Every listener is flagged as syncing when added. ShouldResync re-flags each listener as
//     "due" (effective period set and now ≥ nextResync), moves each due listener's nextResync
//     one period past now, and reports whether any is due; flags hold until the next call. A
//     listener's nextResync starts at its creation time plus its effective period (SP-1,
//     SP-3, SP-4, SP-7). ResyncCheckPeriodChanged recomputes effective periods with
//     DetermineResyncPeriod (SP-5, SI-13.3).
//  6. AddListener starts the listener's goroutines at once if the processor runs. Run starts
//     every registered listener (pop, run and the upstream-synced watcher), and when its
//     context ends stops them all, forgets them and returns after every goroutine has exited.
//     A processor runs once (SP-1, SP-6).
//  7. A registration's HasSynced is true once the informer's checker is done and every
//     initial-list add queued to this listener has returned from the handler; it never turns
//     false, and HasSyncedChecker exposes it as a channel (PL-4, PL-7, SI-15).
//  8. RemoveListener is idempotent and rejects values that are not registrations. The listener
//     drops what it has buffered, finishes the handler call in progress, starts no other, and
//     is not waited for; ShutdownChan closes once its run goroutine has exited, or at once for
//     a listener that never started (SI-16, SI-17).
//  9. A handler panic follows the listener's PanicPolicy: ReallyCrash (the default) re-panics
//     and crashes the process; SkipAndContinue skips that notification and delivers the next
//     one after one second on the listener's clock. A skipped initial-list add leaves the
//     registration unsynced forever (PL-5, N-5).
//  10. ResourceEventHandlerFuncs drops isInInitialList, ResourceEventHandlerDetailedFuncs
//     passes it on, and FilteringResourceEventHandler turns an update that enters the filter
//     into OnAdd(obj, false) and one that leaves it into OnDelete(old) (C-12, SI-19).
//  11. With a logger, Distribute logs one Debug hop (component "processor", op "distribute")
//     and each listener logs add, buffer, pop and deliver hops (component "listener", with
//     attributes listener and, where it matters, pending); key and rv come from the object's
//     metadata. Without one, tracing costs nothing.
//
// Where this package differs from client-go, on purpose:
//
//   - Removal and shutdown close a separate stop channel instead of addCh, so an Add that
//     comes late is dropped rather than panicking on a closed channel; run checks that channel
//     before each call, so no handler call starts after RemoveListener returns (client-go's
//     pop may still hand over a notification or two, at the mercy of select).
//   - AddListener on a stopped processor does not register the listener (client-go would, and
//     a later Distribute would then wait forever); a second Run returns at once.
//   - NewProcessorListener returns an error for a nil handler or checker and for negative
//     sizes or periods; FilteringResourceEventHandler tolerates nil fields; NewRingGrowing
//     treats a negative size as 0.
//   - The crash switch is a per-listener PanicPolicy instead of the global
//     utilruntime.ReallyCrash, and the one-second pause uses the injected clock.
package processor
