// Package typed is the type model field ownership walks: which members of an object are
// fields, which lists are sets or maps with keys, which maps and lists are atomic. It mirrors
// sigs.k8s.io/structured-merge-diff/v6 schema and typed (validate.go, tofieldset.go,
// compare.go, merge.go, remove.go, helpers.go), and the conversion of OpenAPI schemas to that
// model in k8s.io/kube-openapi pkg/schemaconv (openapi.go, smd.go), which
// managedfields.NewTypeConverter runs in kube-apiserver.
//
// The contract:
//
//  1. An Atom is a scalar, a list or a map, or several of them (an untyped node: the actual
//     value picks). Named definitions are shared Atoms, so recursive schemas are finite.
//  2. Lists take their kind from x-kubernetes-list-type (atomic, set, map with
//     x-kubernetes-list-map-keys) and, failing that, from the patch strategy: merge with a
//     merge key is a map-list, merge without one a set, anything else atomic. Maps are
//     granular unless x-kubernetes-map-type says atomic, on the definition or on the property
//     that refers to it. Quantity is an untyped scalar, RawExtension untyped and atomic; an
//     object without properties, or under x-kubernetes-preserve-unknown-fields, takes unknown
//     members with the deduced type.
//  3. The walks take values as the unstructured decoder gives them and never change them.
//     Their errors carry upstream's text and paths (".spec.ports[port=80,protocol=\"TCP\"]").
package typed
