// Package gentype holds the generic typed client every kind's client is built from. It mirrors
// k8s.io/client-go/gentype (type.go): since client-go v0.31, client-gen no longer writes
// Get/List/Create/… for each kind, it writes a few lines that instantiate these generics with
// the kind's Go types and its resource name.
//
// The contract:
//
//  1. Every call is one request through a rest.RESTClient: the path is the client's
//     namespace (none for cluster-scoped kinds or for all namespaces) and resource, then the
//     object's name and subresource (docs/behaviour/wire.md U1–U4); options travel as query parameters.
//  2. Results decode into a fresh object of the kind's Go type. As in client-go, a failed
//     call returns that empty object together with the error (not nil), and the error is the
//     server's *api.Status whenever the server sent one, so api.IsNotFound, IsAlreadyExists,
//     IsConflict, IsInvalid, IsTooManyRequests … work on it (S1, S6).
//  3. Update and UpdateStatus address the object's own name: PUT …/{name} and PUT
//     …/{name}/status. A nil object or an empty name is a clear error, never a panic.
//  4. Watch always sends watch=true; List never does.
package gentype
