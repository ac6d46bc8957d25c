package api_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

func TestAPI_Accessor(t *testing.T) {
	tests := []struct {
		name     string
		obj      any
		wantName string
		wantErr  bool
	}{
		{"pod", &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p"}}, "p", false},
		{"configmap", &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "c"}}, "c", false},
		{"namespace", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "n"}}, "n", false},
		{"partial", &api.PartialObjectMetadata{ObjectMeta: api.ObjectMeta{Name: "m"}}, "m", false},
		{"unstructured", &api.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "u"}}}, "u", false},
		{"pod value, not pointer", api.Pod{}, "", true},
		{"nil pod pointer", (*api.Pod)(nil), "", true},
		{"nil", nil, "", true},
		{"list", &api.PodList{}, "", true},
		{"status", &api.Status{}, "", true},
		{"string", "default/p", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := api.Accessor(tt.obj)
			if tt.wantErr {
				assert.Error(t, err)
				assert.Nil(t, m)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.wantName, m.GetName())
		})
	}
}

// TestAPI_AccessorDoesNotAllocate guards the hot path: key functions call Accessor for
// every event.
func TestAPI_AccessorDoesNotAllocate(t *testing.T) {
	var obj any = &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "demo", Name: "p"}}
	allocs := testing.AllocsPerRun(100, func() {
		m, err := api.Accessor(obj)
		if err != nil || m.GetName() != "p" {
			t.Fatal("unexpected accessor result")
		}
	})
	assert.Zero(t, allocs)
}

func TestAPI_AccessorWritesThrough(t *testing.T) {
	pod := &api.Pod{}
	m, err := api.Accessor(pod)
	require.NoError(t, err)
	m.SetResourceVersion("5")
	assert.Equal(t, "5", pod.ResourceVersion)
}

func TestAPI_ListAccessor(t *testing.T) {
	tests := []struct {
		name    string
		obj     any
		wantErr bool
	}{
		{"pod list", &api.PodList{ListMeta: api.ListMeta{ResourceVersion: "9"}}, false},
		{"unstructured list", &api.UnstructuredList{Object: map[string]any{"metadata": map[string]any{"resourceVersion": "9"}}}, false},
		{"table", &api.Table{ListMeta: api.ListMeta{ResourceVersion: "9"}}, false},
		{"pod", &api.Pod{}, true},
		{"nil list pointer", (*api.PodList)(nil), true},
		{"nil", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := api.ListAccessor(tt.obj)
			if tt.wantErr {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, "9", l.GetResourceVersion())
		})
	}
}

func TestAPI_ExtractAndSetList(t *testing.T) {
	pod := func(name string) *api.Pod { return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name}} }
	cm := func(name string) *api.ConfigMap { return &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: name}} }
	ns := func(name string) *api.Namespace { return &api.Namespace{ObjectMeta: api.ObjectMeta{Name: name}} }
	pom := func(name string) *api.PartialObjectMetadata {
		return &api.PartialObjectMetadata{ObjectMeta: api.ObjectMeta{Name: name}}
	}
	un := func(name string) *api.Unstructured {
		u := &api.Unstructured{}
		u.SetName(name)
		return u
	}
	tests := []struct {
		name  string
		list  api.Object
		items []api.Object
		wrong api.Object // an item of another type, which SetList must refuse
	}{
		{"PodList", &api.PodList{}, []api.Object{pod("a"), pod("b")}, cm("x")},
		{"ConfigMapList", &api.ConfigMapList{}, []api.Object{cm("a"), cm("b")}, pod("x")},
		{"NamespaceList", &api.NamespaceList{}, []api.Object{ns("a"), ns("b")}, pod("x")},
		{"PartialObjectMetadataList", &api.PartialObjectMetadataList{}, []api.Object{pom("a"), pom("b")}, pod("x")},
		{"UnstructuredList", &api.UnstructuredList{}, []api.Object{un("a"), un("b")}, pod("x")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.NoError(t, api.SetList(tt.list, tt.items))
			got, err := api.ExtractList(tt.list)
			require.NoError(t, err)
			assert.Empty(t, cmp.Diff(tt.items, got))

			// Extracted items point into the list, as upstream.
			m, err := api.Accessor(got[0])
			require.NoError(t, err)
			m.SetName("renamed")
			again, _ := api.ExtractList(tt.list)
			assert.Equal(t, "renamed", again[0].(api.MetaObject).GetName())

			// A wrong element type is refused and the list is left as it was.
			err = api.SetList(tt.list, []api.Object{tt.items[0], tt.wrong})
			assert.ErrorContains(t, err, "item 1 is")
			again, _ = api.ExtractList(tt.list)
			assert.Len(t, again, 2)

			// An emptied list still has non-nil items, so it encodes "items":[].
			require.NoError(t, api.SetList(tt.list, nil))
			out, err := json.Marshal(tt.list)
			require.NoError(t, err)
			assert.Contains(t, string(out), `"items":[]`)
		})
	}
}

func TestAPI_ExtractListRefusesNonLists(t *testing.T) {
	for _, obj := range []api.Object{&api.Pod{}, &api.Table{}, &api.Status{}, (*api.PodList)(nil), nil} {
		_, err := api.ExtractList(obj)
		assert.Error(t, err, "%T", obj)
		assert.Error(t, api.SetList(obj, nil), "%T", obj)
	}
	assert.Error(t, api.SetList(&api.PodList{}, []api.Object{(*api.Pod)(nil)}), "nil item")
}

func TestAPI_StatusIsAnError(t *testing.T) {
	var err error = &api.Status{
		Status: api.StatusFailure, Message: `pods "x" not found`,
		Reason: api.StatusReasonNotFound, Code: 404,
	}
	wrapped := errors.Join(errors.New("get failed"), err)

	var st *api.Status
	require.True(t, errors.As(wrapped, &st))
	assert.Equal(t, api.StatusReasonNotFound, st.Reason)
	assert.Equal(t, `pods "x" not found`, err.Error())
}
