// Command zero-gen writes, for every kind the embedded OpenAPI documents declare, the zero
// value of its Go type as runtime.DefaultUnstructuredConverter gives it: what kube-apiserver's
// field manager compares a created object against (objectCreater.New, then the type
// converter). Struct-valued members appear ({} and nested zero structs), members without
// omitempty appear as null or their zero scalar, the rest are absent; ownership on create
// depends on which.
//
// Usage, from tools/:
//
//	go run ./cmd/zero-gen -out ../apiserver/internal/typed/zero
package main

import "github.com/informer-lab/informer-lab/tools/internal/datafiles"

func main() {
	datafiles.Main("zero-gen", "../apiserver/internal/typed/zero", "zero.json", generate)
}
