// Command openapi-gen writes the OpenAPI v3 documents that kube-apiserver v1.36 publishes
// for the group-versions the simulated apiserver serves, as data files for the main
// module to embed. It builds them from the Kubernetes sources (the generated OpenAPI
// definitions, kube-apiserver's definition namer and kube-openapi's v3 builder) at the
// versions pinned in tools/go.mod, and writes the same bytes on every run.
//
// Usage, from tools/:
//
//	go run ./cmd/openapi-gen -out ../apiserver/internal/schema/openapi
package main

import "github.com/informer-lab/informer-lab/tools/internal/datafiles"

func main() {
	datafiles.Main("openapi-gen", "../apiserver/internal/schema/openapi", "the documents", generate)
}
