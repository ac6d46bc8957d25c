package api_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

var (
	podGVK       = api.GroupVersionKind{Version: "v1", Kind: "Pod"}
	podListGVK   = api.GroupVersionKind{Version: "v1", Kind: "PodList"}
	tableGVK     = api.GroupVersionKind{Group: "meta.k8s.io", Version: "v1", Kind: "Table"}
	deploymentGV = api.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
)

func TestAPI_SchemeDecode(t *testing.T) {
	tests := []struct {
		name string
		data string
		want api.Object
	}{
		{
			name: "known kind gives its Go type with TypeMeta filled",
			data: `{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","namespace":"demo"}}`,
			want: &api.Pod{
				TypeMeta:   api.TypeMeta{Kind: "Pod", APIVersion: "v1"},
				ObjectMeta: api.ObjectMeta{Name: "a", Namespace: "demo"},
			},
		},
		{
			name: "typed list, items without kind as a real server sends them",
			data: `{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"10"},"items":[{"metadata":{"name":"a"}}]}`,
			want: &api.PodList{
				TypeMeta: api.TypeMeta{Kind: "PodList", APIVersion: "v1"},
				ListMeta: api.ListMeta{ResourceVersion: "10"},
				Items:    []api.Pod{{ObjectMeta: api.ObjectMeta{Name: "a"}}},
			},
		},
		{
			name: "meta.k8s.io kind",
			data: `{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{},"columnDefinitions":null,"rows":[]}`,
			want: &api.Table{TypeMeta: api.TypeMeta{Kind: "Table", APIVersion: "meta.k8s.io/v1"}, Rows: []api.TableRow{}},
		},
		{
			name: "unknown kind gives Unstructured, integers as int64",
			data: `{"kind":"Deployment","apiVersion":"apps/v1","spec":{"replicas":3,"ratio":0.5}}`,
			want: &api.Unstructured{Object: map[string]any{
				"kind": "Deployment", "apiVersion": "apps/v1",
				"spec": map[string]any{"replicas": int64(3), "ratio": 0.5},
			}},
		},
		{
			name: "known kind in another version is unknown",
			data: `{"kind":"Pod","apiVersion":"v2"}`,
			want: &api.Unstructured{Object: map[string]any{"kind": "Pod", "apiVersion": "v2"}},
		},
		{
			name: "unknown list kind gives UnstructuredList, items get the item kind",
			data: `{"kind":"DeploymentList","apiVersion":"apps/v1","metadata":{"resourceVersion":"5"},"items":[{"metadata":{"name":"d"}}]}`,
			want: &api.UnstructuredList{
				Object: map[string]any{
					"kind": "DeploymentList", "apiVersion": "apps/v1",
					"metadata": map[string]any{"resourceVersion": "5"},
				},
				Items: []api.Unstructured{{Object: map[string]any{
					"kind": "Deployment", "apiVersion": "apps/v1", "metadata": map[string]any{"name": "d"},
				}}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := api.DefaultScheme.Decode([]byte(tt.data))
			require.NoError(t, err)
			assert.Empty(t, cmp.Diff(tt.want, got))
		})
	}
}

// TestAPI_SchemeDecodeGarbage feeds input that is not a Kubernetes object: every case must
// give an error, none may panic.
func TestAPI_SchemeDecodeGarbage(t *testing.T) {
	deep := `{"kind":"Pod","apiVersion":"v1","spec":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}`
	tests := []struct {
		name    string
		data    string
		wantErr string
	}{
		{"empty", ``, "couldn't get version/kind"},
		{"array", `[1,2]`, "cannot unmarshal array"},
		{"truncated", `{`, "couldn't get version/kind"},
		{"truncated pod", `{"apiVersion":"v1","kind":"Pod",`, "unexpected end of JSON input"},
		{"null", `null`, "'Kind' is missing"},
		{"empty object", `{}`, "'Kind' is missing"},
		{"kind is a number", `{"kind":5}`, "cannot unmarshal number"},
		{"no apiVersion", `{"kind":"Pod"}`, "'apiVersion' is missing"},
		{"wrong field type", `{"kind":"Pod","apiVersion":"v1","metadata":{"name":5}}`,
			`Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number`},
		{"list items not an array", `{"kind":"WidgetList","apiVersion":"x/v1","items":{}}`, "items is map"},
		{"list item not an object", `{"kind":"WidgetList","apiVersion":"x/v1","items":[1]}`, "items[0] is"},
		{"number too large for float64", `{"kind":"Widget","apiVersion":"x/v1","n":1e999}`, "does not fit"},
		{"nesting beyond the decoder's limit", deep, "exceeded max depth"},
		{"trailing garbage", `{"kind":"Pod","apiVersion":"v1"} x`, "invalid character"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj, err := api.DefaultScheme.Decode([]byte(tt.data))
			require.Error(t, err)
			assert.Nil(t, obj)
			assert.Contains(t, err.Error(), tt.wantErr)
		})
	}
}

func TestAPI_SchemeDecodeDeepNestingWithinLimit(t *testing.T) {
	const depth = 5000
	data := `{"kind":"Widget","apiVersion":"x/v1","spec":` + strings.Repeat(`{"a":`, depth) + `1` + strings.Repeat(`}`, depth) + `}`
	obj, err := api.DefaultScheme.Decode([]byte(data))
	require.NoError(t, err)
	u := obj.(*api.Unstructured)
	assert.Empty(t, cmp.Diff(u, u.DeepCopy()))
}

func TestAPI_SchemeDecodeErrorsAreTyped(t *testing.T) {
	_, err := api.DefaultScheme.Decode([]byte(`{"apiVersion":"v1"}`))
	assert.ErrorIs(t, err, api.ErrMissingKind)
	_, err = api.DefaultScheme.Decode([]byte(`{"kind":"Pod"}`))
	assert.ErrorIs(t, err, api.ErrMissingVersion)
	_, err = api.DefaultScheme.New(deploymentGV)
	assert.ErrorIs(t, err, api.ErrNotRegistered)
}

func TestAPI_SchemeDecodeInto(t *testing.T) {
	tests := []struct {
		name    string
		data    string
		into    api.Object
		want    api.Object
		wantErr string
	}{
		{
			name: "missing kind and apiVersion are set from the scheme",
			data: `{"metadata":{"name":"a"}}`,
			into: &api.Pod{},
			want: &api.Pod{TypeMeta: api.TypeMeta{Kind: "Pod", APIVersion: "v1"}, ObjectMeta: api.ObjectMeta{Name: "a"}},
		},
		{
			name: "previous content does not survive",
			data: `{"kind":"Pod","apiVersion":"v1","metadata":{"name":"b"}}`,
			into: &api.Pod{ObjectMeta: api.ObjectMeta{Name: "a", Labels: map[string]string{"old": "x"}}},
			want: &api.Pod{TypeMeta: api.TypeMeta{Kind: "Pod", APIVersion: "v1"}, ObjectMeta: api.ObjectMeta{Name: "b"}},
		},
		{
			name: "unstructured target takes any kind",
			data: `{"kind":"Widget","apiVersion":"x/v1","n":1}`,
			into: &api.Unstructured{Object: map[string]any{"old": true}},
			want: &api.Unstructured{Object: map[string]any{"kind": "Widget", "apiVersion": "x/v1", "n": int64(1)}},
		},
		{
			name:    "wrong kind for the target",
			data:    `{"kind":"ConfigMap","apiVersion":"v1"}`,
			into:    &api.Pod{},
			wantErr: `ConfigMap in version "v1" cannot be handled as a Pod`,
		},
		{
			name:    "wrong version for the target",
			data:    `{"kind":"Pod","apiVersion":"v2"}`,
			into:    &api.Pod{},
			wantErr: "the API version in the data (v2) does not match the expected API version (v1)",
		},
		{
			name:    "unstructured target needs a kind",
			data:    `{"apiVersion":"v1"}`,
			into:    &api.Unstructured{},
			wantErr: "'Kind' is missing",
		},
		{
			name:    "nil target",
			data:    `{}`,
			into:    (*api.Pod)(nil),
			wantErr: "non-nil",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := api.DefaultScheme.DecodeInto([]byte(tt.data), tt.into)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Empty(t, cmp.Diff(tt.want, tt.into))
		})
	}
}

func TestAPI_SchemeEncode(t *testing.T) {
	tests := []struct {
		name    string
		obj     api.Object
		want    string
		wantErr string
	}{
		{
			name: "empty TypeMeta is filled from the scheme",
			obj:  &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "a"}},
			want: `{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","creationTimestamp":null}}`,
		},
		{
			name: "kind without apiVersion is completed",
			obj:  &api.Namespace{TypeMeta: api.TypeMeta{Kind: "Namespace"}},
			want: `{"kind":"Namespace","apiVersion":"v1","metadata":{"creationTimestamp":null},"spec":{},"status":{}}`,
		},
		{
			name: "meta.k8s.io group",
			obj:  &api.PartialObjectMetadata{ObjectMeta: api.ObjectMeta{Name: "a"}},
			want: `{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"a","creationTimestamp":null}}`,
		},
		{
			name: "unstructured with its kind",
			obj:  &api.Unstructured{Object: map[string]any{"kind": "Widget", "apiVersion": "x/v1"}},
			want: `{"apiVersion":"x/v1","kind":"Widget"}`,
		},
		{
			name:    "unstructured without kind",
			obj:     &api.Unstructured{Object: map[string]any{"apiVersion": "x/v1"}},
			wantErr: "'Kind' is missing",
		},
		{
			name:    "nil object",
			obj:     (*api.Pod)(nil),
			wantErr: "nil",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := tt.obj.DeepCopyObject()
			got, err := api.DefaultScheme.Encode(tt.obj)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
			assert.Empty(t, cmp.Diff(before, tt.obj), "Encode must not change the caller's object")
		})
	}
}

func TestAPI_SchemeRegistry(t *testing.T) {
	s := api.DefaultScheme
	tests := []struct {
		name     string
		gvk      api.GroupVersionKind
		wantType api.Object // nil: not registered
	}{
		{"pod", podGVK, &api.Pod{}},
		{"pod list", podListGVK, &api.PodList{}},
		{"status", api.GroupVersionKind{Version: "v1", Kind: "Status"}, &api.Status{}},
		{"table", tableGVK, &api.Table{}},
		{"partial list", api.GroupVersionKind{Group: "meta.k8s.io", Version: "v1", Kind: "PartialObjectMetadataList"}, &api.PartialObjectMetadataList{}},
		{"no status list", api.GroupVersionKind{Version: "v1", Kind: "StatusList"}, nil},
		{"other group", deploymentGV, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.wantType != nil, s.Recognizes(tt.gvk))
			obj, err := s.New(tt.gvk)
			if tt.wantType == nil {
				assert.ErrorIs(t, err, api.ErrNotRegistered)
				return
			}
			require.NoError(t, err)
			assert.IsType(t, tt.wantType, obj)
			gvk, err := s.ObjectKind(obj)
			require.NoError(t, err)
			assert.Equal(t, tt.gvk, gvk)
		})
	}
}

func TestAPI_SchemeNewList(t *testing.T) {
	list, err := api.DefaultScheme.NewList(podGVK)
	require.NoError(t, err)
	assert.IsType(t, &api.PodList{}, list)

	_, err = api.DefaultScheme.NewList(tableGVK)
	assert.ErrorIs(t, err, api.ErrNotRegistered)
}

func TestAPI_SchemeObjectKindErrors(t *testing.T) {
	s := api.NewScheme()
	_, err := s.ObjectKind(&api.Pod{})
	assert.ErrorIs(t, err, api.ErrNotRegistered, "an empty scheme knows no type")
	_, err = s.ObjectKind(nil)
	assert.Error(t, err)
	_, err = s.ObjectKind(&api.Unstructured{})
	assert.ErrorIs(t, err, api.ErrMissingKind)
}

func TestAPI_SchemeConflictingRegistrationPanics(t *testing.T) {
	s := api.NewScheme()
	s.AddKnownType(podGVK, func() api.Object { return &api.Pod{} }, nil)
	s.AddKnownType(podGVK, func() api.Object { return &api.Pod{} }, nil) // same type again: fine
	assert.Panics(t, func() {
		s.AddKnownType(podGVK, func() api.Object { return &api.ConfigMap{} }, nil)
	})
	assert.Panics(t, func() {
		s.AddKnownType(api.GroupVersionKind{Kind: "NoVersion"}, func() api.Object { return &api.Pod{} }, nil)
	})
}
