package defaulting

// defaultBinding mirrors SetDefaults_RoleBinding, SetDefaults_ClusterRoleBinding and
// SetDefaults_Subject of pkg/apis/rbac/v1: the roleRef's apiGroup, and each subject's by its
// kind (none for a ServiceAccount, rbac.authorization.k8s.io for a User or a Group).
func defaultBinding(obj map[string]any) {
	const group = "rbac.authorization.k8s.io"
	ref, ok := obj["roleRef"].(map[string]any)
	if !ok {
		// The real binding always has a roleRef (a struct, not a pointer).
		ref = map[string]any{}
		obj["roleRef"] = ref
	}
	if g, _ := ref["apiGroup"].(string); g == "" {
		ref["apiGroup"] = group
	}
	subjects, _ := obj["subjects"].([]any)
	for _, s := range subjects {
		subject, ok := s.(map[string]any)
		if !ok {
			continue
		}
		if g, _ := subject["apiGroup"].(string); g != "" {
			continue
		}
		switch subject["kind"] {
		case "User", "Group":
			subject["apiGroup"] = group
		}
	}
}
