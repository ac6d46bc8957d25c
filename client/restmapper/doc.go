// Package restmapper turns the names a user types into what the server serves: "po" into
// the GroupVersionResource {"", "v1", "pods"} and the kind Pod, as kubectl does with the
// first argument of `kubectl get`. It mirrors k8s.io/client-go/restmapper (discovery.go,
// shortcut.go) and the RESTMapper interface of apimachinery pkg/api/meta, built from the
// answers of package discovery.
//
// The contract:
//
//  1. A resource is found by its plural, its singular, its kind in any case, or one of its
//     short names; full names win over short names.
//  2. When several group-versions serve a name, the core group wins, then the groups in
//     discovery order; within a group the preferred version comes first.
//  3. A name may carry its group ("deployments.apps") or version and group
//     ("deployments.v1.apps"); MappingFor also accepts kinds in those forms.
//  4. Subresources are never mapped. An unknown name is a *NoResourceMatchError (or
//     *NoKindMatchError for kinds); IsNoMatchError recognises both.
//  5. The mapper reads discovery once, when it is built: call NewDiscoveryRESTMapperForClient
//     again after a custom resource is registered.
package restmapper
