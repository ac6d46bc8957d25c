// Package registry is the simulated apiserver's registry layer, on the model of
// k8s.io/apiserver pkg/registry/generic/registry (the generic store) and of the REST storage
// map a kube-apiserver builds from kubernetes pkg/registry/<group>/<kind>:
//
//  1. Table holds the served resources by group/resource and by group-version: the built-in
//     kinds of builtinKinds (one line each, their strategies one file each under
//     registry/<group>/), kinds registered from Go, and the resources of established CRDs.
//     Each resource has its storage.Collection and a rest.Strategy.
//  2. Store, the generic store, runs every write the same way: rest.BeforeCreate (name,
//     uid, timestamps, generation), the strategy's PrepareForCreate, the scheme's defaults,
//     admission's mutating phase, the metadata and strategy validation, admission's
//     validating phase, then the storage; updates add the conflict checks, the status and
//     finalize subresources' parts and ValidateUpdate; a kind's rest.SubresourceStrategy
//     prepares and checks its own subresources (certificatesigningrequests/approval), and a
//     create hands the strategy the requesting user (rest.UserFrom). A dry run runs all of
//     it and stores nothing. An update is prepared, validated and admitted from the stored
//     record outside the storage's write lock and written only if that record is still the
//     stored one; otherwise it starts again from the body (update.go). The server's own
//     start-up objects (WithServerObjects) skip validation only, so no schema is compiled
//     before the server listens; a test validates every one of them.
//  3. Deletes are immediate unless finalizers hold the object, among them the garbage
//     collector's, which Foreground and Orphan deletes add (delete_gc.go); deleting a
//     namespace marks it Terminating and, with NamespaceDeletionInServer, deletes its
//     contents one transaction at a time and removes it once it holds nothing and no
//     finalizer is left (namespace.go); otherwise the namespace controller does that.
//  4. A CRD's write does, in the same transaction, what apiextensions-apiserver's controllers
//     do: a create or update serves its resource (crd.go); a delete marks it Terminating,
//     and the CRD finalizer, run in the background by the server (CRDFinalizer.Background),
//     deletes its objects one transaction each, then the CRD, whose removal ends the
//     resource's watches and unserves it (crd_finalizer.go). The group-versions CRDs serve
//     get their APIServices, and lose them with the last CRD serving them
//     (crd_apiservices.go).
//  5. Errors are the real server's Status: NotFound, AlreadyExists, Conflict with the
//     precondition's text, Invalid with the causes in the real order.
package registry
