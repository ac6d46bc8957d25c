// Package admission is the simulated apiserver's admission chain, on the model of
// k8s.io/apiserver pkg/admission and the plugins kube-apiserver enables by default:
//
//  1. A Chain holds named plugins in the real server's order (DefaultOnPlugins, from
//     kube-apiserver's AllOrderedPlugins). Admit runs the mutating phase, Validate the validating one;
//     each runs the plugins that implement it and handle the operation, in order, and stops
//     at the first error, which is the answer.
//  2. The generic store runs the mutating phase after decoding and before the strategy's
//     validation, and the validating phase after it, for every write, dry runs included.
//  3. NamespaceLifecycle refuses content in a missing namespace (404) or a terminating one
//     (403 with the NamespaceTerminating cause). It also implements Rechecker: the store
//     asks it again under the storage's write lock, so that no object lands in a namespace
//     whose deletion has begun.
//  4. Plugins read cluster state only through Attributes.Namespaces, which the store binds
//     to the storage transaction it runs in.
package admission
