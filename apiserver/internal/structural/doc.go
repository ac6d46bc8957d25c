// Package structural is the structural schema of a custom resource: the openAPIV3Schema of a
// CustomResourceDefinition version, checked, and used to prune, default and validate the
// custom objects of that version. It mirrors, much reduced, k8s.io/apiextensions-apiserver
// pkg/apiserver/schema (structural schemas, pruning, defaulting) and pkg/apiserver/validation
// over k8s.io/kube-openapi pkg/validation (value validation and its messages).
//
// The contract:
//
//  1. Parse reads a schema tree (the JSON of openAPIV3Schema) and reports every rule of a
//     structural schema it breaks as field causes under the path it is given: a type at
//     every level (unless x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields
//     stand in), no keyword we do not know, metadata at the root limited to name and
//     generateName, and x-kubernetes-validations (CEL), which this simulator refuses.
//  2. Prune removes, in place, every member a schema does not know, unless
//     x-kubernetes-preserve-unknown-fields keeps it, and returns the removed paths in
//     sorted order as `unknown field "spec.bogus"`; apiVersion, kind and metadata at the
//     root and of embedded resources are always kept.
//  3. Default fills, in place, each absent member that has a default, walking down, as the
//     real defaulting does after pruning.
//  4. Validate checks a value as kube-openapi's validator does (type, format, nullable,
//     enum, minimum and maximum with their exclusive forms, pattern, min/maxLength,
//     min/maxItems, required, an embedded resource's apiVersion and kind) and returns the
//     causes the real server returns, with its messages: `spec.replicas: Invalid value: 12:
//     spec.replicas in body should be less than or equal to 10`, `spec.deploymentName:
//     Required value`.
//  5. Nothing here panics on any input: the fuzz test feeds it random schemas and values.
package structural
