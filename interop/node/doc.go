// Package nodeinterop runs a second, independent real client against the simulated apiserver:
// the informer of @kubernetes/client-node (npm, the official JavaScript client), through its
// makeInformer, in a Node.js process. It shows that the simulator is not tuned to client-go's
// quirks. The package has tests only.
//
// node_test.go installs the pinned client-node with `npm ci` (package.json and
// package-lock.json beside it, node_modules/ not committed), serves the simulator over TLS on
// a free 127.0.0.1 port behind a wiretest.Recorder, writes a kubeconfig, and runs
// informer.mjs, which reports the informer's callbacks as JSON lines on stdout and answers
// commands on stdin. The Go side makes the writes and injects the faults in process, and
// asserts on the lines and on the recorded requests:
//
//  1. The pod informer syncs with one LIST and one WATCH from the list's resourceVersion.
//  2. It sees an add, an update and a delete, each with the server's resourceVersion.
//  3. After dropped events, a compaction and closed watches, its resumed WATCH gets 200 and
//     an ERROR 410 Expired event; it relists (a second LIST), reports the missed delete and
//     update, watches again from the new list's RV, and its cache equals the server's.
//
// The test skips, saying why, only when node or npm is not on PATH.
package nodeinterop
