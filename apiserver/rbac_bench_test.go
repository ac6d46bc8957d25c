package apiserver

import (
	"testing"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/authz"
)

// BenchmarkNewWithRBAC measures New with Options.Authorization RBAC, which creates the 133
// bootstrap RBAC objects, against New with the default AlwaysAllow.
func BenchmarkNewWithRBAC(b *testing.B) {
	for _, mode := range []string{AuthorizationAlwaysAllow, AuthorizationRBAC} {
		b.Run(mode, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				New(Options{Authorization: mode}).Close()
			}
		})
	}
}

// BenchmarkRBACAuthorize measures one request through RBAC: a service account's list of
// pods, allowed by a RoleBinding to the aggregated view ClusterRole, among the bootstrap
// policy's 50 ClusterRoleBindings.
func BenchmarkRBACAuthorize(b *testing.B) {
	s := New(Options{BearerToken: "t", Authorization: AuthorizationRBAC})
	defer s.Close()
	ep := s.ep
	rb := map[string]any{"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "metadata": map[string]any{"name": "v", "namespace": "default"},
		"roleRef":  map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "view"},
		"subjects": []any{map[string]any{"kind": "ServiceAccount", "name": "robot"}}}
	if _, err := s.Create(b.Context(), "rolebindings", "default", unstructuredOf(rb)); err != nil {
		b.Fatal(err)
	}
	attrs := rbacListPods()
	b.ReportAllocs()
	for b.Loop() {
		if d, _ := ep.authorizer.Authorize(attrs); d != authz.DecisionAllow {
			b.Fatal("not allowed")
		}
	}
}

func unstructuredOf(m map[string]any) *api.Unstructured { return &api.Unstructured{Object: m} }

func rbacListPods() authz.Attributes {
	return authz.Attributes{User: &authz.User{Name: "system:serviceaccount:default:robot", Groups: authz.ServiceAccountGroups("default")},
		Verb: "list", ResourceRequest: true, APIVersion: "v1", Namespace: "default", Resource: "pods"}
}
