// Package dynamic is the dynamic client: CRUD, list and watch on any resource, named at run
// time by its GroupVersionResource, with objects as *api.Unstructured (maps of the JSON)
// instead of Go types. It mirrors k8s.io/client-go/dynamic (interface.go, simple.go). It is
// how controllers reach custom resources whose Go types they do not have.
//
// The contract:
//
//  1. Every object decodes as *api.Unstructured and every list as *api.UnstructuredList, even
//     for kinds with a Go type (pods): the client uses an empty Scheme, as client-go's dynamic
//     client uses the unstructured JSON scheme. Bodies are JSON; an object without kind or
//     apiVersion is refused before any request.
//  2. Resource(gvr) addresses /api/v1 for the core group and /apis/{group}/{version}
//     otherwise; Namespace(ns) adds namespaces/{ns}; "" means cluster-scoped or, for List
//     and Watch, all namespaces (U1–U4).
//  3. Get, Delete and Patch need a name, Update and UpdateStatus an object with
//     metadata.name, Create with a subresource too: otherwise the call fails with "name is
//     required" before any request. A nil object is an error, never a panic.
//  4. Failed calls return nil and the error; API errors are *api.Status (api.IsNotFound …).
//  5. A DynamicClient is an informer source: ListWatchFor gives the ListerWatcher the
//     informer factory asks for, so informer.NewSharedInformerFactory(client, 0).
//     ForResource(gvr) builds a dynamic informer of *api.Unstructured objects. (That factory
//     builds typed informers for pods, configmaps and namespaces, which cannot sync from
//     this source: use a typed source, informer.NewRESTSource, for those kinds.)
package dynamic
