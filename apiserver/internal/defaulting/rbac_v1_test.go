package defaulting

import "testing"

var rbacCases = []defaultCase{
	{
		name: "role binding roleRef and subjects", group: "rbac.authorization.k8s.io", version: "v1", kind: "RoleBinding",
		in: `{"roleRef":{"kind":"ClusterRole","name":"view"},"subjects":[{"kind":"User","name":"bob"},
			{"kind":"ServiceAccount","name":"default"},{"kind":"Group","name":"g"},{"kind":"Robot","name":"r"}]}`,
		want: `{"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"view"},"subjects":[
			{"kind":"User","name":"bob","apiGroup":"rbac.authorization.k8s.io"},{"kind":"ServiceAccount","name":"default"},
			{"kind":"Group","name":"g","apiGroup":"rbac.authorization.k8s.io"},{"kind":"Robot","name":"r"}]}`,
	},
	{
		name: "cluster role binding keeps what is set", group: "rbac.authorization.k8s.io", version: "v1", kind: "ClusterRoleBinding",
		in:   `{"roleRef":{"apiGroup":"x","kind":"ClusterRole","name":"view"},"subjects":[{"kind":"User","name":"u","apiGroup":"y"}]}`,
		want: `{"roleRef":{"apiGroup":"x","kind":"ClusterRole","name":"view"},"subjects":[{"kind":"User","name":"u","apiGroup":"y"}]}`,
	},
	{
		name: "binding without roleRef gets one", group: "rbac.authorization.k8s.io", version: "v1", kind: "ClusterRoleBinding",
		in:   `{}`,
		want: `{"roleRef":{"apiGroup":"rbac.authorization.k8s.io"}}`,
	},
	{
		name: "role has nothing to default", group: "rbac.authorization.k8s.io", version: "v1", kind: "Role",
		in:   `{"rules":[{"verbs":["get"]}]}`,
		want: `{"rules":[{"verbs":["get"]}]}`,
	},
}

func TestCh01_Defaulting_RBAC(t *testing.T) { runCases(t, rbacCases) }
