package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/kubernetes/plugin/pkg/auth/authorizer/rbac/bootstrappolicy"

	"github.com/informer-lab/informer-lab/tools/internal/datafiles"
)

// The files generate writes, one per kind, each a JSON array of objects.
const (
	clusterRolesFile        = "clusterroles.json"
	clusterRoleBindingsFile = "clusterrolebindings.json"
	rolesFile               = "roles.json"
	roleBindingsFile        = "rolebindings.json"
)

// generate returns the files to write, keyed by file name: the objects of each kind plus
// SHA256SUMS. The cluster-scoped objects keep the order in which the post-start hook of
// pkg/registry/rbac/rest creates them (bootstrappolicy's roles, then the controller roles);
// the namespaced ones, which the hook walks in map order, are sorted by namespace.
func generate() (map[string][]byte, error) {
	var clusterRoles, clusterRoleBindings, roles, roleBindings []any
	for _, r := range append(bootstrappolicy.ClusterRoles(), bootstrappolicy.ControllerRoles()...) {
		r.APIVersion, r.Kind = rbacv1.SchemeGroupVersion.String(), "ClusterRole"
		clusterRoles = append(clusterRoles, r)
	}
	for _, b := range append(bootstrappolicy.ClusterRoleBindings(), bootstrappolicy.ControllerRoleBindings()...) {
		b.APIVersion, b.Kind = rbacv1.SchemeGroupVersion.String(), "ClusterRoleBinding"
		clusterRoleBindings = append(clusterRoleBindings, b)
	}
	nsRoles := bootstrappolicy.NamespaceRoles()
	for _, ns := range sortedKeys(nsRoles) {
		for _, r := range nsRoles[ns] {
			r.APIVersion, r.Kind = rbacv1.SchemeGroupVersion.String(), "Role"
			roles = append(roles, r)
		}
	}
	nsBindings := bootstrappolicy.NamespaceRoleBindings()
	for _, ns := range sortedKeys(nsBindings) {
		for _, b := range nsBindings[ns] {
			b.APIVersion, b.Kind = rbacv1.SchemeGroupVersion.String(), "RoleBinding"
			roleBindings = append(roleBindings, b)
		}
	}
	files := map[string][]byte{}
	for name, objs := range map[string][]any{
		clusterRolesFile: clusterRoles, clusterRoleBindingsFile: clusterRoleBindings,
		rolesFile: roles, roleBindingsFile: roleBindings,
	} {
		data, err := encodeObjects(objs)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		files[name] = data
	}
	files[datafiles.SumsFile] = datafiles.SHA256Sums(files)
	return files, nil
}

// encodeObjects writes a JSON array with one object per line, each as compact JSON with
// sorted keys, no HTML escaping and no null members (a Go nil slice or pointer is absent,
// as in what the real server stores).
func encodeObjects(objs []any) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString("[")
	for i, o := range objs {
		data, err := json.Marshal(o)
		if err != nil {
			return nil, err
		}
		var tree map[string]any
		if err := json.Unmarshal(data, &tree); err != nil {
			return nil, err
		}
		dropNulls(tree)
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.WriteByte('\n')
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(tree); err != nil {
			return nil, err
		}
		buf.Truncate(buf.Len() - 1) // Encode's newline
	}
	buf.WriteString("\n]\n")
	return buf.Bytes(), nil
}

// dropNulls removes every null member of the tree, in place.
func dropNulls(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if e == nil {
				delete(v, k)
				continue
			}
			dropNulls(e)
		}
	case []any:
		for _, e := range v {
			dropNulls(e)
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
