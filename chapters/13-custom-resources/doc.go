// Package ch13 is the controller of chapter 13: k8s.io/sample-controller rebuilt on our
// informers, workqueue and dynamic client. A Foo (samplecontroller.k8s.io/v1alpha1, a custom
// resource with no Go type) names a Deployment and a replica count; the controller keeps that
// Deployment in step and reports its available replicas in the Foo's status.
//
// The contract:
//
//  1. Foos and Deployments are *api.Unstructured, cached by two informers of one shared
//     factory (ForResource). Every write goes through a dynamic.Interface: Deployments are
//     created and updated, the Foo's status is written with UpdateStatus, Events are created.
//  2. Handlers only enqueue Foo keys. A Foo's add, update and delete enqueue the Foo. A
//     Deployment's add, update (a new resourceVersion only) and delete, a tombstone included,
//     enqueue the Foo named by its controller reference, if the cache holds that Foo; other
//     Deployments are ignored.
//  3. Workers run controller.Loop, the loop of chapter 10, over a rate-limited workqueue: a
//     failed sync is retried with backoff up to controller.MaxRetries times, then dropped and
//     reported to Options.ErrorHandler.
//  4. The sync is level-triggered: it reads the Foo and the Deployment from the listers, never
//     from the event. A Foo missing from the cache is done with: its Deployment is left in
//     place (no garbage collector runs in the simulated apiserver). A Foo without
//     spec.deploymentName, or with a field of the wrong type, is reported and not retried.
//  5. A missing Deployment is created with a controller reference to the Foo (controller and
//     blockOwnerDeletion true, the Foo's UID). A Deployment of that name the Foo does not
//     control is never touched: the sync records a Warning event ErrResourceExists and
//     returns an error, so it is retried.
//  6. When the Foo's spec.replicas differs from the Deployment's, the sync updates a copy of
//     the cached Deployment, resourceVersion included, so a stale cache costs a 409 and a
//     retry, never a lost or double write.
//  7. The Foo's status gets availableReplicas (the Deployment's) and observedGeneration (the
//     Foo's metadata.generation the sync acted on), through the status subresource, and only
//     when they differ; the status write bumps the resourceVersion but not the generation,
//     so the sync it causes writes nothing.
//  8. Every successful sync records a Normal event Synced. Events are core/v1 Event objects,
//     written synchronously by Recorder; a failed event write is reported, never fatal.
//  9. With a Logger, the controller logs Debug hops (component "controller"): enqueue, sync
//     (with its result), event and orphan.
package ch13
