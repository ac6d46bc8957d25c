// Package structural is the structural schema of a custom resource: the openAPIV3Schema of a
// CustomResourceDefinition version, checked when the CRD is written, and used to prune,
// default and validate the custom objects of that version. It mirrors
// k8s.io/apiextensions-apiserver pkg/apiserver/schema (structural schemas, pruning,
// defaulting, list types, embedded object meta), the schema checks of
// pkg/apis/apiextensions/validation, and pkg/apiserver/validation over k8s.io/kube-openapi
// pkg/validation (value validation, formats and their messages).
//
// The contract:
//
//  1. Parse reads a schema tree (the JSON of openAPIV3Schema) into Schema nodes, every
//     keyword of JSONSchemaProps included: the logical junctors allOf, anyOf, oneOf and not
//     are Schemas too. Check runs every check a CRD write runs on one schema, with the real
//     messages and field paths: the structural rules (ValidateStructural: a type at every
//     level, junctors carrying value validations only, kubebuilder's int-or-string
//     patterns, metadata at the root restricted to name and generateName), the defaults
//     (ValidateDefaults), and the OpenAPI rules (list and map types, keywords CRDs may not
//     use, uniqueItems, the root under a status subresource, the static parts of
//     x-kubernetes-validations).
//  2. x-kubernetes-validations rules are parsed and kept (Rule). Compiling and evaluating
//     them is a RuleCompiler's: Rules, which the apiserver sets to schemacel.Compiler (the CEL
//     interpreter); while it is nil, rules are kept and not evaluated.
//  3. A custom object goes through Prune (unknown members removed and reported), PruneNulls,
//     Coerce (embedded resources' metadata rewritten as ObjectMeta) and Default, as the
//     decoder of the custom resource handler runs them; then Validator.Validate (or
//     ValidateUpdate, which ratchets: errors of unchanged parts are dropped),
//     ValidateEmbedded and ValidateListSetsAndMaps, as the custom resource strategy does.
//  4. Messages are kube-openapi's (`spec.replicas in body should be less than or equal to
//     10`), turned into field causes as apiextensions-apiserver does: errors of the logical
//     junctors and of range checks name no field, and are reported under "<nil>".
//     kube-openapi walks Go maps in random order; this package walks members sorted, so
//     its order is stable where the real one is not.
//  5. Nothing here panics on any input: the fuzz test feeds it random schemas and values.
package structural
