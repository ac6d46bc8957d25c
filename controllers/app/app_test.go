package app_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/labels"
	"github.com/informer-lab/informer-lab/controllers/app"
)

func TestCh14_LabelSelectorAsSelector(t *testing.T) {
	tests := []struct {
		name string
		sel  *app.LabelSelector
		set  labels.Set
		want bool
	}{
		{"nil selects nothing", nil, labels.Set{"a": "1"}, false},
		{"empty selects everything", &app.LabelSelector{}, labels.Set{"a": "1"}, true},
		{"matchLabels", &app.LabelSelector{MatchLabels: map[string]string{"a": "1"}}, labels.Set{"a": "1", "b": "2"}, true},
		{"matchLabels miss", &app.LabelSelector{MatchLabels: map[string]string{"a": "2"}}, labels.Set{"a": "1"}, false},
		{"In", &app.LabelSelector{MatchExpressions: []app.LabelSelectorRequirement{{Key: "a", Operator: "In", Values: []string{"1", "3"}}}}, labels.Set{"a": "1"}, true},
		{"DoesNotExist", &app.LabelSelector{MatchExpressions: []app.LabelSelectorRequirement{{Key: "a", Operator: "DoesNotExist"}}}, labels.Set{"a": "1"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := app.LabelSelectorAsSelector(tc.sel)
			require.NoError(t, err)
			require.Equal(t, tc.want, s.Matches(tc.set))
		})
	}
	_, err := app.LabelSelectorAsSelector(&app.LabelSelector{MatchExpressions: []app.LabelSelectorRequirement{{Key: "a", Operator: "Near"}}})
	require.Error(t, err)
}

func TestCh14_GetPodFromTemplate(t *testing.T) {
	owner := &api.Unstructured{Object: map[string]any{"apiVersion": "apps/v1", "kind": "ReplicaSet",
		"metadata": map[string]any{"name": "web-5d4f", "namespace": "ns", "uid": "u1"}}}
	tmpl := map[string]any{
		"metadata": map[string]any{"labels": map[string]any{"app": "web"}},
		"spec":     map[string]any{"containers": []any{map[string]any{"name": "c", "image": "nginx"}}},
	}
	ref := app.NewControllerRef(owner)
	pod := app.GetPodFromTemplate(tmpl, owner, &ref)
	require.Equal(t, "web-5d4f-", pod.GetGenerateName())
	require.Equal(t, "ns", pod.GetNamespace())
	require.Equal(t, map[string]string{"app": "web"}, pod.GetLabels())
	require.Equal(t, "u1", app.GetControllerOf(pod).UID)
	// the pod's spec is a copy: changing it leaves the template alone
	app.NestedMap(pod.Object, "spec")["nodeName"] = "n1"
	_, has := tmpl["spec"].(map[string]any)["nodeName"]
	require.False(t, has)
	require.Equal(t, "n1", app.NodeName(pod))
	require.True(t, app.IsPodActive(pod))
	require.False(t, app.IsPodReady(pod))
}
