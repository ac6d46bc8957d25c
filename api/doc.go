// Package api is the object model shared by the simulated apiserver and the client side:
// the wire types of core/v1 (Pod, ConfigMap, Namespace and their lists) and of meta.k8s.io/v1
// (Status, Table, PartialObjectMetadata, WatchEvent), the discovery documents (legacy
// metav1 and aggregated apidiscovery/v2), Unstructured for every other kind, the
// accessor interfaces that replace reflection, and a Scheme that maps kinds to Go types. It
// mirrors parts of k8s.io/api core/v1, apimachinery pkg/apis/meta/v1, pkg/api/meta,
// pkg/runtime and unstructured, with none of their code.
//
// The contract:
//
//  1. Every type encodes to the JSON a real apiserver sends for the fields it keeps: same
//     member names, same order, same omitempty. Golden tests in testdata check this.
//  2. Every kind, lists, Status, Table and Unstructured included, is an Object through a
//     pointer (*Pod): GetObjectKind comes from the embedded TypeMeta, DeepCopyObject from
//     hand-written deep copies.
//  3. Every top-level kind is a MetaObject through its embedded ObjectMeta; every list is a
//     ListInterface through its ListMeta and a ListObject through GetItems and SetItems.
//  4. DeepCopy gives every map, slice and pointer new storage; nil stays nil and empty stays
//     empty. Objects from an informer cache are shared: copy before changing one.
//  5. Timestamps travel as RFC 3339 in UTC with second precision; a zero Time is null and a
//     nil *Time is omitted.
//  6. Unstructured keeps JSON integers as int64 and other numbers as float64.
//  7. Scheme.Decode returns the registered Go type for a known kind, *Unstructured or
//     *UnstructuredList for an unknown one, and an error (never a panic) for input without
//     kind or apiVersion or that is not a JSON object.
//  8. Scheme.Encode fills in kind and apiVersion when they are empty, on a copy: it never
//     changes the caller's object.
//  9. A *Status is an error whose text is its message.
//  10. The discovery documents are written by the simulated apiserver and read by
//     client/discovery from the same types, so the two cannot disagree about the wire.
//  11. Config is the kubeconfig file (clientcmd/api/v1.Config) with the file's own field names:
//     the simulated apiserver fills it in for its admin and package clientcmd reads and
//     writes it, so encoding/json alone writes a kubeconfig kubectl reads; the *-data fields
//     travel as base64.
//
// DefaultScheme holds every kind of this package; package api/watch holds the watch types.
package api
