// Package controllers runs the simulated cluster's own controllers beside the apiserver, as
// kube-controller-manager (and the scheduler and kubelets, simulated) run beside a real one.
// Each controller lives in its own package under controllers/ and is written only with this
// project's components: the informer factory, listers, the workqueue and controller.Loop.
// This package is the manager: it mirrors NewControllerDescriptors, the --controllers flag and
// StartControllers of k8s.io/kubernetes cmd/kube-controller-manager/app/controllermanager.go.
//
// The contract:
//
//  1. Known lists every controller by name. Options.Controllers selects them as
//     --controllers does: "*" is every controller that is on by default, "name" turns one on,
//     "-name" turns one off, and "none" (ours) none. An unknown name is an error.
//  2. Start builds one app.ControllerContext, runs every selected InitFunc (each asks for its
//     informers and adds its handlers), starts the shared informer factory, waits until every
//     cache has synced, and only then runs the controllers, each with its own workers.
//  3. Stop cancels every controller, waits for each Run to return, then shuts the informer
//     factory down; nothing started by Start outlives Stop.
//  4. The manager never imports the apiserver: it talks to whatever Options.Config reaches.
//     In tests that is the simulated apiserver over an in-process transport
//     (internal/inproc), so a whole cluster runs inside a testing/synctest bubble.
package controllers
