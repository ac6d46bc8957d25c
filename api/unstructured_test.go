package api_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// TestAPI_UnstructuredSetThenGet writes every metadata field through the MetaObject setters
// and expects the same values back from the getters, and the same JSON as a typed object.
func TestAPI_UnstructuredSetThenGet(t *testing.T) {
	typed := &api.PartialObjectMetadata{ObjectMeta: fullMeta()}
	typed.SetGroupVersionKind(api.GroupVersionKind{Group: "x", Version: "v1", Kind: "Widget"})
	typed.GenerateName = "a-"
	typed.UID = "u"
	typed.ResourceVersion = "7"
	typed.Generation = 3
	// An empty map would differ: typed JSON omits it, Unstructured keeps {} (as upstream).
	typed.Annotations = map[string]string{"note": "x"}

	u := &api.Unstructured{}
	copyMeta(typed, u)
	u.SetGroupVersionKind(typed.GroupVersionKind())

	assert.Empty(t, cmp.Diff(typed.ObjectMeta, metaOf(u)))
	typedJSON, err := json.Marshal(typed)
	require.NoError(t, err)
	unstructuredJSON, err := json.Marshal(u)
	require.NoError(t, err)
	assert.JSONEq(t, string(typedJSON), string(unstructuredJSON))
}

// copyMeta copies every metadata field from one MetaObject to another through the interface.
func copyMeta(from, to api.MetaObject) {
	to.SetName(from.GetName())
	to.SetGenerateName(from.GetGenerateName())
	to.SetNamespace(from.GetNamespace())
	to.SetUID(from.GetUID())
	to.SetResourceVersion(from.GetResourceVersion())
	to.SetGeneration(from.GetGeneration())
	to.SetCreationTimestamp(from.GetCreationTimestamp())
	to.SetDeletionTimestamp(from.GetDeletionTimestamp())
	to.SetDeletionGracePeriodSeconds(from.GetDeletionGracePeriodSeconds())
	to.SetLabels(from.GetLabels())
	to.SetAnnotations(from.GetAnnotations())
	to.SetOwnerReferences(from.GetOwnerReferences())
	to.SetFinalizers(from.GetFinalizers())
}

// metaOf reads every metadata field of m into an ObjectMeta.
func metaOf(m api.MetaObject) api.ObjectMeta {
	out := &api.ObjectMeta{}
	copyMeta(m, out)
	return *out
}

func TestAPI_UnstructuredEmptyValuesRemoveMembers(t *testing.T) {
	u := &api.Unstructured{}
	require.NoError(t, json.Unmarshal(readGolden(t, "pod.json"), u))

	u.SetName("")
	u.SetGeneration(0)
	u.SetCreationTimestamp(api.Time{})
	u.SetDeletionTimestamp(nil)
	u.SetDeletionGracePeriodSeconds(nil)
	u.SetLabels(nil)
	u.SetOwnerReferences(nil)
	u.SetFinalizers(nil)

	meta, _, err := api.NestedMap(u.Object, "metadata")
	require.NoError(t, err)
	for _, member := range []string{"name", "generation", "creationTimestamp", "deletionTimestamp",
		"deletionGracePeriodSeconds", "labels", "ownerReferences", "finalizers"} {
		assert.NotContains(t, meta, member)
	}
	assert.Equal(t, "demo", meta["namespace"], "other members stay")
}

func TestAPI_UnstructuredNumbers(t *testing.T) {
	tests := []struct {
		name      string
		obj       map[string]any
		wantGen   int64
		wantGrace *int64
	}{
		{"int64 from our decoder", map[string]any{"metadata": map[string]any{
			"generation": int64(4), "deletionGracePeriodSeconds": int64(30)}}, 4, ptr(int64(30))},
		{"float64 from plain json.Unmarshal", map[string]any{"metadata": map[string]any{
			"generation": float64(4), "deletionGracePeriodSeconds": float64(0)}}, 4, ptr(int64(0))},
		{"int set by hand", map[string]any{"metadata": map[string]any{"generation": 4}}, 4, nil},
		{"fraction is not an integer", map[string]any{"metadata": map[string]any{"generation": 4.5}}, 0, nil},
		{"string is not a number", map[string]any{"metadata": map[string]any{"generation": "4"}}, 0, nil},
		{"metadata of the wrong type", map[string]any{"metadata": "x"}, 0, nil},
		{"nil object", nil, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := &api.Unstructured{Object: tt.obj}
			assert.Equal(t, tt.wantGen, u.GetGeneration())
			assert.Equal(t, tt.wantGrace, u.GetDeletionGracePeriodSeconds())
		})
	}
}

func TestAPI_UnstructuredLargeIntegerSurvives(t *testing.T) {
	// 2^53+1 cannot be a float64; a plain json.Unmarshal would round it.
	data := `{"kind":"Widget","apiVersion":"x/v1","metadata":{"generation":9007199254740993}}`
	u := &api.Unstructured{}
	require.NoError(t, json.Unmarshal([]byte(data), u))
	assert.Equal(t, int64(9007199254740993), u.GetGeneration())
	out, err := json.Marshal(u)
	require.NoError(t, err)
	assert.Contains(t, string(out), "9007199254740993")
}

func TestAPI_UnstructuredUnmarshalRejectsNonObjects(t *testing.T) {
	for _, data := range []string{`[1]`, `"x"`, `1`, `{`, `{} {}`} {
		t.Run(data, func(t *testing.T) {
			u := &api.Unstructured{}
			assert.Error(t, u.UnmarshalJSON([]byte(data)))
		})
	}
}

func TestAPI_UnstructuredTimestamps(t *testing.T) {
	u := &api.Unstructured{Object: map[string]any{"metadata": map[string]any{
		"creationTimestamp": "2026-01-02T11:04:05+08:00",
		"deletionTimestamp": "not a time",
	}}}
	assert.True(t, date(3, 4, 5).Time.Equal(u.GetCreationTimestamp().Time))
	assert.Nil(t, u.GetDeletionTimestamp(), "a malformed time reads as absent")

	u.SetCreationTimestamp(u.GetCreationTimestamp())
	s, _, err := api.NestedString(u.Object, "metadata", "creationTimestamp")
	require.NoError(t, err)
	assert.Equal(t, "2026-01-02T03:04:05Z", s, "written back in UTC")
}

func TestAPI_UnstructuredListAccessors(t *testing.T) {
	l := &api.UnstructuredList{}
	l.SetGroupVersionKind(api.GroupVersionKind{Group: "x", Version: "v1", Kind: "WidgetList"})
	l.SetResourceVersion("42")
	l.SetContinue("token")
	l.SetRemainingItemCount(ptr(int64(2)))

	assert.Equal(t, "x/v1, Kind=WidgetList", l.GroupVersionKind().String())
	assert.Equal(t, "42", l.GetResourceVersion())
	assert.Equal(t, "token", l.GetContinue())
	assert.Equal(t, ptr(int64(2)), l.GetRemainingItemCount())

	out, err := json.Marshal(l)
	require.NoError(t, err)
	assert.JSONEq(t, `{"apiVersion":"x/v1","kind":"WidgetList","metadata":{"resourceVersion":"42","continue":"token","remainingItemCount":2},"items":[]}`, string(out))

	var empty api.UnstructuredList
	assert.Empty(t, empty.GetResourceVersion(), "getters on a zero list do not panic")
	assert.Nil(t, empty.Object, "getters do not allocate")
}

func TestAPI_UnstructuredListKeepsItemKind(t *testing.T) {
	data := `{"kind":"List","apiVersion":"v1","items":[{"kind":"Pod","apiVersion":"v1"},{"kind":"ConfigMap","apiVersion":"v1"}]}`
	l := &api.UnstructuredList{}
	require.NoError(t, json.Unmarshal([]byte(data), l))
	require.Len(t, l.Items, 2)
	assert.Equal(t, "Pod", l.Items[0].GetKind())
	assert.Equal(t, "ConfigMap", l.Items[1].GetKind())
	assert.NotContains(t, l.Object, "items", "items live in Items only")
}

func TestAPI_NestedHelpers(t *testing.T) {
	obj := map[string]any{"metadata": map[string]any{"name": "a", "labels": map[string]any{"k": "v"}}, "n": int64(1)}

	s, found, err := api.NestedString(obj, "metadata", "name")
	assert.Equal(t, "a", s)
	assert.True(t, found)
	assert.NoError(t, err)

	_, found, err = api.NestedString(obj, "metadata", "missing")
	assert.False(t, found)
	assert.NoError(t, err)

	_, _, err = api.NestedString(obj, "n")
	assert.ErrorContains(t, err, "not a string")

	_, _, err = api.NestedString(obj, "n", "deeper")
	assert.ErrorContains(t, err, "n is int64, not an object")

	labels, found, err := api.NestedMap(obj, "metadata", "labels")
	require.NoError(t, err)
	require.True(t, found)
	labels["k"] = "changed"
	assert.Equal(t, "v", obj["metadata"].(map[string]any)["labels"].(map[string]any)["k"], "NestedMap returns a copy")

	require.NoError(t, api.SetNestedField(obj, []string{"x"}, "spec", "list"))
	assert.Equal(t, []any{"x"}, obj["spec"].(map[string]any)["list"], "stored as a JSON decoder would")
	assert.ErrorContains(t, api.SetNestedField(obj, "v", "n", "deeper"), "n is int64, not an object")
	assert.Error(t, api.SetNestedField(nil, "v", "a"))

	api.RemoveNestedField(obj, "metadata", "labels")
	assert.NotContains(t, obj["metadata"], "labels")
	api.RemoveNestedField(obj, "no", "such", "path") // absent path: nothing happens
}
