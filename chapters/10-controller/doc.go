// Package ch10 is the controller of chapter 10: the sample-controller pattern end to end, on
// our informer, lister and workqueue. It mirrors the Controller of k8s.io/sample-controller
// (controller.go) and of client-go's examples/workqueue (main.go), reduced to one kind. The
// business logic plays a tiny kubelet: for every pod it "runs" the pod's images (in memory)
// and reports status.phase Running with a Ready condition that names them; when the pod is
// gone it stops them.
//
// The contract (T17 is in docs/behaviour/client-go.md §13; the workqueue example is article 5 of
// docs/articles.md):
//
//  1. Handlers only enqueue keys. OnAdd, OnUpdate and OnDelete turn the object into
//     "namespace/name" with store.DeletionHandlingMetaNamespaceKeyFunc, so a
//     DeletedFinalStateUnknown tombstone yields the key of the pod it stands for, and Add it to
//     the workqueue. They never read the server and never block.
//  2. Workers Get a key, call SyncHandler, then handleErr, then Done. One key is never synced
//     by two workers at once (the workqueue's processing set). That loop is controller.Loop
//     (controller/loop.go), a package of its own because it is the lab's only one: the
//     demo's scheduler, the scenario runner, the chaos suite and chapter 13 run it too, with
//     their own reconcile function and hooks.
//  3. SyncHandler is level-triggered: it reads the pod from the lister, never from the event,
//     so it always acts on the newest state the cache holds. Many events for one key between
//     two syncs cost one sync (T17).
//  4. A pod missing from the lister is gone, whether its delete arrived as an event or as a
//     tombstone after a relist: the sync stops what runs for it.
//  5. A sync never mutates a cached object: it writes a DeepCopy through PodClient.UpdateStatus,
//     and only when the status differs, so the sync caused by its own write is a no-op.
//  6. handleErr: success Forgets the key (its backoff starts again at 5 ms). A failure is
//     retried with AddRateLimited while NumRequeues < controller.MaxRetries (5 ms, 10 ms,
//     20 ms, … with the default limiter); after MaxRetries retries the key is Forgotten and
//     the error is reported to Options.ErrorHandler, like utilruntime.HandleError. The retry
//     and drop hops are logged before the queue's requeue and forget hops, so a trace reads
//     as decision, then effect.
//  7. Run waits for the informer's cache to sync before starting workers, returns an error if
//     ctx ends first, and returns only after every worker has exited. Once ctx ends a worker
//     finishes the sync in hand and starts no other.
//  8. With a Logger, the controller logs one Debug hop per enqueue, sync, retry and drop
//     (component "controller"); without one, tracing costs nothing.
package ch10
