// Package controllerruntime is chapter 15 of the course: chapter 13's Foo controller written
// again with sigs.k8s.io/controller-runtime v0.25 (a manager, its cache, a Reconciler,
// For(&Foo{}), Owns(&appsv1.Deployment{}) and Client.Apply), and tests against the simulated
// apiserver that show, side by side, which of the earlier chapters' components each
// controller-runtime piece wraps, what it adds and what it hides. The chapter's README is
// chapters/15-controller-runtime/README.md.
//
// Foo is a small hand-written type (foo.go) registered in a runtime.Scheme; FooReconciler
// (reconciler.go) is sample-controller's syncHandler as a Reconcile. Everything else, the
// informers, handlers, workqueue and workers of chapter 13's controller.go, is the library's.
package controllerruntime
