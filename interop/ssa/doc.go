// Package ssa checks server-side apply as real clients drive it, client-go's typed Apply with
// ApplyConfigurations and controller-runtime's Client.Apply, against the simulated
// apiserver: every step's managedFields (times normalised), conflicts and results must be
// what the reference kube-apiserver answered to the same calls, captured in testdata.
//
// To capture again: start the reference (conformance/out/refserver -out DIR), then
// SSA_REFERENCE_KUBECONFIG=DIR/kubeconfig go test ./ssa -run TestInterop_SSA, which writes
// testdata/reference.json and its SHA256SUMS from the reference's answers instead of
// checking the simulator.
package ssa
