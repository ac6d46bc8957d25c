// Package cluster starts a simulated cluster for tests: the apiserver, reached over an
// in-process transport (no socket), and the controllers of package controllers with the
// simulated nodes. Everything runs inside a testing/synctest bubble, so a test waits in
// virtual time: Settle lets every goroutine run until all are blocked, and Advance moves the
// bubble's clock. It has no client-go counterpart; it plays the part of envtest plus
// kube-controller-manager.
//
// The contract:
//
//  1. Start must be called inside synctest.Test. It starts the server with Options.Server,
//     the controllers named by Options.Controllers (none when empty) with Options.Nodes
//     nodes, and registers a cleanup that stops the controllers, then the server.
//  2. Client, Config and Server reach the same apiserver; Client writes as a test would.
//  3. Eventually advances virtual time in steps until cond holds, failing the test after
//     limit; it never sleeps in real time.
package cluster
