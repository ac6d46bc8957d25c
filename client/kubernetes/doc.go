// Package kubernetes is the typed clientset: one entry point that hands out a typed client
// per group-version (CoreV1) plus the discovery client. It mirrors
// k8s.io/client-go/kubernetes (clientset.go), which client-gen generates for every group of
// k8s.io/api; here it is written by hand for the core/v1 kinds the project serves.
//
// The contract:
//
//  1. NewForConfig copies the Config and never changes the caller's; every client inside
//     shares one HTTP transport (connections are reused across group-versions).
//  2. CoreV1() returns typed clients that decode with api.DefaultScheme into *api.Pod,
//     *api.ConfigMap, *api.Namespace and their lists.
//  3. Discovery() is a discovery client for the same server.
//  4. Nothing here is specific to the simulated apiserver: a Config from
//     clientcmd.BuildConfigFromKubeconfig talks to a real cluster the same way.
package kubernetes
