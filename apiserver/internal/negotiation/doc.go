// Package negotiation picks the shape of a response from its Accept header (wire spec
// N1–N4, K5), a small cousin of k8s.io/apiserver pkg/endpoints/handlers/negotiation. The
// server produces JSON, and protobuf for the built-in kinds; the Accept header decides which.
//
// The contract:
//
//  1. Clauses are tried by quality, then in order; the first the endpoint can serve wins.
//     No Accept header, application/json, application/* and */* give the plain object.
//  2. A LIST, GET or WATCH can also answer a meta.k8s.io v1 or v1beta1 Table or
//     PartialObjectMetadata (PartialObjectMetadataList for a LIST); /api and /apis the
//     aggregated APIGroupDiscoveryList of apidiscovery.k8s.io v2 or v2beta1.
//  3. application/vnd.kubernetes.protobuf is served for the plain shape of a built-in kind
//     (NegotiateFor); for a custom resource, a Table or discovery it is skipped, so
//     "protobuf, json" gets JSON. An Accept header with nothing we produce (YAML alone,
//     protobuf alone for a custom resource) is 406 NotAcceptable listing what we produce.
//  4. Output.ContentType names the shape for the response's Content-Type; a JSON watch
//     stream keeps application/json whatever its events carry, a protobuf one adds
//     ";stream=watch" (the caller's to send).
//  5. Deviation: a metadata-only clause on the wrong endpoint (PartialObjectMetadata for a
//     LIST) is skipped rather than answered 406.
package negotiation
