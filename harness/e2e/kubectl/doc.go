// Package kubectl holds the kubectl end-to-end suite: Go tests that run the real kubectl from
// PATH against the simulated apiserver (docs/behaviour/wire.md §7 and §11, T1–T7). It has no code of its
// own; run it with `make e2e-kubectl` or `go test ./harness/e2e/kubectl/`.
//
// The contract of the suite:
//
//  1. Every test starts its own server on a loopback port and writes a kubeconfig, a HOME and
//     a discovery cache directory under t.TempDir(), so no test sees another's cached
//     discovery (K3) and nothing outside the test's directory is read or written.
//  2. The server reports Kubernetes v1.32, which makes the kubectl dispatcher on the
//     project's machines run kubectl 1.32 (K1); one test checks another minor.
//  3. Tests skip, saying why, only when kubectl is not on PATH. Any other problem fails.
//  4. Every kubectl run is bounded (a context deadline); long-running commands (get -w,
//     get --raw of a watch) run as subprocesses whose output lines are read with a bounded
//     wait, and are killed when the test ends.
//  5. Assertions are about what kubectl printed and about what went over the wire, read from
//     a recording handler in front of the server; on failure the test logs both.
//  6. Most tests run the apiserver package in process behind that recorder.
//     TestCh01_Kubectl_DemoServe instead builds cmd/demo into its temporary directory and runs
//     `demo serve` as a workshop would: kubectl uses the kubeconfig it wrote, curl-style
//     requests go to its /debug/faults, and SIGINT must stop it cleanly; so do the tests of
//     its --token and --client-certs (a kind-style kubeconfig with the admin certificate).
package kubectl
