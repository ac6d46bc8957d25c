// Package bench runs each workload of the side-by-side suite through informer-lab and through real
// client-go v0.37.2 in one process, with testing.Benchmark on both sides, and prints the
// table workload | ours ns/op | client-go ns/op | ratio | ours B/op | client-go B/op.
// Run it with `go test ./bench -run TestBenchCompare -compare -v` (make bench-compare).
package bench
