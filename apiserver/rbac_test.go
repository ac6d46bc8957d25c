package apiserver

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"github.com/informer-lab/informer-lab/api"
	iprotobuf "github.com/informer-lab/informer-lab/internal/builtinproto"
)

const rbacV1 = "/apis/rbac.authorization.k8s.io/v1/"

// manifest reads a YAML manifest as the JSON tree a client would send.
func manifest(t *testing.T, file string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	var y map[string]any
	require.NoError(t, yaml.Unmarshal(data, &y))
	j, err := json.Marshal(y)
	require.NoError(t, err)
	var u api.Unstructured
	require.NoError(t, u.UnmarshalJSON(j))
	return u.Object
}

// TestCh01_RBACManifestsRoundTrip takes the realistic manifest of each RBAC kind through
// create, get, update, patch and delete, in JSON and in protobuf.
func TestCh01_RBACManifestsRoundTrip(t *testing.T) {
	files, err := filepath.Glob("testdata/roundtrip/rbac.authorization.k8s.io_*.yaml")
	require.NoError(t, err)
	require.Len(t, files, 4)
	_, c := newServer(t, Options{})
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			obj := manifest(t, f)
			u := &api.Unstructured{Object: obj}
			gvk := u.GroupVersionKind()
			res := map[string]string{"Role": "roles", "RoleBinding": "rolebindings", "ClusterRole": "clusterroles", "ClusterRoleBinding": "clusterrolebindings"}[gvk.Kind]
			coll := rbacV1 + res
			if gvk.Kind == "Role" || gvk.Kind == "RoleBinding" {
				coll = rbacV1 + "namespaces/default/" + res
			}
			item := coll + "/" + u.GetName()

			r := c.do("POST", coll, obj)
			require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
			var created map[string]any
			r.decode(t, &created)
			for _, k := range []string{"rules", "roleRef", "subjects", "aggregationRule"} {
				if want, ok := obj[k]; ok {
					wantJSON, _ := json.Marshal(want)
					gotJSON, _ := json.Marshal(created[k])
					assert.JSONEq(t, string(wantJSON), string(gotJSON), k)
				}
			}
			r = c.get(item)
			require.Equal(t, http.StatusOK, r.code)

			md := created["metadata"].(map[string]any)
			md["labels"] = map[string]any{"updated": "yes"}
			r = c.do("PUT", item, created)
			require.Equal(t, http.StatusOK, r.code, "%s", r.body)
			r = c.do("PATCH", item, `{"metadata":{"annotations":{"patched":"yes"}}}`, "Content-Type", "application/merge-patch+json")
			require.Equal(t, http.StatusOK, r.code, "%s", r.body)

			// The same object read and written in protobuf.
			r = c.do("GET", item, nil, "Accept", iprotobuf.ContentType)
			require.Equal(t, http.StatusOK, r.code)
			assert.Equal(t, iprotobuf.ContentType, r.header.Get("Content-Type"))
			pgvk, tree, err := iprotobuf.Decode(r.body)
			require.NoError(t, err)
			assert.Equal(t, gvk, pgvk)
			assert.Equal(t, "yes", tree["metadata"].(map[string]any)["annotations"].(map[string]any)["patched"])
			copyObj := manifest(t, f)
			copyObj["metadata"].(map[string]any)["name"] = u.GetName() + "-pb"
			body, err := iprotobuf.Encode(gvk, copyObj)
			require.NoError(t, err)
			r = c.do("POST", coll, body, "Content-Type", iprotobuf.ContentType, "Accept", iprotobuf.ContentType)
			require.Equal(t, http.StatusCreated, r.code, "%s", r.body)

			for _, name := range []string{u.GetName(), u.GetName() + "-pb"} {
				r = c.do("DELETE", coll+"/"+name, nil)
				require.Equal(t, http.StatusOK, r.code, "%s", r.body)
			}
			assert.Equal(t, http.StatusNotFound, c.get(item).code)
		})
	}
}

// TestCh01_RBACKindsOverHTTP checks the strategies of registry/rbac through the server: a
// PUT creates, system:* names are valid, the roleRef never changes, the defaults, and the
// binding's Table.
func TestCh01_RBACKindsOverHTTP(t *testing.T) {
	_, c := newServer(t, Options{})
	crb := map[string]any{"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding", "metadata": map[string]any{"name": "system:readers"},
		"roleRef":  map[string]any{"kind": "ClusterRole", "name": "view"},
		"subjects": []any{map[string]any{"kind": "Group", "name": "readers"}, map[string]any{"kind": "ServiceAccount", "name": "ci", "namespace": "tools"}}}
	r := c.do("PUT", rbacV1+"clusterrolebindings/system:readers", crb)
	require.Equal(t, http.StatusCreated, r.code, "a PUT creates: %s", r.body)
	var got map[string]any
	r.decode(t, &got)
	assert.Equal(t, map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "view"}, got["roleRef"])
	assert.Equal(t, map[string]any{"kind": "Group", "name": "readers", "apiGroup": "rbac.authorization.k8s.io"}, got["subjects"].([]any)[0])

	crb["roleRef"] = map[string]any{"kind": "ClusterRole", "name": "edit"}
	r = c.do("PUT", rbacV1+"clusterrolebindings/system:readers", crb)
	assert.Equal(t, http.StatusUnprocessableEntity, r.code)
	assert.Equal(t, `ClusterRoleBinding.rbac.authorization.k8s.io "system:readers" is invalid: roleRef: Invalid value: {"APIGroup":"rbac.authorization.k8s.io","Kind":"ClusterRole","Name":"edit"}: cannot change roleRef`,
		r.status(t).Message)

	r = c.do("GET", rbacV1+"clusterrolebindings", nil, "Accept", "application/json;as=Table;v=v1;g=meta.k8s.io")
	require.Equal(t, http.StatusOK, r.code)
	var table struct {
		ColumnDefinitions []struct{ Name string }
		Rows              []struct{ Cells []any }
	}
	r.decode(t, &table)
	var cols []string
	for _, col := range table.ColumnDefinitions {
		cols = append(cols, col.Name)
	}
	assert.Equal(t, []string{"Name", "Role", "Age", "Users", "Groups", "ServiceAccounts"}, cols)
	require.Len(t, table.Rows, 1)
	cells := table.Rows[0].Cells
	assert.Equal(t, []any{"system:readers", "ClusterRole/view", "", "readers", "tools/ci"}, []any{cells[0], cells[1], cells[3], cells[4], cells[5]})

	r = c.do("POST", rbacV1+"clusterroles", map[string]any{"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": map[string]any{"name": "bad"},
		"aggregationRule": map[string]any{}})
	assert.Equal(t, http.StatusUnprocessableEntity, r.code)
	assert.Equal(t, `ClusterRole.rbac.authorization.k8s.io "bad" is invalid: aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil`,
		r.status(t).Message)
}
