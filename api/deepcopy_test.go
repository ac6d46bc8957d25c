package api_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// fullMeta fills every reference field of ObjectMeta, next to nil and empty ones elsewhere.
func fullMeta() api.ObjectMeta {
	return api.ObjectMeta{
		Name:                       "a",
		Namespace:                  "demo",
		CreationTimestamp:          date(3, 4, 5),
		DeletionTimestamp:          ptr(date(3, 4, 6)),
		DeletionGracePeriodSeconds: ptr(int64(30)),
		Labels:                     map[string]string{"app": "web"},
		Annotations:                map[string]string{}, // empty, not nil: must stay so
		OwnerReferences: []api.OwnerReference{{
			APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs", UID: "u",
			Controller: ptr(true), BlockOwnerDeletion: ptr(true),
		}},
		Finalizers: []string{"f"},
	}
}

// mutateMeta changes every reference field of m in place.
func mutateMeta(m *api.ObjectMeta) {
	m.DeletionTimestamp.Time = m.DeletionTimestamp.Add(time.Hour)
	*m.DeletionGracePeriodSeconds = 0
	m.Labels["app"] = "changed"
	m.Annotations["new"] = "x"
	*m.OwnerReferences[0].Controller = false
	*m.OwnerReferences[0].BlockOwnerDeletion = false
	m.OwnerReferences[0].Name = "changed"
	m.Finalizers[0] = "changed"
}

func TestAPI_DeepCopy(t *testing.T) {
	tests := []struct {
		name   string
		build  func() api.Object
		mutate func(api.Object)
	}{
		{
			name: "Pod",
			build: func() api.Object {
				return &api.Pod{
					ObjectMeta: fullMeta(),
					Spec:       api.PodSpec{Containers: []api.Container{{Name: "c", Image: "i"}}},
					Status: api.PodStatus{Conditions: []api.PodCondition{
						{Type: api.PodReady, Status: api.ConditionTrue},
					}},
				}
			},
			mutate: func(o api.Object) {
				p := o.(*api.Pod)
				mutateMeta(&p.ObjectMeta)
				p.Spec.Containers[0].Image = "changed"
				p.Status.Conditions[0].Status = api.ConditionFalse
			},
		},
		{
			name: "PodList",
			build: func() api.Object {
				return &api.PodList{
					ListMeta: api.ListMeta{ResourceVersion: "9", RemainingItemCount: ptr(int64(3))},
					Items:    []api.Pod{{ObjectMeta: fullMeta()}},
				}
			},
			mutate: func(o api.Object) {
				l := o.(*api.PodList)
				*l.RemainingItemCount = 0
				mutateMeta(&l.Items[0].ObjectMeta)
			},
		},
		{
			name: "ConfigMap",
			build: func() api.Object {
				return &api.ConfigMap{
					ObjectMeta: fullMeta(),
					Immutable:  ptr(true),
					Data:       map[string]string{"k": "v"},
					BinaryData: map[string][]byte{"b": {1, 2}, "empty": {}, "nil": nil},
				}
			},
			mutate: func(o api.Object) {
				c := o.(*api.ConfigMap)
				mutateMeta(&c.ObjectMeta)
				*c.Immutable = false
				c.Data["k"] = "changed"
				c.BinaryData["b"][0] = 9
			},
		},
		{
			name: "ConfigMapList",
			build: func() api.Object {
				return &api.ConfigMapList{Items: []api.ConfigMap{{Data: map[string]string{"k": "v"}}}}
			},
			mutate: func(o api.Object) { o.(*api.ConfigMapList).Items[0].Data["k"] = "changed" },
		},
		{
			name: "Namespace",
			build: func() api.Object {
				return &api.Namespace{
					ObjectMeta: fullMeta(),
					Spec:       api.NamespaceSpec{Finalizers: []string{api.FinalizerKubernetes}},
					Status:     api.NamespaceStatus{Phase: api.NamespaceActive},
				}
			},
			mutate: func(o api.Object) {
				n := o.(*api.Namespace)
				mutateMeta(&n.ObjectMeta)
				n.Spec.Finalizers[0] = "changed"
			},
		},
		{
			name: "NamespaceList",
			build: func() api.Object {
				return &api.NamespaceList{Items: []api.Namespace{{ObjectMeta: fullMeta()}}}
			},
			mutate: func(o api.Object) { mutateMeta(&o.(*api.NamespaceList).Items[0].ObjectMeta) },
		},
		{
			name: "Status",
			build: func() api.Object {
				return &api.Status{
					Status: api.StatusFailure, Reason: api.StatusReasonInvalid, Code: 422,
					Details: &api.StatusDetails{Name: "x", Causes: []api.StatusCause{
						{Type: api.CauseTypeFieldValueInvalid, Field: "metadata.name"},
					}},
				}
			},
			mutate: func(o api.Object) {
				s := o.(*api.Status)
				s.Details.Name = "changed"
				s.Details.Causes[0].Field = "changed"
			},
		},
		{
			name: "Table",
			build: func() api.Object {
				return &api.Table{
					ListMeta:          api.ListMeta{RemainingItemCount: ptr(int64(1))},
					ColumnDefinitions: []api.TableColumnDefinition{{Name: "Name", Type: "string"}},
					Rows: []api.TableRow{{
						Cells:      []any{"a", int64(1), map[string]any{"k": []any{"v"}}, nil},
						Conditions: []api.TableRowCondition{{Type: api.RowCompleted, Status: api.ConditionTrue}},
						Object:     json.RawMessage(`{"kind":"PartialObjectMetadata"}`),
					}},
				}
			},
			mutate: func(o api.Object) {
				tb := o.(*api.Table)
				*tb.RemainingItemCount = 0
				tb.ColumnDefinitions[0].Name = "changed"
				tb.Rows[0].Cells[0] = "changed"
				tb.Rows[0].Cells[2].(map[string]any)["k"].([]any)[0] = "changed"
				tb.Rows[0].Conditions[0].Reason = "changed"
				tb.Rows[0].Object[0] = ' '
			},
		},
		{
			name:   "PartialObjectMetadata",
			build:  func() api.Object { return &api.PartialObjectMetadata{ObjectMeta: fullMeta()} },
			mutate: func(o api.Object) { mutateMeta(&o.(*api.PartialObjectMetadata).ObjectMeta) },
		},
		{
			name: "PartialObjectMetadataList",
			build: func() api.Object {
				return &api.PartialObjectMetadataList{Items: []api.PartialObjectMetadata{{ObjectMeta: fullMeta()}}}
			},
			mutate: func(o api.Object) {
				mutateMeta(&o.(*api.PartialObjectMetadataList).Items[0].ObjectMeta)
			},
		},
		{
			name: "Unstructured",
			build: func() api.Object {
				return &api.Unstructured{Object: map[string]any{
					"kind":     "Widget",
					"metadata": map[string]any{"labels": map[string]any{"a": "b"}, "empty": map[string]any{}},
					"spec":     map[string]any{"list": []any{map[string]any{"n": int64(1)}}, "none": []any(nil)},
				}}
			},
			mutate: func(o api.Object) {
				u := o.(*api.Unstructured)
				u.Object["metadata"].(map[string]any)["labels"].(map[string]any)["a"] = "changed"
				u.Object["spec"].(map[string]any)["list"].([]any)[0].(map[string]any)["n"] = int64(2)
			},
		},
		{
			name: "UnstructuredList",
			build: func() api.Object {
				return &api.UnstructuredList{
					Object: map[string]any{"kind": "WidgetList", "metadata": map[string]any{"resourceVersion": "7"}},
					Items:  []api.Unstructured{{Object: map[string]any{"spec": map[string]any{"n": int64(1)}}}},
				}
			},
			mutate: func(o api.Object) {
				l := o.(*api.UnstructuredList)
				l.SetResourceVersion("8")
				l.Items[0].Object["spec"].(map[string]any)["n"] = int64(2)
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			orig := tt.build()
			cp := orig.DeepCopyObject()
			require.NotSame(t, orig, cp)
			// cmp tells nil from empty, so this also checks that both survive the copy.
			require.Empty(t, cmp.Diff(orig, cp))

			tt.mutate(cp)
			assert.NotEmpty(t, cmp.Diff(orig, cp), "the mutation must change the copy")
			assert.Empty(t, cmp.Diff(tt.build(), orig), "the original must not change")
		})
	}
}

func TestAPI_DeepCopyNil(t *testing.T) {
	tests := []struct {
		name string
		obj  api.Object
	}{
		{"Pod", (*api.Pod)(nil)},
		{"PodList", (*api.PodList)(nil)},
		{"ConfigMap", (*api.ConfigMap)(nil)},
		{"Status", (*api.Status)(nil)},
		{"Table", (*api.Table)(nil)},
		{"Unstructured", (*api.Unstructured)(nil)},
		{"UnstructuredList", (*api.UnstructuredList)(nil)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// A nil interface, not an interface holding a nil pointer.
			assert.True(t, tt.obj.DeepCopyObject() == nil)
		})
	}
}

func TestAPI_DeepCopyParts(t *testing.T) {
	t.Run("ObjectMeta", func(t *testing.T) {
		orig := fullMeta()
		cp := orig.DeepCopy()
		require.Empty(t, cmp.Diff(&orig, cp))
		mutateMeta(cp)
		assert.Empty(t, cmp.Diff(fullMeta(), orig))
	})
	t.Run("ObjectMeta nil fields stay nil", func(t *testing.T) {
		cp := (&api.ObjectMeta{Name: "a"}).DeepCopy()
		assert.Nil(t, cp.Labels)
		assert.Nil(t, cp.OwnerReferences)
		assert.Nil(t, cp.DeletionTimestamp)
	})
	t.Run("WatchEvent", func(t *testing.T) {
		orig := api.WatchEvent{Type: "ADDED", Object: json.RawMessage(`{}`)}
		cp := orig.DeepCopy()
		cp.Object[0] = '['
		assert.Equal(t, `{}`, string(orig.Object))
	})
}
