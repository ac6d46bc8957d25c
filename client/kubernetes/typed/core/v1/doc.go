// Package v1 is the typed client of the core/v1 kinds this project serves: Pods, ConfigMaps
// and Namespaces. It mirrors k8s.io/client-go/kubernetes/typed/core/v1, which client-gen
// generates from the +genclient tags on the k8s.io/api types; these files are written by
// hand in the same shape (one file per kind, each a thin layer over gentype).
//
// The contract:
//
//  1. CoreV1Client talks JSON to /api/v1 and always decodes with api.DefaultScheme, whatever
//     Config.Scheme says, as client-go's setConfigDefaults forces its own scheme.
//  2. Pods(ns) and ConfigMaps(ns) address one namespace, or all namespaces with "" (List and
//     Watch only); Namespaces() is cluster-scoped.
//  3. Pods and Namespaces have UpdateStatus (PUT …/status); ConfigMaps have none, as the
//     generated client (ConfigMap has no status).
//  4. Every method is the gentype method of the same name: see package gentype for errors
//     and results.
package v1
