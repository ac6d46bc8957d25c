// Package controller is the worker half of a workqueue controller: the loop that takes keys
// from a rate-limiting workqueue, hands each to a reconcile function and decides about
// retries. It mirrors runWorker, processNextItem and handleErr of client-go
// examples/workqueue (main.go) and runWorker and processNextWorkItem of
// k8s.io/sample-controller (controller.go). Chapter 10 teaches it: its Controller runs a Loop
// with its sync handler, and the demo's scheduler, the scenario runner and the chaos suite
// (all three through internal/testbed) and chapter 13's Foo controller run this same loop
// with their own reconcile functions and hooks. It imports only workqueue.
//
// The contract (T19 is in docs/behaviour/client-go.md §13; the workqueue example is article 5
// of docs/articles.md):
//
//  1. A worker Gets a key, calls Reconcile with it, then handleErr, and always calls Done,
//     whether the reconcile succeeded, failed, or never ran, so the key can be handed out
//     again. One key is never reconciled by two workers at once (the workqueue's processing
//     set).
//  2. Once ctx has ended a worker finishes the key in hand, reconciles no other, and returns.
//     Run starts the workers, waits for ctx to end, shuts the queue down and returns only
//     after every worker has returned.
//  3. handleErr: success Forgets the key, so its next failure starts again at the base
//     delay. A failure is retried with AddRateLimited while NumRequeues is below MaxRetries;
//     after that the key is Forgotten and the error handed to HandleError, as
//     examples/workqueue hands it to utilruntime.HandleError (T19).
//  4. The hooks OnRetry and OnGiveUp run before the queue call they announce (AddRateLimited,
//     Forget), so a trace reads as decision, then effect; HandleError runs after the Forget.
//     Every hook may be nil.
package controller
