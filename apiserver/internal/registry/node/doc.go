// Package node holds the strategy of node.k8s.io/v1 RuntimeClasses
// (pkg/registry/node/runtimeclass) and the deprecated node labels of pkg/api/node, which
// the storage.k8s.io strategies warn about too:
//
//  1. A RuntimeClass is cluster-scoped, has no spec, status or generation, and an update
//     must carry the resourceVersion it read (AllowUnconditionalUpdate is false).
//  2. Its strategy warns about a deprecated node label in scheduling.nodeSelector.
package node
