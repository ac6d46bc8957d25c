// Package app is what every controller of the simulated cluster is built from: the
// ControllerContext that hands a controller its client, its shared informers and its event
// recorder, and small helpers over unstructured objects (typed views, owner references,
// queue keys). It mirrors k8s.io/kubernetes cmd/kube-controller-manager/app (ControllerContext,
// InitFunc) and the helpers of pkg/controller (controller_utils.go, controller_ref_manager.go),
// reduced to what our controllers use. It imports only this project's client components
// (rest, client/dynamic, informer, workqueue, controller), never the apiserver: a controller
// is a client, as kube-controller-manager is, and runs against any server.
//
// The contract:
//
//  1. A ControllerContext is built once per cluster and shared by every controller: one
//     dynamic client, one SharedInformerFactory (so two controllers watching pods share one
//     informer, as kube-controller-manager's controllers do), one Recorder and one Logger.
//     Informers are asked for before the factory starts; the manager starts the factory after
//     every InitFunc has run and waits for the caches before any controller's Run.
//  2. NewQueue builds a named rate-limiting workqueue with client-go's default controller
//     rate limiter and records it, so QueueDepths reports every controller's queue (the
//     dashboard reads it).
//  3. FromUnstructured and ToUnstructured convert between the server's JSON shape and a
//     controller's typed view through encoding/json; a field the view does not declare is
//     lost, so a controller writes with patches or re-reads before a full update.
//  4. The Recorder writes events.k8s.io/v1 Events (one store with core/v1 Events on the
//     server), each naming its regarding object, reason, action and note, as
//     k8s.io/client-go/tools/events does. Recording never blocks a controller: a failed write
//     is logged and dropped.
//  5. Every controller logs at Debug with component (its name), op, key and rv, and costs
//     nothing when the Logger's Debug level is off.
package app
