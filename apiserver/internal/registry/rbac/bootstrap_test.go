package rbac

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/internal/sha256sums"
)

// TestCh01_RBACBootstrapIsPinned: every embedded file has the digest SHA256SUMS gives it and
// SHA256SUMS lists exactly the embedded files; make rbac rewrites both together.
func TestCh01_RBACBootstrapIsPinned(t *testing.T) {
	sums, err := bootstrapFiles.ReadFile(bootstrapDir + "/SHA256SUMS")
	require.NoError(t, err)
	want, err := sha256sums.Parse(sums)
	require.NoError(t, err)
	entries, err := bootstrapFiles.ReadDir(bootstrapDir)
	require.NoError(t, err)
	got := map[string]string{}
	for _, e := range entries {
		if e.Name() == "SHA256SUMS" {
			continue
		}
		data, err := bootstrapFiles.ReadFile(bootstrapDir + "/" + e.Name())
		require.NoError(t, err)
		got[e.Name()] = sha256sums.Sum(data)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("embedded files differ from SHA256SUMS (-SHA256SUMS +embedded); run make rbac:\n%s", diff)
	}
}

// TestCh01_RBACBootstrapObjects checks point 4: each kind's Bootstrap returns valid objects
// of its kind, in its scope, with the bootstrap metadata, and fresh copies on each call. It
// also pins the roles the authorizer's defaults rest on.
func TestCh01_RBACBootstrapObjects(t *testing.T) {
	tests := []struct {
		kind  string
		objs  []map[string]any
		count int
		names []string
	}{
		{"ClusterRole", ClusterRoles().Bootstrap(), 69, []string{"cluster-admin", "admin", "edit", "view", "system:discovery",
			"system:basic-user", "system:public-info-viewer", "system:aggregate-to-view"}},
		{"ClusterRoleBinding", ClusterRoleBindings().Bootstrap(), 50, []string{"cluster-admin", "system:discovery",
			"system:basic-user", "system:public-info-viewer"}},
		{"Role", Roles().Bootstrap(), 7, []string{"extension-apiserver-authentication-reader"}},
		{"RoleBinding", RoleBindings().Bootstrap(), 7, []string{"system::extension-apiserver-authentication-reader"}},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			require.Len(t, tt.objs, tt.count)
			var names []string
			for _, o := range tt.objs {
				assert.Equal(t, "rbac.authorization.k8s.io/v1", o["apiVersion"])
				assert.Equal(t, tt.kind, o["kind"])
				md := child(o, "metadata")
				names = append(names, str(md, "name"))
				_, namespaced := md["namespace"]
				assert.Equal(t, tt.kind == "Role" || tt.kind == "RoleBinding", namespaced, str(md, "name"))
				assert.Equal(t, "rbac-defaults", str(child(md, "labels"), "kubernetes.io/bootstrapping"), str(md, "name"))
				assert.Equal(t, "true", str(child(md, "annotations"), "rbac.authorization.kubernetes.io/autoupdate"), str(md, "name"))
			}
			assert.Subset(t, names, tt.names)
		})
	}
	first := ClusterRoles().Bootstrap()
	first[0]["kind"] = "changed"
	assert.Equal(t, "ClusterRole", ClusterRoles().Bootstrap()[0]["kind"], "each call parses afresh")
}
