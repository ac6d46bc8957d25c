// Package patch applies the PATCH bodies of the real server to a stored object's JSON
// (docs/behaviour/wire.md X1–X5): RFC 6902 JSON patch (json.go), RFC 7386 merge patch (merge.go), Kubernetes
// strategic merge patch for the built-in kinds (strategic*.go), and reads the body of a
// server-side apply (apply.go), which the field manager then merges by ownership. It mirrors the mechanisms that PatchResource in k8s.io/apiserver
// pkg/endpoints/handlers/patch.go drives: gopkg.in/evanphx/json-patch.v4 and apimachinery
// pkg/util/strategicpatch, with none of their code.
//
// The contract:
//
//  1. TypeFromContentType takes the four patch media types of api.PatchType exactly, with
//     any parameters dropped; anything else, CBOR apply included, is 415 listing them (X1,
//     E22).
//  2. A body that is not JSON is 400 "invalid JSON patch" (E23). A JSON patch whose operation
//     fails is 422 without saying which (E24); more than 10000 operations are 413 (E48); its
//     copy operations may grow a document by at most 3 MiB in all.
//  3. A merge patch merges objects member by member, deletes with null and replaces lists
//     whole.
//  4. A strategic merge patch merges the lists that have a merge key by it and honours
//     $patch, $retainKeys, $setElementOrder and $deleteFromPrimitiveList, with upstream's
//     400, 422 and 500 texts. It serves every kind the embedded OpenAPI documents of
//     package schema define, the autoscaling/v1 Scale included, with the patch metadata
//     read from them once; any other kind, a custom resource, is 415 listing the other
//     three types.
//  5. An apply body is YAML or JSON and must be an object (X4); AppliedConfiguration returns
//     it as JSON, nulls kept. Merging it is the field manager's (ApplyFor refuses it).
//  6. Numbers keep their exact text; a result is compact JSON with sorted keys. Every error
//     is an *api.Status.
package patch
