package authz

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// policy is a Source over objects written as JSON.
type policy struct {
	roles, roleBindings, clusterRoles, clusterRoleBindings []map[string]any
}

func objs(t *testing.T, js ...string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, j := range js {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(j), &m), j)
		out = append(out, m)
	}
	return out
}

func (p *policy) ClusterRoleBindings() []map[string]any { return p.clusterRoleBindings }
func (p *policy) ClusterRoles() []map[string]any {
	return append([]map[string]any(nil), p.clusterRoles...)
}
func (p *policy) RoleBindings(ns string) []map[string]any {
	var out []map[string]any
	for _, b := range p.roleBindings {
		if str(child(b, "metadata"), "namespace") == ns {
			out = append(out, b)
		}
	}
	return out
}

func (p *policy) Role(ns, name string) map[string]any {
	for _, r := range p.roles {
		if str(child(r, "metadata"), "namespace") == ns && nameOf(r) == name {
			return r
		}
	}
	return nil
}

func (p *policy) ClusterRole(name string) map[string]any {
	for _, r := range p.clusterRoles {
		if nameOf(r) == name {
			return r
		}
	}
	return nil
}

// testPolicy has a namespaced pod reader, an aggregated ClusterRole, resource-named and
// subresource rules, non-resource URLs and bindings to users, groups and service accounts.
func testPolicy(t *testing.T) *policy {
	return &policy{
		roles: objs(t,
			`{"metadata":{"name":"pod-reader","namespace":"dev"},"rules":[{"verbs":["get","list"],"apiGroups":[""],"resources":["pods"]}]}`,
		),
		roleBindings: objs(t,
			`{"metadata":{"name":"alice-reads","namespace":"dev"},"roleRef":{"kind":"Role","name":"pod-reader"},"subjects":[{"kind":"User","name":"alice"}]}`,
			`{"metadata":{"name":"robot-edits","namespace":"dev"},"roleRef":{"kind":"ClusterRole","name":"editor"},"subjects":[{"kind":"ServiceAccount","name":"robot"}]}`,
			`{"metadata":{"name":"dangling","namespace":"dev"},"roleRef":{"kind":"Role","name":"gone"},"subjects":[{"kind":"User","name":"carol"}]}`,
		),
		clusterRoles: objs(t,
			`{"metadata":{"name":"editor"},"aggregationRule":{"clusterRoleSelectors":[{"matchLabels":{"agg/edit":"true"}}]},"rules":[{"verbs":["*"],"apiGroups":["*"],"resources":["*"]}]}`,
			`{"metadata":{"name":"editor-pods","labels":{"agg/edit":"true","agg/admin":"true"}},"rules":[{"verbs":["create","update"],"apiGroups":[""],"resources":["pods","pods/log"]}]}`,
			`{"metadata":{"name":"editor-more","labels":{"agg/edit":"true"}},"aggregationRule":{"clusterRoleSelectors":[{"matchLabels":{"agg/more":"true"}}]}}`,
			`{"metadata":{"name":"more-deploys","labels":{"agg/more":"true"}},"rules":[{"verbs":["get"],"apiGroups":["apps"],"resources":["deployments/scale"]},{"verbs":["create","update"],"apiGroups":[""],"resources":["pods","pods/log"]}]}`,
			`{"metadata":{"name":"cycle-a","labels":{"c":"b"}},"aggregationRule":{"clusterRoleSelectors":[{"matchLabels":{"c":"a"}}]}}`,
			`{"metadata":{"name":"cycle-b","labels":{"c":"a"}},"aggregationRule":{"clusterRoleSelectors":[{"matchLabels":{"c":"b"}}]}}`,
			`{"metadata":{"name":"named-cm"},"rules":[{"verbs":["get"],"apiGroups":[""],"resources":["configmaps"],"resourceNames":["app-config"]}]}`,
			`{"metadata":{"name":"status-only"},"rules":[{"verbs":["patch"],"apiGroups":["*"],"resources":["*/status"]}]}`,
			`{"metadata":{"name":"health"},"rules":[{"verbs":["get"],"nonResourceURLs":["/healthz","/logs/*"]}]}`,
		),
		clusterRoleBindings: objs(t,
			`{"metadata":{"name":"devs-cm"},"roleRef":{"kind":"ClusterRole","name":"named-cm"},"subjects":[{"kind":"Group","name":"devs"}]}`,
			`{"metadata":{"name":"status"},"roleRef":{"kind":"ClusterRole","name":"status-only"},"subjects":[{"kind":"ServiceAccount","name":"ctl","namespace":"ops"}]}`,
			`{"metadata":{"name":"health"},"roleRef":{"kind":"ClusterRole","name":"health"},"subjects":[{"kind":"Group","name":"system:authenticated"}]}`,
			`{"metadata":{"name":"cycle"},"roleRef":{"kind":"ClusterRole","name":"cycle-a"},"subjects":[{"kind":"User","name":"looper"}]}`,
		),
	}
}

// TestCh01_RBACAuthorize checks points 3 and 4: which requests each binding allows, and the
// reason the decision gives.
func TestCh01_RBACAuthorize(t *testing.T) {
	a := &RBAC{Source: testPolicy(t)}
	alice := &User{Name: "alice", Groups: []string{AllAuthenticated}}
	robot := &User{Name: "system:serviceaccount:dev:robot", Groups: append(ServiceAccountGroups("dev"), AllAuthenticated)}
	ctl := &User{Name: "system:serviceaccount:ops:ctl"}
	dev := &User{Name: "dora", Groups: []string{"devs"}}
	res := func(u *User, verb, group, ns, resource, sub, name string) Attributes {
		return Attributes{User: u, Verb: verb, ResourceRequest: true, APIGroup: group, Namespace: ns, Resource: resource, Subresource: sub, Name: name}
	}
	path := func(u *User, verb, p string) Attributes { return Attributes{User: u, Verb: verb, Path: p} }
	tests := []struct {
		name   string
		attrs  Attributes
		allow  bool
		reason string
	}{
		{"role in its namespace", res(alice, "list", "", "dev", "pods", "", ""), true,
			`RBAC: allowed by RoleBinding "alice-reads/dev" of Role "pod-reader" to User "alice"`},
		{"not another verb", res(alice, "delete", "", "dev", "pods", "", "p"), false, ""},
		{"not another namespace", res(alice, "list", "", "prod", "pods", "", ""), false, ""},
		{"not cluster-wide", res(alice, "list", "", "", "pods", "", ""), false, ""},
		{"not a subresource", res(alice, "get", "", "dev", "pods", "log", "p"), false, ""},
		{"aggregated role through a service account subject without namespace", res(robot, "create", "", "dev", "pods", "", ""), true,
			`RBAC: allowed by RoleBinding "robot-edits/dev" of ClusterRole "editor" to ServiceAccount "robot/dev"`},
		{"aggregated role's own rules are ignored", res(robot, "delete", "", "dev", "pods", "", "x"), false, ""},
		{"nested aggregation", res(robot, "get", "apps", "dev", "deployments", "scale", "d"), true,
			`RBAC: allowed by RoleBinding "robot-edits/dev" of ClusterRole "editor" to ServiceAccount "robot/dev"`},
		{"subresource by name", res(robot, "update", "", "dev", "pods", "log", "p"), true,
			`RBAC: allowed by RoleBinding "robot-edits/dev" of ClusterRole "editor" to ServiceAccount "robot/dev"`},
		{"the service account of another namespace", res(&User{Name: "system:serviceaccount:prod:robot"}, "create", "", "dev", "pods", "", ""), false, ""},
		{"resource name", res(dev, "get", "", "x", "configmaps", "", "app-config"), true,
			`RBAC: allowed by ClusterRoleBinding "devs-cm" of ClusterRole "named-cm" to Group "devs"`},
		{"other resource name", res(dev, "get", "", "x", "configmaps", "", "other"), false, ""},
		{"resource names do not allow a list", res(dev, "list", "", "x", "configmaps", "", ""), false, ""},
		{"*/status", res(ctl, "patch", "apps", "", "deployments", "status", "d"), true,
			`RBAC: allowed by ClusterRoleBinding "status" of ClusterRole "status-only" to ServiceAccount "ctl/ops"`},
		{"*/status is not the resource", res(ctl, "patch", "apps", "", "deployments", "", "d"), false, ""},
		{"non-resource URL", path(alice, "get", "/healthz"), true,
			`RBAC: allowed by ClusterRoleBinding "health" of ClusterRole "health" to Group "system:authenticated"`},
		{"non-resource prefix", path(alice, "get", "/logs/kube/x"), true,
			`RBAC: allowed by ClusterRoleBinding "health" of ClusterRole "health" to Group "system:authenticated"`},
		{"non-resource other path", path(alice, "get", "/metrics"), false, ""},
		{"a missing role is the reason", res(&User{Name: "carol"}, "get", "", "dev", "pods", "", "p"), false,
			`RBAC: role.rbac.authorization.k8s.io "gone" not found`},
		{"a cycle of aggregated roles grants nothing", res(&User{Name: "looper"}, "get", "", "x", "pods", "", "p"), false, ""},
		{"nobody", res(&User{Name: "nobody"}, "get", "", "dev", "pods", "", "p"), false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, reason := a.Authorize(tt.attrs)
			assert.Equal(t, tt.allow, d == DecisionAllow)
			assert.NotEqual(t, DecisionDeny, d, "RBAC never denies")
			assert.Equal(t, tt.reason, reason)
		})
	}
}

// TestCh01_RBACRulesFor checks RulesFor and the chain's split of the rules into resource and
// non-resource ones, and AlwaysAllow's everything.
func TestCh01_RBACRulesFor(t *testing.T) {
	c := &Chain{Mode: ModeRBAC, RBAC: &RBAC{Source: testPolicy(t)}}
	res, nonRes, evalErr := c.RulesFor(&User{Name: "alice", Groups: []string{AllAuthenticated}}, "dev")
	assert.Equal(t, []ResourceRule{{Verbs: []string{"get", "list"}, APIGroups: []string{""}, Resources: []string{"pods"}}}, res)
	assert.Equal(t, []NonResourceRule{{Verbs: []string{"get"}, NonResourceURLs: []string{"/healthz", "/logs/*"}}}, nonRes)
	assert.Empty(t, evalErr)

	_, _, evalErr = c.RulesFor(&User{Name: "carol"}, "dev")
	assert.Equal(t, `role.rbac.authorization.k8s.io "gone" not found`, evalErr)

	res, _, _ = c.RulesFor(&User{Name: "system:serviceaccount:dev:robot"}, "dev")
	assert.Equal(t, []ResourceRule{
		{Verbs: []string{"get"}, APIGroups: []string{"apps"}, Resources: []string{"deployments/scale"}},
		{Verbs: []string{"create", "update"}, APIGroups: []string{""}, Resources: []string{"pods", "pods/log"}},
	}, res, "matching roles by name (editor-more, then editor-pods), each rule once")

	allow := &Chain{Mode: ModeAlwaysAllow}
	res, nonRes, _ = allow.RulesFor(&User{Name: "x"}, "dev")
	assert.Equal(t, []ResourceRule{{Verbs: []string{"*"}, APIGroups: []string{"*"}, Resources: []string{"*"}}}, res)
	assert.Equal(t, []NonResourceRule{{Verbs: []string{"*"}, NonResourceURLs: []string{"*"}}}, nonRes)
}

// TestCh01_ChainAndForbidden checks points 2 and 5: system:masters before the mode,
// AlwaysAllow, and the 403 texts.
func TestCh01_ChainAndForbidden(t *testing.T) {
	rbac := &Chain{Mode: ModeRBAC, RBAC: &RBAC{Source: &policy{}}}
	pods := Attributes{Verb: "list", ResourceRequest: true, Namespace: "default", Resource: "pods"}
	admin := pods
	admin.User = &User{Name: "root", Groups: []string{SystemPrivilegedGroup}}
	d, _ := rbac.Authorize(admin)
	assert.Equal(t, DecisionAllow, d)
	x := pods
	x.User = &User{Name: "x"}
	d, _ = rbac.Authorize(x)
	assert.Equal(t, DecisionNoOpinion, d)
	d, _ = (&Chain{Mode: ModeAlwaysAllow}).Authorize(x)
	assert.Equal(t, DecisionAllow, d)

	tests := []struct {
		attrs  Attributes
		reason string
		msg    string
	}{
		{x, "", `pods is forbidden: User "x" cannot list resource "pods" in API group "" in the namespace "default"`},
		{Attributes{User: &User{Name: "x"}, Verb: "get", ResourceRequest: true, APIGroup: "apps", Resource: "deployments", Subresource: "scale", Name: "d", Namespace: "ns"}, "",
			`deployments.apps "d" is forbidden: User "x" cannot get resource "deployments/scale" in API group "apps" in the namespace "ns"`},
		{Attributes{User: &User{Name: "x"}, Verb: "list", ResourceRequest: true, Resource: "nodes"}, `RBAC: clusterrole.rbac.authorization.k8s.io "gone" not found`,
			`nodes is forbidden: User "x" cannot list resource "nodes" in API group "" at the cluster scope: RBAC: clusterrole.rbac.authorization.k8s.io "gone" not found`},
		{Attributes{User: &User{Name: "<b>"}, Verb: "get", Path: "/metrics"}, "",
			`forbidden: User "&lt;b&gt;" cannot get path "/metrics"`},
	}
	for _, tt := range tests {
		st := Forbidden(tt.attrs, tt.reason)
		assert.Equal(t, int32(403), st.Code)
		assert.Equal(t, "Forbidden", string(st.Reason))
		assert.Equal(t, tt.msg, st.Message)
		assert.Equal(t, tt.attrs.Name, st.Details.Name)
		assert.Equal(t, tt.attrs.Resource, st.Details.Kind)
	}
}

// revisioned is a policy whose revision a test moves by hand.
type revisioned struct {
	*policy
	rev uint64
}

func (r *revisioned) Revision() uint64 { return r.rev }

// TestCh01_RBACAggregationCache: with a Revisioned source the aggregated rules are gathered
// once per revision, and a new revision sees a changed aggregated role.
func TestCh01_RBACAggregationCache(t *testing.T) {
	p := &revisioned{policy: testPolicy(t), rev: 1}
	a := &RBAC{Source: p}
	robot := &User{Name: "system:serviceaccount:dev:robot"}
	deletePods := Attributes{User: robot, Verb: "delete", ResourceRequest: true, Namespace: "dev", Resource: "pods", Name: "x"}
	d, _ := a.Authorize(deletePods)
	require.Equal(t, DecisionNoOpinion, d)

	for _, r := range p.clusterRoles {
		if nameOf(r) == "editor-pods" {
			r["rules"] = []any{map[string]any{"verbs": []any{"delete"}, "apiGroups": []any{""}, "resources": []any{"pods"}}}
		}
	}
	d, _ = a.Authorize(deletePods)
	assert.Equal(t, DecisionNoOpinion, d, "same revision: the cached rules")
	p.rev++
	d, _ = a.Authorize(deletePods)
	assert.Equal(t, DecisionAllow, d, "a new revision gathers again")
}
