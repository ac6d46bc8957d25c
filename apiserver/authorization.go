package apiserver

import (
	"context"
	"net/http"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/authz"
	"github.com/informer-lab/informer-lab/apiserver/storage"
)

// Authorization (Options.Authorization), the WithImpersonation and WithAuthorization filters
// of k8s.io/apiserver over the authorizer kube-apiserver builds (internal/authz):
//
//  1. Every request over HTTP runs, after authentication (auth.go), impersonation and then
//     the authorizer; the Go API (Server.Create, …) is the server itself and is not asked.
//  2. AlwaysAllow (the default, as kube-apiserver's) allows everything, impersonation
//     included: everyone may act as anyone.
//  3. RBAC allows what the stored roles and bindings grant (internal/authz), plus
//     everything to system:masters. A refusal is the real 403 Status. New then creates the
//     bootstrap roles and bindings it lacks, as the rbac/bootstrap-roles post-start hook of
//     a kube-apiserver with RBAC does (AlwaysAllow skips that hook, and so do we).
//  4. The user a request runs as, impersonated or not, is in its context for the reviews
//     (reviews.go).

// The values of Options.Authorization. They mirror the modes of kube-apiserver's
// --authorization-mode (ModeAlwaysAllow and ModeRBAC in kubernetes
// pkg/kubeapiserver/authorizer/modes).
const (
	AuthorizationAlwaysAllow = authz.ModeAlwaysAllow
	AuthorizationRBAC        = authz.ModeRBAC
)

// rbacGroup is the API group of the RBAC kinds.
const rbacGroup = "rbac.authorization.k8s.io"

// newAuthorizer is the chain of Options.Authorization over the server's storage.
func (s *endpoints) newAuthorizer() *authz.Chain {
	mode := s.opts.Authorization
	if mode == "" {
		mode = AuthorizationAlwaysAllow
	}
	return &authz.Chain{Mode: mode, RBAC: &authz.RBAC{Source: policySource{s}}}
}

// authorize runs impersonation and the authorizer for an authenticated request: the request
// to go on with (its context carrying the user), or the Status to answer.
func (s *endpoints) authorize(r *http.Request, u *authz.User) (*http.Request, *api.Status) {
	rbac := s.authorizer.Mode == AuthorizationRBAC
	if !rbac && !hasImpersonationHeader(r.Header) {
		// AlwaysAllow without impersonation: nothing to ask, nothing to parse.
		return r.WithContext(authz.WithUser(r.Context(), u)), nil
	}
	attrs := authz.RequestAttributes(r, u)
	user, st := authz.Impersonate(r.Header, attrs, s.authorizer)
	if st != nil {
		return r, st
	}
	attrs.User = user
	r = r.WithContext(authz.WithUser(r.Context(), user))
	if d, reason := s.authorizer.Authorize(attrs); d != authz.DecisionAllow {
		return r, authz.Forbidden(attrs, reason)
	}
	return r, nil
}

// hasImpersonationHeader reports whether any impersonation header is set, so that a group
// without a user still gets its 400.
func hasImpersonationHeader(h http.Header) bool {
	for name := range h {
		switch {
		case name == authz.ImpersonateUserHeader, name == authz.ImpersonateGroupHeader, name == authz.ImpersonateUIDHeader,
			strings.HasPrefix(name, authz.ImpersonateUserExtraPrefix):
			return true
		}
	}
	return false
}

// policySource reads the stored RBAC objects for the authorizer.
type policySource struct{ s *endpoints }

func (p policySource) list(resource, namespace string, all bool) []map[string]any {
	res := p.s.table.Get(rbacGroup, resource)
	if res == nil {
		return nil
	}
	var out []map[string]any
	_ = p.s.store.View(func(tx *storage.Tx) error {
		keys := tx.Keys(res.Coll)
		if !all {
			keys = tx.KeysIn(res.Coll, namespace)
		}
		for _, k := range keys {
			if rec := tx.Get(res.Coll, k); rec != nil {
				out = append(out, rec.Obj.Object)
			}
		}
		return nil
	})
	return out
}

func (p policySource) get(resource, namespace, name string) map[string]any {
	res := p.s.table.Get(rbacGroup, resource)
	if res == nil {
		return nil
	}
	rec, err := p.s.store.Get(context.Background(), res.Coll, objectKey(namespace, name), storage.GetOptions{})
	if err != nil {
		return nil
	}
	return rec.Obj.Object
}

// Revision implements authz.Revisioned: the storage's resourceVersion, which every write
// moves. A write that bumps it between the read of the revision and of the roles only makes
// the authorizer's cache miss later, never serve stale rules under a new revision, since
// the rules are read after the revision.
func (p policySource) Revision() uint64 { return p.s.store.ResourceVersion() }

// ClusterRoleBindings implements authz.Source.
func (p policySource) ClusterRoleBindings() []map[string]any {
	return p.list("clusterrolebindings", "", true)
}

// RoleBindings implements authz.Source.
func (p policySource) RoleBindings(namespace string) []map[string]any {
	return p.list("rolebindings", namespace, false)
}

// ClusterRoles implements authz.Source.
func (p policySource) ClusterRoles() []map[string]any { return p.list("clusterroles", "", true) }

// Role implements authz.Source.
func (p policySource) Role(namespace, name string) map[string]any {
	return p.get("roles", namespace, name)
}

// ClusterRole implements authz.Source.
func (p policySource) ClusterRole(name string) map[string]any { return p.get("clusterroles", "", name) }

// ensureRBACPolicy mirrors the rbac/bootstrap-roles post-start hook (pkg/registry/rbac/rest
// EnsureRBACPolicy) for a fresh server: it creates each bootstrap ClusterRole,
// ClusterRoleBinding, Role and RoleBinding that is not there yet, in that order.
//
// The objects are generated from the Kubernetes sources and pinned, so they go to the generic
// store as they are, without the decoding a client's body gets; the store defaults them but
// does not validate them (postStart.context).
func (s postStart) ensureRBACPolicy() {
	ctx := s.context()
	for _, resource := range []string{"clusterroles", "clusterrolebindings", "roles", "rolebindings"} {
		res := s.table.Get(rbacGroup, resource)
		for _, obj := range res.Bootstrap() {
			u := &api.Unstructured{Object: obj}
			if _, err := s.reg.Create(ctx, res, u.GetNamespace(), u, false); err != nil && !api.IsAlreadyExists(err) {
				panic("apiserver: creating the bootstrap " + resource + " " + u.GetName() + ": " + err.Error())
			}
		}
	}
}
