// Package builtinproto holds the protobuf message descriptors of the served built-in kinds,
// embedded, and the one shared Codec built from them, for the simulated apiserver and the
// REST client. The codec itself is api/protobuf (importable from the interop module too);
// custom resources have no descriptors here, as kube-apiserver serves them only as JSON.
//
// The contract:
//
//  1. descriptors/*.json hold one proto package each, written by tools/cmd/proto-gen
//     (make protos) from the Go types of k8s.io/api and k8s.io/apimachinery v0.36.3;
//     descriptors/SHA256SUMS pins them and TestCh02_ProtoDescriptorsArePinned checks it.
//  2. Descriptor(pkg) returns one file's bytes, Packages() the packages there are, and
//     DescriptorFiles() all of them in the form api/protobuf.NewCodec takes.
//  3. Codec() builds that codec once, on first use, and shares it; Decode, Encode,
//     EncodeWatchEvent, DecodeWatchEvent and Recognizes use it.
//  4. Encode(gvk, tree) gives exactly the bytes k8s.io/api's generated Marshal gives inside
//     the envelope the real protobuf serializer writes; Decode(bytes) gives the JSON tree
//     json.Marshal writes for the Go object the real decoder reads. The interop module
//     proves both for every served kind (interop/protobuf).
//  5. Bad input is a clean error (FuzzDecode, FuzzFramer): never a panic or a hang.
//  6. NewLengthDelimitedFrameWriter and NewLengthDelimitedFrameReader frame watch streams as
//     apimachinery's pkg/util/framer does, the reader with a maximum frame size.
package builtinproto
