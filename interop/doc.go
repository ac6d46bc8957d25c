// Package interop is the root of the interop module: real Kubernetes clients against the
// simulated apiserver, in a module of its own so that the main module never depends on
// k8s.io/*. It holds no code; the work is in its packages:
//
//   - clientgo: stock client-go v0.37 (typed clientset, REST client, SharedIndexInformer,
//     pager) against the simulator over loopback HTTP, checking docs/behaviour/wire.md §8 and §11 T8–T15
//     request by request; benchmarks of an informer's initial sync, ours beside client-go's.
//   - internal/wiretest: the simulator behind a recording middleware, and the rest.Config a
//     client-go program needs for it.
//   - controllerruntime: chapter 15, chapter 13's Foo controller written with
//     controller-runtime and its TestCh15_ tests, side by side with our components.
//
// Differential tests and side-by-side benchmarks belong in further packages here
// (e.g. differential/, compare/), built on internal/wiretest.
package interop
