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
//  4. Plugins read cluster state only through Attributes.Namespaces and Attributes.Store,
//     which the store binds to the storage transaction it runs in (the real plugins'
//     informers, without their lag).
//  5. The pod plugins: LimitRanger (defaults and limits of LimitRanges), ServiceAccount
//     (the account, its token volume and mounts; a missing account is refused, `default`
//     too unless Config assumes it), PodSecurity (namespace labels), Priority,
//     DefaultTolerationSeconds and RuntimeClass. The others: TaintNodesByCondition,
//     DefaultStorageClass, StorageObjectInUseProtection, DefaultIngressClass,
//     CertificateSubjectRestriction, and ResourceQuota, a Rechecker that charges
//     status.used in the write's transaction. Their messages are the real ones.
//  6. Not here: the admission policies and webhooks, CertificateApproval and
//     CertificateSigning (with AlwaysAllow they admit everything), and the plugins whose
//     feature gates are off or that only act on subresources this simulator does not
//     serve with their rules (PodResizeValidator, PersistentVolumeClaimResize, ...).
package admission
