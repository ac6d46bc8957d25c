// Package exec runs exec credential plugins, the kubeconfig `exec` stanza that EKS, GKE and
// AKS write (aws eks get-token, gke-gcloud-auth-plugin, kubelogin). It mirrors client-go
// plugin/pkg/client/auth/exec/exec.go: a round tripper that asks an Authenticator for the
// credential, which runs the plugin once and caches its answer until it expires. Package
// rest wires it in for rest.Config.ExecProvider; package clientcmd reads it from a kubeconfig.
//
// The contract:
//
//  1. A plugin speaks client.authentication.k8s.io/v1 or v1beta1; v1alpha1, an unknown
//     version, a missing command, an env entry without a name and interactiveMode Always
//     (which needs a terminal) are refused before anything runs.
//  2. The plugin runs on the first request, not before, without a terminal and with
//     KUBERNETES_EXEC_INFO set (spec.interactive false, spec.cluster only with
//     provideClusterInfo); its environment is ours with the configured env on top.
//  3. Its token becomes the Authorization header (unless the request set one), or its
//     certificate the client certificate; either is cached until its expirationTimestamp on
//     the given clock, shared by every client on the same transport, and renewed once after
//     a 401 answer. Concurrent first requests run the plugin once.
//  4. A failed run (not found, with the install hint; a non-zero exit, with the start of
//     its stderr; output that is not a usable ExecCredential; a context that ended) is the
//     request's error, an error IsPluginError recognises, and the next request runs the
//     plugin again.
package exec
