// Package workqueue is the queue a controller's workers read keys from: a basic queue that
// never hands one item to two workers at once, a delaying queue that adds items later, a
// rate-limiting queue that asks a rate limiter how much later, and the rate limiters. It
// mirrors client-go util/workqueue (queue.go, delaying_queue.go, rate_limiting_queue.go,
// default_rate_limiters.go) at v0.37, generic API first, with the untyped names kept as
// deprecated aliases. It stands alone: it imports nothing from the informer side.
//
// The contract (IDs are those of docs/behaviour/client-go.md, §11):
//
//  1. The basic queue keeps three sets: queue (ordered, waiting for a worker), dirty (needs
//     processing) and processing (handed out by Get, not yet Done). Every queued item is
//     dirty, no item is queued twice, and no queued item is processing (INV-23).
//  2. Add of a dirty item does nothing; Add of an item being processed only marks it dirty,
//     and its Done queues it again. So one item is never processed by two workers at once,
//     and any number of Adds collapse into one later Get (WQ-1 … WQ-4).
//  3. Get blocks until an item is queued or the queue shuts down; it returns (zero, true)
//     only when the queue is shutting down and empty. Len counts queued items only (WQ-2,
//     WQ-5).
//  4. ShutDown ignores further Adds and lets workers drain what is queued; an item made dirty
//     during processing is still requeued by its Done. ShutDownWithDrain also waits until
//     nothing is processing, and a later ShutDown releases it (WQ-6 … WQ-8).
//  5. AddAfter adds at once when the delay is ≤ 0; otherwise a waiting loop keeps the item on
//     a min-heap and adds it when due. Of several pending AddAfters of one item the earliest
//     wins. Time comes from the injected clock.Clock (WQ-20 … WQ-24).
//  6. ShutDown of a delaying queue discards the waiting items and returns only after the
//     waiting loop has exited, so no goroutine outlives it; ShutDownWithDrain stops the loop
//     once the drain ends (WQ-23).
//  7. AddRateLimited is AddAfter(item, limiter.When(item)); Forget and NumRequeues ask the
//     limiter and never touch the queue: a worker still calls Done (WQ-25).
//  8. The rate limiters return exactly client-go's delays: base·2ⁿ capped at max (also when
//     the arithmetic would overflow), fast then slow, a token bucket, the maximum of several,
//     a cap (WQ-30 … WQ-35). DefaultTypedControllerRateLimiter is the maximum of 5 ms·2ⁿ
//     capped at 1000 s and a bucket of 10 qps with burst 100.
//  9. Items must be comparable: use keys (strings, small structs), not pointers to objects.
//  10. With a Logger, each add, get, done, requeue (with its delay), forget and shutdown logs
//     one Debug hop, component "workqueue", key = the item printed with fmt, rv "". Without
//     one, tracing costs nothing: no allocation.
//  11. Misuse is survived, not panicked on: Done of an item that is not processing is ignored,
//     a nil rate limiter means DefaultTypedControllerRateLimiter, a bucket limiter without a
//     *rate.Limiter never waits.
package workqueue
