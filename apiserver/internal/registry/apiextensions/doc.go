// Package apiextensions is the registry of apiextensions.k8s.io/v1 CustomResourceDefinitions
// and of the custom resources they serve, after k8s.io/apiextensions-apiserver:
//
//  1. ReadSpec decodes the part of a stored CRD the server reads; Causes and UpdateCauses
//     validate it as ValidateCustomResourceDefinition(Update) does (validation.go).
//  2. Strategy is the CRD strategy: cluster-scoped, status and generation, the status the
//     naming and establishing controllers write set on create (Status).
//  3. ServingOf builds what one established CRD serves its objects with (schema, columns,
//     scale paths); CustomResourceStrategy validates custom objects against it.
package apiextensions

// Group is the API group of CustomResourceDefinitions.
const Group = "apiextensions.k8s.io"
