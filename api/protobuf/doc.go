// Package protobuf mirrors k8s.io/apimachinery runtime/serializer/protobuf, together with
// the generated Marshal and Unmarshal methods of k8s.io/api, for objects held as JSON trees
// (map[string]any, integers int64, other numbers float64). No generated code: a Codec reads
// message descriptors, the JSON files internal/builtinproto embeds, and walks the tree.
//
// The contract:
//
//  1. Encode writes the bytes the real serializer writes for the Go object whose JSON is the
//     tree: the prefix "k8s\x00", then a runtime.Unknown {typeMeta{apiVersion, kind}, raw,
//     contentEncoding "", contentType ""}; raw holds the fields in number order, fields of
//     non-pointer Go type always (zero values included), pointers, slices and maps only when
//     set, map entries sorted by key.
//  2. Decode reads such bytes into the tree encoding/json would write for the object the
//     generated Unmarshal fills: omitempty zero scalars left out, non-omitempty ones and
//     every struct present, nil pointers, slices and maps null or absent per omitempty;
//     kind and apiVersion come from the envelope.
//  3. Time is RFC 3339 in whole seconds and MicroTime in microseconds (zero: null), Duration
//     its Go string, Quantity its string as sent, IntOrString a number or a string, bytes
//     base64, FieldsV1, RawExtension and apiextensions' JSON the embedded JSON; a
//     RawExtension holding an enveloped protobuf object (as in a watch event) decodes to that
//     object's tree. apiextensions' JSONSchemaPropsOr{Array,Bool,StringArray} are in JSON
//     the list (of schemas or strings) when it has items, else the schema, else the bool
//     or null (schema_or.go).
//  4. Unknown field numbers are skipped, as generated code skips them. Truncated data, a
//     wrong prefix, lengths beyond the data, wrong wire types, varints over ten bytes and
//     nesting deeper than 64 are errors, never a panic or a hang.
//  5. A kind is found in the proto package of its group and version (named after its Go
//     package: the group's first label under k8s.io/api, or apiextensions-apiserver's and
//     kube-aggregator's for their groups), else among meta/v1's
//     (Status, DeleteOptions, WatchEvent); ErrUnknownKind otherwise (custom resources).
//  6. EncodeWatchEvent writes what one protobuf watch frame carries: a bare WatchEvent whose
//     object is enveloped; frames are 4-byte big-endian lengths then the bytes
//     (NewLengthDelimitedFrameWriter, NewLengthDelimitedFrameReader), a reader refusing
//     frames over its maximum before reading them.
//  7. Quantities are not canonicalised: "1000m" stays "1000m" where the real decoder would
//     give "1". A Codec is immutable and safe for concurrent use.
//  8. The strings of a decoded tree share one copy of the input, so a tree kept in part (one
//     item of a list) keeps the whole input's copy alive; the input slice itself is not kept.
//  9. The typed path (DecodeInto, EncodeTyped) reads and writes Go structs whose fields carry
//     the json names of the message's fields (api.Pod, api.PodList, …) with no tree
//     between: each pair of Go type and message gets a plan once (typed_plan.go), field
//     offsets and operations, as the generated code has them compiled. A struct with an
//     api.Unmodeled field keeps its whole message, so the fields its Go type does not model
//     come back on encoding, level by level (typed_encode.go): decoded and encoded again, a
//     real object is the same bytes. Time is read as whole seconds in UTC. The limits of
//     item four hold, and the tree decoder's count of missing fields, with a bound on the
//     Go memory elements take.
//     A Go type or object the plans cannot serve reports ErrNotTyped: the tree path serves
//     it (custom resources have no Go type and stay on the tree path).
//
// This package imports only the standard library and package api; the descriptors live in
// internal/builtinproto, which builds the shared Codec (internal/builtinproto.Codec).
package protobuf
