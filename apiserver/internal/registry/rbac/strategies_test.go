package rbac

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

func tree(t *testing.T, js string) *api.Unstructured {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(js), &m))
	return &api.Unstructured{Object: m}
}

// messages lists each cause as "field: message", as the Invalid Status prints them.
func messages(causes []api.StatusCause) []string {
	out := []string{}
	for _, c := range causes {
		out = append(out, c.Field+": "+c.Message)
	}
	return out
}

// TestCh01_RBACStrategyShape checks point 1: the scope of each kind, PUT creates,
// unconditional updates, no status and no generation, and path segment names.
func TestCh01_RBACStrategyShape(t *testing.T) {
	for _, k := range []rest.Kind{Roles(), RoleBindings(), ClusterRoles(), ClusterRoleBindings()} {
		s := k.Strategy
		assert.Equal(t, "rbac.authorization.k8s.io", k.Group)
		assert.Equal(t, k.Kind == "Role" || k.Kind == "RoleBinding", s.NamespaceScoped(), k.Kind)
		assert.True(t, s.AllowCreateOnUpdate(), k.Kind)
		assert.True(t, s.AllowUnconditionalUpdate(), k.Kind)
		assert.False(t, s.HasStatus() || s.HasScale() || s.HasGeneration(), k.Kind)
		nv, ok := s.(rest.NameValidator)
		require.True(t, ok, k.Kind)
		assert.Empty(t, nv.ValidateName("system:controller:job-controller"))
		assert.Equal(t, []string{"may not contain '/'"}, nv.ValidateName("a/b"))
		assert.Equal(t, []string{"may not be '..'"}, nv.ValidateName(".."))
	}
}

// TestCh01_RBACValidate checks points 2 and 3 with the causes the real server gives
// (captured from kube-apiserver v1.36.3).
func TestCh01_RBACValidate(t *testing.T) {
	tests := []struct {
		name string
		kind rest.Kind
		obj  string
		want []string
	}{
		{"role rules", Roles(),
			`{"rules":[{"verbs":[]},{"verbs":["get"],"nonResourceURLs":["/x"],"resources":["pods"]},{"verbs":["get"],"apiGroups":[""]}]}`,
			[]string{
				"rules[0].verbs: Required value: verbs must contain at least one value",
				"rules[0].apiGroups: Required value: resource rules must supply at least one api group",
				"rules[0].resources: Required value: resource rules must supply at least one resource",
				`rules[1].nonResourceURLs: Invalid value: ["/x"]: namespaced rules cannot apply to non-resource URLs`,
				`rules[1].nonResourceURLs: Invalid value: ["/x"]: rules cannot apply to both regular resources and non-resource URLs`,
				"rules[2].resources: Required value: resource rules must supply at least one resource",
			}},
		{"a cluster role may hold nonResourceURLs", ClusterRoles(), `{"rules":[{"verbs":["get"],"nonResourceURLs":["/healthz"]}]}`, []string{}},
		{"valid role", Roles(), `{"rules":[{"verbs":["get"],"apiGroups":[""],"resources":["pods"],"resourceNames":["a"]}]}`, []string{}},
		{"empty aggregation rule", ClusterRoles(), `{"aggregationRule":{}}`,
			[]string{"aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil"}},
		{"bad aggregation selector", ClusterRoles(), `{"aggregationRule":{"clusterRoleSelectors":[{"matchExpressions":[{"key":"a","operator":"In"}]}]}}`,
			[]string{
				"aggregationRule.clusterRoleSelectors[0].matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
				"aggregationRule.clusterRoleSelectors[0]: Invalid value: null: invalid label selector.",
			}},
		{"binding without roleRef (defaulted apiGroup)", RoleBindings(),
			`{"roleRef":{"apiGroup":"rbac.authorization.k8s.io"},"subjects":[{"name":"x"}]}`,
			[]string{
				`roleRef.kind: Unsupported value: "": supported values: "Role", "ClusterRole"`,
				"roleRef.name: Required value",
				`subjects[0].kind: Unsupported value: "": supported values: "ServiceAccount", "User", "Group"`,
			}},
		{"cluster binding", ClusterRoleBindings(),
			`{"roleRef":{"kind":"Role","name":"view","apiGroup":"x"},"subjects":[{"kind":"ServiceAccount","name":"Bad_Name","apiGroup":"rbac.authorization.k8s.io"},{"kind":"Robot","name":""},{"kind":"User","name":"u","apiGroup":"x"}]}`,
			[]string{
				`roleRef.apiGroup: Unsupported value: "x": supported values: "rbac.authorization.k8s.io"`,
				`roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"`,
				`subjects[0].name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
				`subjects[0].apiGroup: Unsupported value: "rbac.authorization.k8s.io": supported values: ""`,
				"subjects[0].namespace: Required value",
				"subjects[1].name: Required value",
				`subjects[1].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"`,
				`subjects[2].apiGroup: Unsupported value: "x": supported values: "rbac.authorization.k8s.io"`,
			}},
		{"a role binding's service account needs no namespace", RoleBindings(),
			`{"roleRef":{"kind":"ClusterRole","name":"view","apiGroup":"rbac.authorization.k8s.io"},"subjects":[{"kind":"ServiceAccount","name":"default"}]}`,
			[]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, messages(tt.kind.Strategy.Validate(tree(t, tt.obj))))
		})
	}
}

// TestCh01_RBACRoleRefImmutable checks point 3's update rule on both bindings.
func TestCh01_RBACRoleRefImmutable(t *testing.T) {
	old := `{"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"view"}}`
	for _, k := range []rest.Kind{RoleBindings(), ClusterRoleBindings()} {
		assert.Empty(t, k.Strategy.ValidateUpdate(tree(t, old), tree(t, old)), k.Kind)
		got := k.Strategy.ValidateUpdate(tree(t, `{"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"edit"}}`), tree(t, old))
		assert.Equal(t, []string{`roleRef: Invalid value: {"APIGroup":"rbac.authorization.k8s.io","Kind":"ClusterRole","Name":"edit"}: cannot change roleRef`},
			messages(got), k.Kind)
	}
	assert.Empty(t, Roles().Strategy.ValidateUpdate(tree(t, `{"rules":[]}`), tree(t, `{}`)))
}

// TestCh01_RBACBootstrapObjectsAreValid: what the server creates at start passes its own
// validation.
func TestCh01_RBACBootstrapObjectsAreValid(t *testing.T) {
	for _, k := range []rest.Kind{Roles(), RoleBindings(), ClusterRoles(), ClusterRoleBindings()} {
		for _, o := range k.Bootstrap() {
			u := &api.Unstructured{Object: o}
			assert.Empty(t, k.Strategy.Validate(u), "%s %s", k.Kind, u.GetName())
			assert.Empty(t, k.Strategy.(rest.NameValidator).ValidateName(u.GetName()), u.GetName())
		}
	}
}
