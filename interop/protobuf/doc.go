// Package protobuf checks, byte for byte, the main module's protobuf codec (api/protobuf,
// driven by the descriptors embedded in internal/builtinproto) against k8s.io/api's generated code
// and apimachinery's protobuf serializer. It holds tests only.
//
// The contract:
//
//  1. For every served kind, its List, Status, DeleteOptions and watch events, Encode of an
//     object's JSON tree gives exactly the bytes the real serializer writes for the object.
//  2. Decode of the real bytes gives the JSON tree json.Marshal writes for the object the real
//     decoder reads from them.
//  3. The same two properties hold for randomly filled objects of every served kind (a seeded
//     randfill with valid values for the specially encoded types).
//  4. The length-delimited framers interoperate both ways with apimachinery's.
//  5. The benchmarks put our codec beside the generated code: BenchmarkCodec/<case>/<side>.
//  6. Every round-trip manifest of the main module (apiserver/testdata/roundtrip), created in the
//     simulator from JSON and from the real serializer's protobuf, reads back in protobuf as
//     the real serializer's bytes for the Go object of the simulator's JSON answer.
package protobuf
