// Package rest holds the strategy interfaces of the simulated apiserver's registry, on the
// model of k8s.io/apiserver pkg/registry/rest (create.go, update.go, delete.go). A strategy
// says what is particular to one kind; the generic store (package registry) runs the rest.
//
//  1. A Strategy answers for one kind: its scope, its subresources, what a create or an
//     update may set (PrepareForCreate, PrepareForUpdate, GetResetFields), how it is checked
//     (Validate, ValidateUpdate), its canonical form (Canonicalize), its warnings and its
//     update rules (AllowCreateOnUpdate, AllowUnconditionalUpdate).
//  2. Strategies work on *api.Unstructured objects only: they know nothing of storage,
//     HTTP or the resource table. The Prepare methods change the object they are given;
//     Validate may drop what its schema does not know (the decoder has dropped it already).
//  3. Base gives every method its generic answer. A kind's strategy embeds Base and
//     overrides only what differs, so adding a kind is one small file.
//  4. Optional interfaces add what only some kinds have: hooks around the storage write
//     (BeginCreate, AfterDelete), the finalize subresource, and the one check that runs only
//     once everything else has passed (LateValidator).
package rest
