package admission

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/informer-lab/informer-lab/api"
)

// TestCh01_PolicyMatch_ResourceRules: operations, groups, versions, resources with their
// subresource forms, scope, resource names, exclusions and selectors, as
// matching.Matcher.Matches decides them.
func TestCh01_PolicyMatch_ResourceRules(t *testing.T) {
	pod := &Attributes{Operation: Create, Resource: api.GroupResource{Resource: "pods"}, Version: "v1", Namespace: "ns", Name: "p",
		Object: &api.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "p", "labels": map[string]any{"app": "web"}}}},
		Namespaces: func(string) *api.Unstructured {
			return &api.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "ns", "labels": map[string]any{"env": "prod"}}}}
		}}
	status := *pod
	status.Subresource = "status"
	node := &Attributes{Operation: Update, Resource: api.GroupResource{Resource: "nodes"}, Version: "v1", Name: "n"}
	rule := func(ops, groups, versions, resources []any, scope string) map[string]any {
		r := map[string]any{"operations": ops, "apiGroups": groups, "apiVersions": versions, "resources": resources}
		if scope != "" {
			r["scope"] = scope
		}
		return r
	}
	all := []any{"*"}
	for _, tc := range []struct {
		name string
		a    *Attributes
		mr   map[string]any
		want bool
	}{
		{"no constraints", pod, nil, true},
		{"exact", pod, map[string]any{"resourceRules": []any{rule([]any{"CREATE"}, []any{""}, []any{"v1"}, []any{"pods"}, "")}}, true},
		{"other operation", pod, map[string]any{"resourceRules": []any{rule([]any{"UPDATE"}, all, all, all, "")}}, false},
		{"other version", pod, map[string]any{"resourceRules": []any{rule(all, all, []any{"v1beta1"}, all, "")}}, false},
		{"other group", pod, map[string]any{"resourceRules": []any{rule(all, []any{"apps"}, all, all, "")}}, false},
		{"* is not a subresource", &status, map[string]any{"resourceRules": []any{rule(all, all, all, all, "")}}, false},
		{"*/status", &status, map[string]any{"resourceRules": []any{rule(all, all, all, []any{"*/status"}, "")}}, true},
		{"pods/*", &status, map[string]any{"resourceRules": []any{rule(all, all, all, []any{"pods/*"}, "")}}, true},
		{"*/*", &status, map[string]any{"resourceRules": []any{rule(all, all, all, []any{"*/*"}, "")}}, true},
		{"cluster scope refuses a pod", pod, map[string]any{"resourceRules": []any{rule(all, all, all, all, "Cluster")}}, false},
		{"cluster scope takes a node", node, map[string]any{"resourceRules": []any{rule(all, all, all, all, "Cluster")}}, true},
		{"resource name", pod, map[string]any{"resourceRules": []any{map[string]any{"operations": all, "apiGroups": all, "apiVersions": all, "resources": all, "resourceNames": []any{"q"}}}}, false},
		{"excluded", pod, map[string]any{"excludeResourceRules": []any{rule(all, all, all, []any{"pods"}, "")}}, false},
		{"namespace selector", pod, map[string]any{"namespaceSelector": map[string]any{"matchLabels": map[string]any{"env": "prod"}}}, true},
		{"namespace selector misses", pod, map[string]any{"namespaceSelector": map[string]any{"matchLabels": map[string]any{"env": "dev"}}}, false},
		{"namespace selector ignores cluster-scoped", node, map[string]any{"namespaceSelector": map[string]any{"matchLabels": map[string]any{"env": "dev"}}}, true},
		{"object selector", pod, map[string]any{"objectSelector": map[string]any{"matchExpressions": []any{map[string]any{"key": "app", "operator": "In", "values": []any{"web"}}}}}, true},
		{"object selector misses", pod, map[string]any{"objectSelector": map[string]any{"matchLabels": map[string]any{"app": "db"}}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, matchResources(tc.a, tc.mr))
		})
	}
}
