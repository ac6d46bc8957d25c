// Command rbac-gen writes the RBAC objects a kube-apiserver v1.36 creates in its
// rbac/bootstrap-roles post-start hook (the bootstrap ClusterRoles, ClusterRoleBindings and
// the Roles and RoleBindings of kube-system and kube-public) as data files for the main
// module to embed. It reads them from the Kubernetes sources pinned in tools/go.mod
// (plugin/pkg/auth/authorizer/rbac/bootstrappolicy) and writes the same bytes on every run.
//
// Usage, from tools/:
//
//	go run ./cmd/rbac-gen -out ../apiserver/internal/registry/rbac/bootstrap
package main

import "github.com/informer-lab/informer-lab/tools/internal/datafiles"

func main() {
	datafiles.Main("rbac-gen", "../apiserver/internal/registry/rbac/bootstrap", "the bootstrap RBAC objects", generate)
}
