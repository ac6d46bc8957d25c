package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// dataDir is where make rbac writes the files, seen from this package's directory.
const dataDir = "../../../apiserver/internal/registry/rbac/bootstrap"

func TestCh01_RBACGenerateIsReproducible(t *testing.T) {
	first, err := generate()
	require.NoError(t, err)
	second, err := generate()
	require.NoError(t, err)
	require.Equal(t, len(first), len(second))
	for name, data := range first {
		assert.True(t, bytes.Equal(data, second[name]), "%s differs between two runs", name)
	}
}

// TestCh01_CommittedRBACBootstrapIsCurrent: the files the main module embeds are what the
// generator writes now, so nobody edits them by hand and a version bump in go.mod is
// followed by make rbac.
func TestCh01_CommittedRBACBootstrapIsCurrent(t *testing.T) {
	files, err := generate()
	require.NoError(t, err)
	onDisk, err := filepath.Glob(filepath.Join(dataDir, "*"))
	require.NoError(t, err)
	var names, want []string
	for _, p := range onDisk {
		names = append(names, filepath.Base(p))
	}
	for n := range files {
		want = append(want, n)
	}
	sort.Strings(want)
	require.Equal(t, want, names, "the files in %s", dataDir)
	for name, data := range files {
		got, err := os.ReadFile(filepath.Join(dataDir, name))
		require.NoError(t, err)
		assert.True(t, bytes.Equal(data, got), "%s is stale: run make rbac", name)
	}
}

// TestCh01_RBACBootstrapMatchesUpstreamFixtures compares every generated object with the
// fixtures the Kubernetes repository keeps for the same release
// (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/testdata, which its own tests pin against
// the policy code with the default feature gates): the same objects, field by field.
func TestCh01_RBACBootstrapMatchesUpstreamFixtures(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "k8s.io/kubernetes").Output()
	require.NoError(t, err, "locating the k8s.io/kubernetes module")
	fixtures := filepath.Join(strings.TrimSpace(string(out)), "plugin", "pkg", "auth", "authorizer", "rbac", "bootstrappolicy", "testdata")
	files, err := generate()
	require.NoError(t, err)
	tests := []struct {
		file     string
		fixtures []string
	}{
		{clusterRolesFile, []string{"cluster-roles.yaml", "controller-roles.yaml"}},
		{clusterRoleBindingsFile, []string{"cluster-role-bindings.yaml", "controller-role-bindings.yaml"}},
		{rolesFile, []string{"namespace-roles.yaml"}},
		{roleBindingsFile, []string{"namespace-role-bindings.yaml"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			var want []any
			for _, f := range tt.fixtures {
				data, err := os.ReadFile(filepath.Join(fixtures, f))
				require.NoError(t, err)
				var list struct {
					Items []map[string]any `json:"items"`
				}
				require.NoError(t, yaml.Unmarshal(data, &list))
				for _, it := range list.Items {
					// The fixtures are written from Go structs: a zero creationTimestamp
					// shows as null, which the stored objects never carry.
					dropNulls(it)
					want = append(want, it)
				}
			}
			var got []any
			require.NoError(t, json.Unmarshal(files[tt.file], &got))
			require.NotEmpty(t, got)
			// The fixtures list each file's objects by name; the generated files keep the
			// order in which the server creates them.
			sortByKey(want)
			sortByKey(got)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-fixtures +generated):\n%s", diff)
			}
		})
	}
}

// sortByKey orders objects by namespace, then name.
func sortByKey(objs []any) {
	key := func(o any) string {
		md, _ := o.(map[string]any)["metadata"].(map[string]any)
		ns, _ := md["namespace"].(string)
		name, _ := md["name"].(string)
		return ns + "/" + name
	}
	sort.SliceStable(objs, func(i, j int) bool { return key(objs[i]) < key(objs[j]) })
}
