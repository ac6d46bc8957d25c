package apps

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

// TestCh01_Strategy_DaemonSetTemplateGeneration: the deprecated template-generation
// annotation is 1 on create (or the client's value), ignores a client's value on update,
// comes back when removed, and moves by one when the template changes, as the real server
// answers.
func TestCh01_Strategy_DaemonSetTemplateGeneration(t *testing.T) {
	s := DaemonSets().Strategy
	annotated := func(v string) *api.Unstructured {
		u := workloadObj("DaemonSet")
		if v != "" {
			u.SetAnnotations(map[string]string{templateGenerationAnnotation: v})
		}
		return u
	}
	cases := []struct {
		name      string
		old       *api.Unstructured // nil: a create
		obj       *api.Unstructured
		newImage  bool
		wantValue string
	}{
		{"create", nil, annotated(""), false, "1"},
		{"create with a value", nil, annotated("5"), false, "5"},
		{"update ignores the client's value", annotated("1"), annotated("7"), false, "1"},
		{"update restores a removed annotation", annotated("3"), annotated(""), false, "3"},
		{"template change", annotated("2"), annotated("2"), true, "3"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.newImage {
				tc.obj.Object["spec"].(map[string]any)["template"].(map[string]any)["spec"] = map[string]any{"containers": []any{map[string]any{"name": "c", "image": "nginx:2"}}}
			}
			if tc.old == nil {
				s.PrepareForCreate(rest.Context{}, tc.obj)
			} else {
				s.PrepareForUpdate(rest.Context{}, tc.obj, tc.old)
			}
			assert.Equal(t, tc.wantValue, tc.obj.GetAnnotations()[templateGenerationAnnotation])
		})
	}
}
