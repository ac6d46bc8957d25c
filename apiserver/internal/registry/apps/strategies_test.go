package apps

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

// workloadObj returns a valid apps/v1 object of kind: a selector matching its template's
// labels, and a container with an image.
func workloadObj(kind string) *api.Unstructured {
	return &api.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": kind,
		"metadata": map[string]any{"name": "web", "namespace": "ns", "generation": int64(3)},
		"spec": map[string]any{
			"selector": map[string]any{"matchLabels": map[string]any{"app": "web"}},
			"template": map[string]any{
				"metadata": map[string]any{"labels": map[string]any{"app": "web", "tier": "front"}},
				"spec":     map[string]any{"containers": []any{map[string]any{"name": "c", "image": "nginx"}}},
			},
		},
		"status": map[string]any{"replicas": int64(2)},
	}}
}

// TestCh01_Strategy_AppsKinds checks point 1 and 2 of the apps contract for each kind: its
// names, its subresources and the status a create starts with, written out as the real
// server serialises it.
func TestCh01_Strategy_AppsKinds(t *testing.T) {
	tests := []struct {
		kind       rest.Kind
		resource   string
		short      string
		scale      bool
		wantStatus map[string]any
	}{
		{Deployments(), "deployments", "deploy", true, map[string]any{}},
		{ReplicaSets(), "replicasets", "rs", true, map[string]any{"replicas": int64(0)}},
		{StatefulSets(), "statefulsets", "sts", true, map[string]any{"replicas": int64(0), "availableReplicas": int64(0)}},
		{DaemonSets(), "daemonsets", "ds", false, map[string]any{
			"currentNumberScheduled": int64(0), "numberMisscheduled": int64(0), "desiredNumberScheduled": int64(0), "numberReady": int64(0),
		}},
	}
	for _, tt := range tests {
		k, s := tt.kind, tt.kind.Strategy
		assert.Equal(t, "apps", k.Group, tt.resource)
		assert.Equal(t, tt.resource, k.Resource)
		assert.Equal(t, []string{tt.short}, k.ShortNames)
		assert.Equal(t, []string{"all"}, k.Categories)
		assert.True(t, s.NamespaceScoped(), tt.resource)
		assert.True(t, s.HasStatus(), tt.resource)
		assert.True(t, s.HasGeneration(), tt.resource)
		assert.True(t, s.AllowUnconditionalUpdate(), tt.resource)
		assert.Equal(t, tt.scale, s.HasScale(), tt.resource)
		assert.Equal(t, map[string][]string{"v1": {"status"}}, s.GetResetFields(), tt.resource)

		o := workloadObj(k.Kind)
		s.PrepareForCreate(rest.Context{}, o)
		assert.Empty(t, cmp.Diff(tt.wantStatus, o.Object["status"]), tt.resource)
		assert.Empty(t, s.Validate(workloadObj(k.Kind)), "%s: a valid object", tt.resource)
	}
}

// TestCh01_Strategy_AppsGeneration checks point 4: a Deployment's generation also moves on
// a change of annotations, the other kinds' only on a spec change; labels and status never
// move it.
func TestCh01_Strategy_AppsGeneration(t *testing.T) {
	edits := []struct {
		name string
		edit func(o *api.Unstructured)
		// whether the generation moves for a Deployment and for the others
		deployment, others bool
	}{
		{"annotations", func(o *api.Unstructured) { o.SetAnnotations(map[string]string{"kubernetes.io/change-cause": "x"}) }, true, false},
		{"labels", func(o *api.Unstructured) { o.SetLabels(map[string]string{"a": "b"}) }, false, false},
		{"status", func(o *api.Unstructured) { o.Object["status"] = map[string]any{"replicas": int64(9)} }, false, false},
		{"replicas", func(o *api.Unstructured) { o.Object["spec"].(map[string]any)["replicas"] = int64(5) }, true, true},
		{"nothing", func(*api.Unstructured) {}, false, false},
	}
	for _, k := range []rest.Kind{Deployments(), ReplicaSets(), StatefulSets(), DaemonSets()} {
		for _, e := range edits {
			old := workloadObj(k.Kind)
			o := old.DeepCopy()
			e.edit(o)
			k.Strategy.PrepareForUpdate(rest.Context{}, o, old)
			want := e.others
			if k.Kind == "Deployment" {
				want = e.deployment
			}
			wantGen := int64(3)
			if want {
				wantGen = 4
			}
			assert.Equal(t, wantGen, o.GetGeneration(), "%s: %s", k.Kind, e.name)
			assert.Equal(t, old.Object["status"], o.Object["status"], "%s: %s keeps the stored status", k.Kind, e.name)
		}
	}
}

// TestCh01_Strategy_AppsValidate checks point 3: a selector is required (but a DaemonSet's)
// and must select the template's labels, the template needs named containers with an
// image, and the schema's
// presence checks follow, each path reported once.
func TestCh01_Strategy_AppsValidate(t *testing.T) {
	type cause struct{ Type, Field string }
	spec := func(o *api.Unstructured) map[string]any { return o.Object["spec"].(map[string]any) }
	tests := []struct {
		name string
		edit func(o *api.Unstructured)
		want []cause
	}{
		{"valid", func(*api.Unstructured) {}, nil},
		{"no selector", func(o *api.Unstructured) { delete(spec(o), "selector") },
			[]cause{{"FieldValueRequired", "spec.selector"}, {"FieldValueInvalid", "spec.template.metadata.labels"}}},
		{"empty selector", func(o *api.Unstructured) { spec(o)["selector"] = map[string]any{} },
			[]cause{{"FieldValueInvalid", "spec.selector"}}},
		{"selector does not match", func(o *api.Unstructured) {
			spec(o)["selector"] = map[string]any{"matchLabels": map[string]any{"app": "other"}}
		}, []cause{{"FieldValueInvalid", "spec.template.metadata.labels"}}},
		{"no containers", func(o *api.Unstructured) {
			spec(o)["template"].(map[string]any)["spec"] = map[string]any{}
		}, []cause{{"FieldValueRequired", "spec.template.spec.containers"}}},
		{"no template", func(o *api.Unstructured) { delete(spec(o), "template") },
			[]cause{{"FieldValueInvalid", "spec.template.metadata.labels"}, {"FieldValueRequired", "spec.template.spec.containers"}}},
		{"container without image nor name", func(o *api.Unstructured) {
			spec(o)["template"].(map[string]any)["spec"] = map[string]any{"containers": []any{map[string]any{}}}
		}, []cause{{"FieldValueRequired", "spec.template.spec.containers[0].name"}, {"FieldValueRequired", "spec.template.spec.containers[0].image"}}},
	}
	for _, k := range []rest.Kind{Deployments(), ReplicaSets(), StatefulSets(), DaemonSets()} {
		for _, tt := range tests {
			o := workloadObj(k.Kind)
			tt.edit(o)
			want := tt.want
			if k.Kind == "DaemonSet" && tt.name == "no selector" {
				want = want[1:] // ValidateDaemonSetSpec does not require one: nothing matches
			}
			var got []cause
			for _, c := range k.Strategy.Validate(o) {
				got = append(got, cause{string(c.Type), c.Field})
			}
			assert.Empty(t, cmp.Diff(want, got), "%s: %s", k.Kind, tt.name)
		}
	}
}
