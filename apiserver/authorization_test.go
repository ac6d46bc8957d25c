package apiserver

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The admin token of the RBAC test servers.
const adminToken = "admin-token"

// bearer is the Authorization header of a token, for client.do.
func bearer(token string) []string { return []string{"Authorization", "Bearer " + token} }

// rbacServer starts a server with RBAC and the admin token.
func rbacServer(t *testing.T) (*Server, *client) {
	t.Helper()
	return newServer(t, Options{BearerToken: adminToken, Authorization: AuthorizationRBAC})
}

// saToken creates the service account ns/name and returns a token for it.
func saToken(t *testing.T, c *client, ns, name string) string {
	t.Helper()
	r := c.do("POST", "/api/v1/namespaces/"+ns+"/serviceaccounts", map[string]any{
		"apiVersion": "v1", "kind": "ServiceAccount", "metadata": map[string]any{"name": name}}, bearer(adminToken)...)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	r = c.do("POST", "/api/v1/namespaces/"+ns+"/serviceaccounts/"+name+"/token", map[string]any{
		"apiVersion": "authentication.k8s.io/v1", "kind": "TokenRequest"}, bearer(adminToken)...)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	var tr struct {
		Status struct{ Token string } `json:"status"`
	}
	r.decode(t, &tr)
	require.NotEmpty(t, tr.Status.Token)
	return tr.Status.Token
}

// TestCh01_RBACBootstrapPolicy checks point 3 of authorization.go: a server with RBAC creates
// the bootstrap roles and bindings; one with AlwaysAllow has none, as the reference.
func TestCh01_RBACBootstrapPolicy(t *testing.T) {
	count := func(c *client, path string, header ...string) int {
		r := c.do("GET", path, nil, header...)
		require.Equal(t, http.StatusOK, r.code, "%s", r.body)
		var l struct{ Items []json.RawMessage }
		r.decode(t, &l)
		return len(l.Items)
	}
	t.Run("AlwaysAllow", func(t *testing.T) {
		_, open := newServer(t, Options{})
		assert.Zero(t, count(open, "/apis/rbac.authorization.k8s.io/v1/clusterroles"))
	})
	_, c := rbacServer(t)
	assert.Equal(t, 69, count(c, "/apis/rbac.authorization.k8s.io/v1/clusterroles", bearer(adminToken)...))
	assert.Equal(t, 50, count(c, "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", bearer(adminToken)...))
	assert.Equal(t, 6, count(c, "/apis/rbac.authorization.k8s.io/v1/namespaces/kube-system/roles", bearer(adminToken)...))
	assert.Equal(t, 1, count(c, "/apis/rbac.authorization.k8s.io/v1/namespaces/kube-public/rolebindings", bearer(adminToken)...))
	r := c.do("GET", "/apis/rbac.authorization.k8s.io/v1/clusterroles/view", nil, bearer(adminToken)...)
	require.Equal(t, http.StatusOK, r.code)
	var view map[string]any
	r.decode(t, &view)
	assert.Equal(t, map[string]any{"clusterRoleSelectors": []any{map[string]any{"matchLabels": map[string]any{
		"rbac.authorization.k8s.io/aggregate-to-view": "true"}}}}, view["aggregationRule"])
	assert.Nil(t, view["rules"], "no controller fills an aggregated role's rules in")
}

// TestCh01_RBACRefusedThenAllowed is the chapter's story at the HTTP level: a service
// account's token is refused with the real 403 Status, then allowed once a RoleBinding
// grants the aggregated view ClusterRole.
func TestCh01_RBACRefusedThenAllowed(t *testing.T) {
	_, c := rbacServer(t)
	token := saToken(t, c, "default", "robot")
	r := c.do("GET", "/api/v1/namespaces/default/pods", nil, bearer(token)...)
	require.Equal(t, http.StatusForbidden, r.code)
	assert.JSONEq(t, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
		"message":"pods is forbidden: User \"system:serviceaccount:default:robot\" cannot list resource \"pods\" in API group \"\" in the namespace \"default\"",
		"reason":"Forbidden","details":{"kind":"pods"},"code":403}`, string(r.body))

	// What every authenticated user may do: discovery (system:discovery, system:basic-user).
	assert.Equal(t, http.StatusOK, c.do("GET", "/api/v1", nil, bearer(token)...).code)
	assert.Equal(t, http.StatusOK, c.do("GET", "/version", nil, bearer(token)...).code)
	r = c.do("GET", "/metrics", nil, bearer(token)...)
	assert.Equal(t, http.StatusForbidden, r.code)
	assert.Equal(t, `forbidden: User "system:serviceaccount:default:robot" cannot get path "/metrics"`, r.status(t).Message)

	r = c.do("POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings", map[string]any{
		"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "metadata": map[string]any{"name": "robot-view"},
		"roleRef":  map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "view"},
		"subjects": []any{map[string]any{"kind": "ServiceAccount", "name": "robot", "namespace": "default"}},
	}, bearer(adminToken)...)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	assert.Equal(t, http.StatusOK, c.do("GET", "/api/v1/namespaces/default/pods", nil, bearer(token)...).code)
	r = c.do("DELETE", "/api/v1/namespaces/default/configmaps/x", nil, bearer(token)...)
	assert.Equal(t, http.StatusForbidden, r.code)
	assert.Equal(t, `configmaps "x" is forbidden: User "system:serviceaccount:default:robot" cannot delete resource "configmaps" in API group "" in the namespace "default"`,
		r.status(t).Message)
	assert.Equal(t, http.StatusForbidden, c.do("GET", "/api/v1/namespaces/kube-system/pods", nil, bearer(token)...).code, "only in default")
	assert.Equal(t, http.StatusForbidden, c.do("GET", "/api/v1/namespaces/default/secrets", nil, bearer(token)...).code, "view has no secrets")
}

// TestCh01_RBACMissingRoleReason: a binding whose role is missing is RBAC's reason.
func TestCh01_RBACMissingRoleReason(t *testing.T) {
	_, c := rbacServer(t)
	token := saToken(t, c, "default", "robot")
	r := c.do("POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings", map[string]any{
		"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "metadata": map[string]any{"name": "dangling"},
		"roleRef":  map[string]any{"kind": "Role", "name": "not-yet"},
		"subjects": []any{map[string]any{"kind": "ServiceAccount", "name": "robot"}},
	}, bearer(adminToken)...)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	r = c.do("GET", "/api/v1/namespaces/default/pods", nil, bearer(token)...)
	assert.Equal(t, `pods is forbidden: User "system:serviceaccount:default:robot" cannot list resource "pods" in API group "" in the namespace "default": RBAC: role.rbac.authorization.k8s.io "not-yet" not found`,
		r.status(t).Message)
}

// TestCh01_RBACUsers checks who the server's users are under RBAC: the admin token and an
// open server's requests are all-powerful, anonymous requests reach only the public paths.
func TestCh01_RBACUsers(t *testing.T) {
	t.Run("admin token", func(t *testing.T) {
		_, c := rbacServer(t)
		assert.Equal(t, http.StatusOK, c.do("GET", "/api/v1/namespaces/kube-system/secrets", nil, bearer(adminToken)...).code)
		assert.Equal(t, http.StatusOK, c.get("/healthz").code, "system:public-info-viewer")
		assert.Equal(t, http.StatusUnauthorized, c.get("/api/v1/pods").code)
	})
	_, open := newServer(t, Options{Authorization: AuthorizationRBAC})
	assert.Equal(t, http.StatusOK, open.get("/api/v1/namespaces/kube-system/secrets").code, UnsecuredUser)
	r := open.do("GET", "/api/v1/pods", nil, "Impersonate-User", "alice")
	assert.Equal(t, http.StatusForbidden, r.code)
	assert.Equal(t, `pods is forbidden: User "alice" cannot list resource "pods" in API group "" at the cluster scope`, r.status(t).Message)
}

// TestCh01_RBACImpersonation checks impersonation over HTTP: the admin may act as anyone,
// a service account only once granted the impersonate verb, and a group alone is a 400.
func TestCh01_RBACImpersonation(t *testing.T) {
	_, c := rbacServer(t)
	token := saToken(t, c, "default", "robot")
	as := func(token string, kv ...string) []string { return append(bearer(token), kv...) }

	r := c.do("GET", "/api/v1/namespaces/default/pods", nil, as(adminToken, "Impersonate-User", "alice")...)
	assert.Equal(t, http.StatusForbidden, r.code)
	assert.Equal(t, `pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"`, r.status(t).Message)
	r = c.do("GET", "/api/v1/namespaces/default/pods", nil, as(adminToken, "Impersonate-User", "alice", "Impersonate-Group", "system:masters")...)
	assert.Equal(t, http.StatusOK, r.code, "the legacy mode lets the admin impersonate system:masters")

	r = c.do("GET", "/api/v1/namespaces/default/pods", nil, as(token, "Impersonate-User", "alice")...)
	assert.Equal(t, http.StatusForbidden, r.code)
	assert.Equal(t, `pods is forbidden: User "system:serviceaccount:default:robot" cannot impersonate-on:user-info:list resource "pods" in API group "" in the namespace "default"`,
		r.status(t).Message)

	r = c.do("GET", "/api/v1/namespaces/default/pods", nil, as(adminToken, "Impersonate-Group", "devs")...)
	assert.Equal(t, http.StatusBadRequest, r.code)

	for _, obj := range []map[string]any{
		{"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": map[string]any{"name": "impersonator"},
			"rules": []any{map[string]any{"verbs": []any{"impersonate"}, "apiGroups": []any{""}, "resources": []any{"users"}, "resourceNames": []any{"alice"}}}},
		{"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding", "metadata": map[string]any{"name": "robot-impersonates"},
			"roleRef":  map[string]any{"kind": "ClusterRole", "name": "impersonator"},
			"subjects": []any{map[string]any{"kind": "ServiceAccount", "name": "robot", "namespace": "default"}}},
	} {
		kind, _ := obj["kind"].(string)
		path := map[string]string{"ClusterRole": "clusterroles", "ClusterRoleBinding": "clusterrolebindings"}[kind]
		r := c.do("POST", "/apis/rbac.authorization.k8s.io/v1/"+path, obj, bearer(adminToken)...)
		require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	}
	r = c.do("POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews", map[string]any{
		"apiVersion": "authentication.k8s.io/v1", "kind": "SelfSubjectReview"}, as(token, "Impersonate-User", "alice")...)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	var ssr struct {
		Status struct {
			UserInfo struct {
				Username string
				Groups   []string
			} `json:"userInfo"`
		}
	}
	r.decode(t, &ssr)
	assert.Equal(t, "alice", ssr.Status.UserInfo.Username)
	assert.Equal(t, []string{"system:authenticated"}, ssr.Status.UserInfo.Groups)
	r = c.do("GET", "/api/v1/namespaces/default/pods", nil, as(token, "Impersonate-User", "bob")...)
	assert.Equal(t, http.StatusForbidden, r.code, "only alice")
}

// TestCh01_AlwaysAllowImpersonation: under AlwaysAllow anyone may impersonate anyone, as the
// real AlwaysAllow authorizer allows the impersonate verb too.
func TestCh01_AlwaysAllowImpersonation(t *testing.T) {
	_, c := newServer(t, Options{BearerToken: adminToken})
	token := saToken(t, c, "default", "robot")
	r := c.do("POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews", map[string]any{"apiVersion": "authentication.k8s.io/v1", "kind": "SelfSubjectReview"},
		append(bearer(token), "Impersonate-User", "system:serviceaccount:kube-system:other")...)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	var ssr map[string]any
	r.decode(t, &ssr)
	assert.Equal(t, map[string]any{"userInfo": map[string]any{"username": "system:serviceaccount:kube-system:other",
		"groups": []any{"system:serviceaccounts", "system:serviceaccounts:kube-system", "system:authenticated"}}}, ssr["status"])
	assert.Equal(t, http.StatusOK, c.do("GET", "/api/v1/pods", nil, bearer(token)...).code)
}
