// Command proto-gen writes the protobuf message descriptors of the kinds the simulated
// apiserver serves, as JSON data files for the main module's codec to embed: for each
// message its fields' JSON keys, proto numbers and kinds, and whether the generated
// Marshal of k8s.io/api writes a field always or only when set. It reads them by
// reflection from the struct tags of the k8s.io/api and k8s.io/apimachinery Go types at
// the versions pinned in tools/go.mod, and writes the same bytes on every run.
//
// Usage, from tools/:
//
//	go run ./cmd/proto-gen -out ../internal/builtinproto/descriptors
package main

import "github.com/informer-lab/informer-lab/tools/internal/datafiles"

func main() {
	datafiles.Main("proto-gen", "../internal/builtinproto/descriptors", "the descriptor files", generate)
}
