// Package continuetoken encodes and decodes the continue tokens of paged lists, the opaque
// metadata.continue a client sends back for the next page. It mirrors EncodeContinue and
// DecodeContinue in k8s.io/apiserver pkg/storage/continue.go: the same JSON inside the same
// unpadded base64url, so a token reads the same on the simulator and on a real server.
//
// The contract:
//
//  1. A token is base64url (no padding) of {"v":"meta.k8s.io/v1","rv":N,"start":K}: the
//     list snapshot's revision and the key the next page starts at, inclusive (docs/behaviour/wire.md L10).
//  2. Keys are relative to the collection: "ns/name" for an all-namespaces list, "name" in
//     one namespace or for a cluster-scoped resource. Callers pass the last returned key plus
//     "\x00", as the real PrepareContinueToken does, so the next page starts after it.
//  3. EncodeLatest makes the token of a 410 Expired Status: rv -1 inside, "continue at the
//     latest revision" (L12); Decode returns rv 0 for it, which no real token carries.
//  4. Every decode failure is a 400 BadRequest *api.Status "invalid continue token: …" with
//     the real server's texts (L14, E40); a start key that path.Clean would change (one that
//     could climb out of the collection, "../x") is one of them.
package continuetoken
