// Package bench holds two measurements against real client-go v0.37.2.
//
//  1. make bench-compare (TestBenchCompare, -compare) runs each workload of the side-by-side
//     suite through informer-lab and through client-go in one process, with
//     testing.Benchmark on both sides, and prints the table workload | ours ns/op |
//     client-go ns/op | ratio | CPU ratio | ours B/op | client-go B/op.
//  2. make bench-real (TestBenchRealServer, -real) runs one stock client-go program (10,000
//     creates, then an informer's sync) against `demo serve` and against the real
//     kube-apiserver, each a process, and prints ms and ratios. Beside them it times the same
//     program against a server that does no work and replays ours' answers, once in the test
//     process (the client's floor) and once as a process of its own (the process floor: this
//     test binary started again, which TestMain turns into the replaying server).
//
// Neither runs in make test; their parsing, reporting and the replaying process have unit
// tests that do (TestBenchRealServer_*).
package bench
