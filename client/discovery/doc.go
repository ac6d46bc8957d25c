// Package discovery asks a server what it serves: its version, its API groups, and the
// resources of each group-version. It mirrors k8s.io/client-go/discovery
// (discovery_client.go, aggregated_discovery.go), without OpenAPI, caching or the
// preferred-resource helpers. kubectl runs the same requests before almost every command.
//
// The contract (IDs refer to the wire specification):
//
//  1. ServerVersion is GET /version, decoded as version.Info (K2).
//  2. ServerGroups asks /api and then /apis with Accept
//     "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json"
//     (K3, CG2). The response's Content-Type decides the format: with g, v and as matching
//     (in any order) it is the aggregated document (K5), otherwise the legacy APIVersions and
//     APIGroupList (K4). The core group comes first, with the empty name. A 404 on /api is
//     tolerated (no core group); a failure on /apis is an error.
//  3. ServerResourcesForGroupVersion is GET /api/v1 for "v1" and /apis/{group}/{version}
//     otherwise; a 404 on /api/v1 gives an empty list.
//  4. ServerGroupsAndResources returns every group and the resource list of each of its
//     versions, in discovery order. When both /api and /apis answered in the aggregated
//     format no further request is made; otherwise each group-version is fetched. Subresources
//     appear as "pods/status". Group-versions that fail, or that an aggregated answer marks
//     Stale, are reported in an *ErrGroupDiscoveryFailed returned with the partial result.
//  5. UseLegacyDiscovery sends Accept "application/json" only.
//  6. Errors from the server are *api.Status, as for every client of this project.
package discovery
