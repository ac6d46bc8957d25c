// Package authz is the simulated apiserver's authorization, on the model of k8s.io/apiserver
// pkg/authorization and pkg/endpoints/filters and kubernetes plugin/pkg/auth/authorizer/rbac:
//
//  1. A request's attributes come from its path and method alone (RequestAttributes, the
//     RequestInfoFactory): verb, API group and version, namespace, resource, subresource and
//     name, or a non-resource path. A list whose field selector pins metadata.name carries
//     that name.
//  2. The authorizer is a union (Chain): members of system:masters are allowed everything
//     first, then the mode decides, AlwaysAllow or RBAC. The first decision wins; the
//     reasons of those without one are joined for the 403.
//  3. RBAC allows a request when a rule of a role bound to the user allows it: every
//     ClusterRoleBinding, then the RoleBindings of the request's namespace; a binding applies
//     to a User by name, a Group the user is in, or a ServiceAccount by its user name (the
//     binding's namespace when the subject has none). A rule matches the verb, the API group,
//     the resource (as resource/subresource, with the "*" and "*/sub" wildcards) and the
//     resourceNames, or the verb and a non-resource URL (a trailing "*" is a prefix).
//  4. An aggregated ClusterRole (aggregationRule) has the rules of every other ClusterRole
//     its selectors match, recursively and each rule once, in name order: what the
//     clusterrole-aggregation controller would have written into it. The simulator runs no
//     controller, so the authorizer computes them.
//  5. A refusal is the real 403: `pods is forbidden: User "x" cannot list resource "pods" in
//     API group "" in the namespace "default"`, with the reasons of the authorizers after a
//     colon (RBAC's errors, such as a binding whose role is missing).
//  6. Impersonation follows v1.36's constrained impersonation: the node, service-account and
//     user-info modes (verbs impersonate:<mode> plus impersonate-on:<mode>:<verb> on the
//     request), then the legacy impersonate verb on users, groups, serviceaccounts, uids and
//     userextras; the first refusal is the answer when no mode allows.
package authz
