package rest

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/fields"
)

// obj builds an object from its top-level members.
func obj(members map[string]any) *api.Unstructured {
	o := map[string]any{"apiVersion": "v1", "kind": "Thing", "metadata": map[string]any{"name": "x"}}
	for k, v := range members {
		o[k] = v
	}
	return &api.Unstructured{Object: o}
}

var _ Strategy = Base{}

// TestCh01_Strategy_BaseAnswers checks point 3 of the rest contract: Base's generic
// answers, set by its fields.
func TestCh01_Strategy_BaseAnswers(t *testing.T) {
	type answers struct {
		Namespaced, Status, Scale, Generation, CreateOnUpdate, Unconditional bool
		ResetFields                                                          map[string][]string
	}
	tests := []struct {
		name string
		b    Base
		want answers
	}{
		{"zero", Base{}, answers{Namespaced: true}},
		{"cluster", Base{Cluster: true}, answers{}},
		{"status", Base{Status: true}, answers{Namespaced: true, Status: true, ResetFields: map[string][]string{"v1": {"status"}}}},
		{"everything", Base{Status: true, Scale: true, Generation: true, Unconditional: true},
			answers{Namespaced: true, Status: true, Scale: true, Generation: true, Unconditional: true, ResetFields: map[string][]string{"v1": {"status"}}}},
	}
	for _, tt := range tests {
		got := answers{
			Namespaced: tt.b.NamespaceScoped(), Status: tt.b.HasStatus(), Scale: tt.b.HasScale(), Generation: tt.b.HasGeneration(),
			CreateOnUpdate: tt.b.AllowCreateOnUpdate(), Unconditional: tt.b.AllowUnconditionalUpdate(), ResetFields: tt.b.GetResetFields(),
		}
		assert.Empty(t, cmp.Diff(tt.want, got), tt.name)

		o := obj(map[string]any{"spec": map[string]any{"a": "b"}})
		before := o.DeepCopy()
		tt.b.Canonicalize(o)
		assert.Empty(t, cmp.Diff(before.Object, o.Object), "Canonicalize stores objects as written")
		assert.Nil(t, tt.b.WarningsOnCreate(o))
		assert.Nil(t, tt.b.WarningsOnUpdate(o, before))
		assert.Nil(t, tt.b.ValidateUpdate(o, before))
		assert.Nil(t, tt.b.Validate(o), "no GVK, no presence checks")
	}
}

// TestCh01_Strategy_PrepareForCreate checks that a create's status is the kind's reset
// status (a fresh map each time), or the body's when the kind has none.
func TestCh01_Strategy_PrepareForCreate(t *testing.T) {
	bodyStatus := map[string]any{"replicas": int64(5), "phase": "Running"}
	tests := []struct {
		name  string
		reset func() map[string]any
		body  map[string]any
		want  any
	}{
		{"no reset keeps the body's", nil, bodyStatus, bodyStatus},
		{"no reset, no status", nil, nil, nil},
		{"empty status", EmptyStatus, bodyStatus, map[string]any{}},
		{"empty status on a body without one", EmptyStatus, nil, map[string]any{}},
		{"zero members", ZeroStatus("replicas", "availableReplicas"), bodyStatus, map[string]any{"replicas": int64(0), "availableReplicas": int64(0)}},
		{"zero of nothing", ZeroStatus(), bodyStatus, map[string]any{}},
	}
	for _, tt := range tests {
		members := map[string]any{"spec": map[string]any{}}
		if tt.body != nil {
			members["status"] = api.DeepCopyJSONValue(tt.body)
		}
		o := obj(members)
		Base{ResetStatus: tt.reset}.PrepareForCreate(Context{}, o)
		assert.Empty(t, cmp.Diff(tt.want, o.Object["status"]), tt.name)
		if tt.want == nil {
			assert.NotContains(t, o.Object, "status", tt.name)
		}
	}
	// Each reset is a new map: a write into one object's status reaches no other.
	reset := ZeroStatus("replicas")
	a, b := reset(), reset()
	a["replicas"] = int64(3)
	assert.Equal(t, int64(0), b["replicas"])
	e1, e2 := EmptyStatus(), EmptyStatus()
	e1["x"] = 1
	assert.Empty(t, e2)
}

// TestCh01_Strategy_PrepareForUpdate checks that a kind with a status subresource keeps the
// stored status whatever the body says, and that the generation moves only on a spec change
// of a kind that has one (the store has set the body's generation to the stored one).
func TestCh01_Strategy_PrepareForUpdate(t *testing.T) {
	stored := func() *api.Unstructured {
		o := obj(map[string]any{"spec": map[string]any{"replicas": int64(1)}, "status": map[string]any{"ready": int64(1)}})
		o.SetGeneration(4)
		return o
	}
	annotationsToo := func(old, o *api.Unstructured) bool {
		return !cmp.Equal(old.GetAnnotations(), o.GetAnnotations()) || SpecChanged(old, o)
	}
	tests := []struct {
		name       string
		b          Base
		edit       func(o *api.Unstructured)
		oldEdit    func(o *api.Unstructured)
		wantStatus any
		wantGen    int64
	}{
		{name: "status kept, spec change moves the generation", b: Base{Status: true},
			edit: func(o *api.Unstructured) {
				o.Object["spec"] = map[string]any{"replicas": int64(2)}
				o.Object["status"] = map[string]any{"ready": int64(9)}
			},
			wantStatus: map[string]any{"ready": int64(1)}, wantGen: 5},
		{name: "status kept though the body drops it", b: Base{Status: true},
			edit:       func(o *api.Unstructured) { delete(o.Object, "status") },
			wantStatus: map[string]any{"ready": int64(1)}, wantGen: 4},
		{name: "no stored status: the body's goes", b: Base{Status: true},
			oldEdit:    func(o *api.Unstructured) { delete(o.Object, "status") },
			edit:       func(o *api.Unstructured) { o.Object["status"] = map[string]any{"ready": int64(9)} },
			wantStatus: nil, wantGen: 4},
		{name: "no status subresource: the body's status is written", b: Base{},
			edit:       func(o *api.Unstructured) { o.Object["status"] = map[string]any{"ready": int64(9)} },
			wantStatus: map[string]any{"ready": int64(9)}, wantGen: 4},
		{name: "metadata change keeps the generation", b: Base{Status: true},
			edit:       func(o *api.Unstructured) { o.SetLabels(map[string]string{"a": "b"}) },
			wantStatus: map[string]any{"ready": int64(1)}, wantGen: 4},
		{name: "a new top-level member is a spec change", b: Base{},
			edit:       func(o *api.Unstructured) { o.Object["data"] = map[string]any{"k": "v"} },
			wantStatus: map[string]any{"ready": int64(1)}, wantGen: 5},
		{name: "a removed spec is a spec change", b: Base{},
			edit:       func(o *api.Unstructured) { delete(o.Object, "spec") },
			wantStatus: map[string]any{"ready": int64(1)}, wantGen: 5},
		{name: "no generation (0): nothing moves", b: Base{},
			oldEdit:    func(o *api.Unstructured) { o.SetGeneration(0) },
			edit:       func(o *api.Unstructured) { o.SetGeneration(0); o.Object["spec"] = map[string]any{"replicas": int64(2)} },
			wantStatus: map[string]any{"ready": int64(1)}, wantGen: 0},
		{name: "the kind's SpecChanged: annotations move it", b: Base{Status: true, SpecChanged: annotationsToo},
			edit:       func(o *api.Unstructured) { o.SetAnnotations(map[string]string{"a": "b"}) },
			wantStatus: map[string]any{"ready": int64(1)}, wantGen: 5},
		{name: "the kind's SpecChanged replaces the generic one", b: Base{SpecChanged: func(_, _ *api.Unstructured) bool { return false }},
			edit:       func(o *api.Unstructured) { o.Object["spec"] = map[string]any{"replicas": int64(2)} },
			wantStatus: map[string]any{"ready": int64(1)}, wantGen: 4},
	}
	for _, tt := range tests {
		old := stored()
		if tt.oldEdit != nil {
			tt.oldEdit(old)
		}
		o := old.DeepCopy()
		tt.edit(o)
		if o.GetGeneration() > 0 {
			o.SetGeneration(old.GetGeneration()) // what the store does before
		}
		oldCopy := old.DeepCopy()
		tt.b.PrepareForUpdate(Context{}, o, old)
		assert.Empty(t, cmp.Diff(tt.wantStatus, o.Object["status"]), tt.name)
		assert.Equal(t, tt.wantGen, o.GetGeneration(), tt.name)
		assert.Empty(t, cmp.Diff(oldCopy.Object, old.Object), "%s: the stored object is not changed", tt.name)
		if st, ok := o.Object["status"].(map[string]any); ok && tt.b.Status {
			st["ready"] = int64(100)
			assert.Empty(t, cmp.Diff(oldCopy.Object, old.Object), "%s: the kept status is a copy", tt.name)
		}
	}
}

// TestCh01_Strategy_KeepFields checks KeepFields: the named top-level members of old, deep
// copied, and removed where old lacks them; others untouched.
func TestCh01_Strategy_KeepFields(t *testing.T) {
	old := obj(map[string]any{"spec": map[string]any{"a": []any{"x"}}, "status": map[string]any{"s": "old"}})
	tests := []struct {
		name   string
		fields []string
		body   map[string]any
		want   map[string]any
	}{
		{"keep status", []string{"status"},
			map[string]any{"spec": "new", "status": "new"},
			map[string]any{"spec": "new", "status": map[string]any{"s": "old"}}},
		{"keep two", []string{"status", "spec"},
			map[string]any{"spec": "new", "status": "new", "data": "new"},
			map[string]any{"spec": map[string]any{"a": []any{"x"}}, "status": map[string]any{"s": "old"}, "data": "new"}},
		{"old lacks it: removed", []string{"data"},
			map[string]any{"spec": "new", "data": "new"},
			map[string]any{"spec": "new"}},
		{"nothing named", nil,
			map[string]any{"spec": "new"},
			map[string]any{"spec": "new"}},
	}
	for _, tt := range tests {
		o := &api.Unstructured{Object: tt.body}
		KeepFields(o, old, tt.fields...)
		assert.Empty(t, cmp.Diff(tt.want, o.Object), tt.name)
	}
	o := &api.Unstructured{Object: map[string]any{}}
	KeepFields(o, old, "spec")
	o.Object["spec"].(map[string]any)["a"].([]any)[0] = "changed"
	assert.Equal(t, "x", old.Object["spec"].(map[string]any)["a"].([]any)[0], "a deep copy")
}

// TestCh01_Strategy_SpecChanged checks the generic comparison: anything outside metadata
// and status, added, removed or changed.
func TestCh01_Strategy_SpecChanged(t *testing.T) {
	base := map[string]any{"metadata": map[string]any{"name": "x"}, "spec": map[string]any{"r": int64(1)}, "status": map[string]any{"s": "a"}}
	tests := []struct {
		name string
		edit func(m map[string]any)
		want bool
	}{
		{"same", func(map[string]any) {}, false},
		{"metadata", func(m map[string]any) {
			m["metadata"] = map[string]any{"name": "x", "labels": map[string]any{"a": "b"}}
		}, false},
		{"status", func(m map[string]any) { m["status"] = map[string]any{"s": "b"} }, false},
		{"status removed", func(m map[string]any) { delete(m, "status") }, false},
		{"metadata removed", func(m map[string]any) { delete(m, "metadata") }, false},
		{"spec value", func(m map[string]any) { m["spec"] = map[string]any{"r": int64(2)} }, true},
		{"spec type", func(m map[string]any) { m["spec"] = map[string]any{"r": float64(1)} }, true},
		{"spec removed", func(m map[string]any) { delete(m, "spec") }, true},
		{"member added", func(m map[string]any) { m["data"] = map[string]any{} }, true},
		{"kind", func(m map[string]any) { m["kind"] = "Other" }, true},
	}
	for _, tt := range tests {
		old := &api.Unstructured{Object: api.DeepCopyJSONValue(base).(map[string]any)}
		o := old.DeepCopy()
		tt.edit(o.Object)
		assert.Equal(t, tt.want, SpecChanged(old, o), tt.name)
		assert.Equal(t, tt.want, SpecChanged(o, old), "%s (reversed)", tt.name)
	}
}

// TestCh01_Strategy_RequiredCauses checks the presence checks of a built-in kind's OpenAPI
// schema: a Required cause for each missing required member, except the pod template
// (templatePath) and a pod spec's containers, which the kinds report through what they
// lack, and except a path a cause already names.
func TestCh01_Strategy_RequiredCauses(t *testing.T) {
	deploy := api.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
	pod := api.GroupVersionKind{Version: "v1", Kind: "Pod"}
	svc := api.GroupVersionKind{Version: "v1", Kind: "Service"}
	required := func(paths ...string) []api.StatusCause {
		var out []api.StatusCause
		for _, p := range paths {
			out = append(out, api.StatusCause{Type: api.CauseTypeFieldValueRequired, Message: "Required value", Field: p})
		}
		return out
	}
	earlier := api.StatusCause{Type: api.CauseTypeFieldValueInvalid, Message: "earlier", Field: "spec.selector"}
	tests := []struct {
		name     string
		gvk      api.GroupVersionKind
		object   map[string]any
		causes   []api.StatusCause
		template string
		want     []api.StatusCause
	}{
		{name: "deployment without selector and template", gvk: deploy,
			object: map[string]any{"spec": map[string]any{}},
			want:   required("spec.selector", "spec.template")},
		{name: "the template is the kind's to report", gvk: deploy, template: "spec.template",
			object: map[string]any{"spec": map[string]any{}},
			want:   required("spec.selector")},
		{name: "a path already named is not repeated", gvk: deploy, template: "spec.template",
			object: map[string]any{"spec": map[string]any{}}, causes: []api.StatusCause{earlier},
			want: []api.StatusCause{earlier}},
		{name: "a template without containers is not reported here", gvk: deploy,
			object: map[string]any{"spec": map[string]any{"selector": map[string]any{}, "template": map[string]any{"spec": map[string]any{}}}}},
		{name: "a container's name", gvk: deploy,
			object: map[string]any{"spec": map[string]any{"selector": map[string]any{}, "template": map[string]any{"spec": map[string]any{"containers": []any{map[string]any{"image": "x"}}}}}},
			want:   required("spec.template.spec.containers[0].name")},
		{name: "no spec at all: spec is not required", gvk: deploy, object: map[string]any{}},
		{name: "pod without containers", gvk: pod, object: map[string]any{"spec": map[string]any{}}},
		{name: "pod container without a name", gvk: pod,
			object: map[string]any{"spec": map[string]any{"containers": []any{map[string]any{}, map[string]any{"name": "b"}}}},
			want:   required("spec.containers[0].name")},
		{name: "service port without a port", gvk: svc,
			object: map[string]any{"spec": map[string]any{"ports": []any{map[string]any{"name": "http"}}}},
			want:   required("spec.ports[0].port")},
		{name: "status is not checked for presence", gvk: deploy,
			object: map[string]any{"spec": map[string]any{"selector": map[string]any{}, "template": map[string]any{}},
				"status": map[string]any{"conditions": []any{map[string]any{}}}}},
		{name: "unknown kind: causes unchanged", gvk: api.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Foo"},
			object: map[string]any{"spec": map[string]any{}}, causes: []api.StatusCause{earlier},
			want: []api.StatusCause{earlier}},
	}
	for _, tt := range tests {
		o := &api.Unstructured{Object: map[string]any{"apiVersion": tt.gvk.APIVersion(), "kind": tt.gvk.Kind, "metadata": map[string]any{"name": "x"}}}
		for k, v := range tt.object {
			o.Object[k] = v
		}
		got := RequiredCauses(tt.gvk, o, tt.causes, tt.template)
		assert.Empty(t, cmp.Diff(tt.want, got), tt.name)
		if tt.template == "" && tt.causes == nil {
			assert.Empty(t, cmp.Diff(tt.want, Base{GVK: tt.gvk}.Validate(o)), "%s: Base.Validate", tt.name)
		}
	}
}

// TestCh01_Strategy_FieldSetOf checks field sets: every label present, its read's zero when
// the object lacks it, the first non-empty path winning, and an empty set for an object
// that is not unstructured.
func TestCh01_Strategy_FieldSetOf(t *testing.T) {
	set := FieldSetOf(map[string]FieldRead{
		"spec.nodeName":       TextField("spec.nodeName"),
		"spec.unschedulable":  BoolField("spec.unschedulable"),
		"status.successful":   IntField("status.succeeded"),
		"status.podIP":        TextField("status.podIPs.0.ip", "status.podIP"),
		"spec.neverSet":       {},
		"spec.restartPolicy":  TextField("spec.restartPolicy"),
		"status.nominatedNow": {Zero: "z"},
	})
	tests := []struct {
		name   string
		object any
		want   fields.Set
	}{
		{name: "empty object: zeros", object: &api.Unstructured{Object: map[string]any{}}, want: fields.Set{
			"spec.nodeName": "", "spec.unschedulable": "false", "status.successful": "0", "status.podIP": "",
			"spec.neverSet": "", "spec.restartPolicy": "", "status.nominatedNow": "z",
		}},
		{name: "values", object: &api.Unstructured{Object: map[string]any{
			"spec":   map[string]any{"nodeName": "n1", "unschedulable": true, "restartPolicy": "Never"},
			"status": map[string]any{"succeeded": int64(3), "podIP": "10.0.0.1", "podIPs": []any{map[string]any{"ip": "10.0.0.2"}}},
		}}, want: fields.Set{
			"spec.nodeName": "n1", "spec.unschedulable": "true", "status.successful": "3", "status.podIP": "10.0.0.2",
			"spec.neverSet": "", "spec.restartPolicy": "Never", "status.nominatedNow": "z",
		}},
		{name: "first path empty: the next one", object: &api.Unstructured{Object: map[string]any{
			"status": map[string]any{"podIP": "10.0.0.1", "podIPs": []any{}, "succeeded": int64(0)},
		}}, want: fields.Set{
			"spec.nodeName": "", "spec.unschedulable": "false", "status.successful": "0", "status.podIP": "10.0.0.1",
			"spec.neverSet": "", "spec.restartPolicy": "", "status.nominatedNow": "z",
		}},
		{name: "not unstructured", object: &api.Pod{}, want: fields.Set{}},
	}
	for _, tt := range tests {
		o, ok := tt.object.(api.Object)
		require.True(t, ok)
		assert.Empty(t, cmp.Diff(tt.want, set(o)), tt.name)
	}
	assert.Empty(t, FieldSetOf(nil)(&api.Unstructured{Object: map[string]any{}}))
}
