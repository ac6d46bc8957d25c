package ch01_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/apiserver"
)

// TestCh01_RBAC_CanIAsAndServiceAccountToken is the README's "Who may do what" session at
// the HTTP level, each step the request the kubectl command beside it sends: alice may not
// list pods, a service account's token is refused with the real 403, and both are allowed
// once a RoleBinding grants the view ClusterRole. (TestCh01_Kubectl_RBACCanIAs and
// TestCh01_Kubectl_CreateTokenRefusedThenAllowed in harness/e2e/kubectl run the same with the
// real kubectl.)
func TestCh01_RBAC_CanIAsAndServiceAccountToken(t *testing.T) {
	const admin = "admin-token"
	s, hc := startLab(t, apiserver.Options{BearerToken: admin, Authorization: apiserver.AuthorizationRBAC})
	do := func(method, path, token string, body any, header ...string) (int, map[string]any) {
		t.Helper()
		var rd io.Reader
		if body != nil {
			data, err := json.Marshal(body)
			require.NoError(t, err)
			rd = bytes.NewReader(data)
		}
		req, err := http.NewRequest(method, s.URL()+path, rd)
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+token)
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := hc.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		var out map[string]any
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
		return resp.StatusCode, out
	}
	canI := func(token string, header ...string) bool {
		t.Helper()
		code, out := do("POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", token, map[string]any{
			"apiVersion": "authorization.k8s.io/v1", "kind": "SelfSubjectAccessReview",
			"spec": map[string]any{"resourceAttributes": map[string]any{"verb": "list", "resource": "pods", "namespace": "default"}},
		}, header...)
		require.Equal(t, http.StatusCreated, code)
		return out["status"].(map[string]any)["allowed"].(bool)
	}

	// kubectl auth can-i list pods --as alice  →  no
	assert.False(t, canI(admin, "Impersonate-User", "alice"))
	// kubectl auth can-i list pods  →  yes (the admin token's user is in system:masters)
	assert.True(t, canI(admin))

	// kubectl create serviceaccount robot; kubectl create token robot
	code, _ := do("POST", "/api/v1/namespaces/default/serviceaccounts", admin, map[string]any{
		"apiVersion": "v1", "kind": "ServiceAccount", "metadata": map[string]any{"name": "robot"}})
	require.Equal(t, http.StatusCreated, code)
	code, tr := do("POST", "/api/v1/namespaces/default/serviceaccounts/robot/token", admin, map[string]any{
		"apiVersion": "authentication.k8s.io/v1", "kind": "TokenRequest", "spec": map[string]any{}})
	require.Equal(t, http.StatusCreated, code)
	token := tr["status"].(map[string]any)["token"].(string)

	// kubectl --token $TOKEN get pods  →  Forbidden
	code, st := do("GET", "/api/v1/namespaces/default/pods", token, nil)
	assert.Equal(t, http.StatusForbidden, code)
	assert.Equal(t, `pods is forbidden: User "system:serviceaccount:default:robot" cannot list resource "pods" in API group "" in the namespace "default"`, st["message"])

	// kubectl create rolebinding readers --clusterrole=view --user=alice --serviceaccount=default:robot
	code, _ = do("POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings", admin, map[string]any{
		"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "metadata": map[string]any{"name": "readers"},
		"roleRef": map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "view"},
		"subjects": []any{
			map[string]any{"kind": "User", "apiGroup": "rbac.authorization.k8s.io", "name": "alice"},
			map[string]any{"kind": "ServiceAccount", "name": "robot", "namespace": "default"},
		},
	})
	require.Equal(t, http.StatusCreated, code)

	// kubectl auth can-i list pods --as alice  →  yes; kubectl --token $TOKEN get pods  →  the list
	assert.True(t, canI(admin, "Impersonate-User", "alice"))
	assert.True(t, canI(token))
	code, list := do("GET", "/api/v1/namespaces/default/pods", token, nil)
	assert.Equal(t, http.StatusOK, code)
	assert.Equal(t, "PodList", list["kind"])
	// ... in namespace default only: kubectl --token $TOKEN -n kube-system get pods  →  Forbidden
	code, _ = do("GET", "/api/v1/namespaces/kube-system/pods", token, nil)
	assert.Equal(t, http.StatusForbidden, code)
}
