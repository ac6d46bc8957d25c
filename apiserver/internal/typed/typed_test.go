package typed

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/openapi"
)

func deployment(t testing.TB) *Atom {
	t.Helper()
	a, err := ForBuiltin(api.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, "")
	require.NoError(t, err)
	return a
}

func tree(t testing.TB, s string) map[string]any {
	t.Helper()
	u := &api.Unstructured{}
	require.NoError(t, json.Unmarshal([]byte(s), u))
	return u.Object
}

func fieldsV1(t testing.TB, v any, a *Atom) string {
	t.Helper()
	b, err := ToFieldSet(v, a).ToJSON()
	require.NoError(t, err)
	return string(b)
}

// TestCh01_SSA_TypeModelOfDeployment: the list and map kinds the type converter reads from
// the OpenAPI of apps/v1: containers a map-list keyed by name, ports by containerPort and
// protocol (with protocol's default), the selector an atomic map, args atomic.
func TestCh01_SSA_TypeModelOfDeployment(t *testing.T) {
	d := deployment(t)
	tests := []struct {
		name, obj, want string
	}{
		{"map-list keyed by name",
			`{"spec":{"template":{"spec":{"containers":[{"name":"a","image":"x","args":["1","2"]}]}}}}`,
			`{"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"a\"}":{".":{},"f:args":{},"f:image":{},"f:name":{}}}}}}}`},
		{"key default fills a missing key field",
			`{"spec":{"template":{"spec":{"containers":[{"name":"a","ports":[{"containerPort":80}]}]}}}}`,
			`{"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"a\"}":{".":{},"f:name":{},"f:ports":{"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{}}}}}}}}}`},
		{"atomic selector", `{"spec":{"selector":{"matchLabels":{"a":"b"}}}}`, `{"f:spec":{"f:selector":{}}}`},
		{"granular labels", `{"metadata":{"labels":{"a":"b"}}}`, `{"f:metadata":{"f:labels":{"f:a":{}}}}`},
		{"empty map and null are leaves", `{"metadata":{"labels":{},"annotations":null}}`, `{"f:metadata":{"f:annotations":{},"f:labels":{}}}`},
		{"set of finalizers", `{"metadata":{"finalizers":["b","a"]}}`, `{"f:metadata":{"f:finalizers":{"v:\"a\"":{},"v:\"b\"":{}}}}`},
		{"duplicate item is one member", `{"metadata":{"finalizers":["a","a"]}}`, `{"f:metadata":{"f:finalizers":{"v:\"a\"":{}}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, fieldsV1(t, tree(t, tt.obj), d))
		})
	}
}

// TestCh01_SSA_ValidationErrors: what a bad applied object is told, with upstream's text.
func TestCh01_SSA_ValidationErrors(t *testing.T) {
	d := deployment(t)
	tests := []struct{ obj, want string }{
		{`{"spec":{"template":{"spec":{"containers":[{"name":"a"},{"name":"a"}]}}}}`,
			`.spec.template.spec.containers: duplicate entries for key [name="a"]`},
		{`{"spec":{"template":{"spec":{"containers":[{"image":"x"},{"image":"y"}]}}}}`, // name's default "" is the key
			`.spec.template.spec.containers: duplicate entries for key [name=""]`},
		{`{"metadata":{"finalizers":[{"a":1}]}}`,
			`.metadata.finalizers: element 0: associative list without keys has an element that's a map type`},
		{`{"spec":{"bogus":1}}`, `.spec.bogus: field not declared in schema`},
		{`{"spec":{"replicas":"x"}}`, `.spec.replicas: expected numeric (int or float), got string`},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			err := Validate(tree(t, tt.obj), d, false)
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
		})
	}
	assert.NoError(t, Validate(tree(t, `{"spec":{"template":{"spec":{"containers":[{"name":"a"},{"name":"a"}]}}}}`), d, true))
}

// TestCh01_SSA_MergeAndCompare: merging keeps the applied order of map-list items and
// places live-only items where they were; Compare names added, modified and removed
// leaves.
func TestCh01_SSA_MergeAndCompare(t *testing.T) {
	d := deployment(t)
	live := tree(t, `{"spec":{"replicas":1,"template":{"spec":{"containers":[{"name":"a","image":"1"},{"name":"b","image":"1"},{"name":"c","image":"1"}]}}}}`)
	applied := tree(t, `{"spec":{"template":{"spec":{"containers":[{"name":"c","image":"2"},{"name":"a"}]}}}}`)
	merged, err := Merge(live, applied, d)
	require.NoError(t, err)
	names := func(v any) []string {
		var out []string
		for _, c := range v.(map[string]any)["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any) {
			out = append(out, c.(map[string]any)["name"].(string)+"="+c.(map[string]any)["image"].(string))
		}
		return out
	}
	assert.Equal(t, []string{"b=1", "c=2", "a=1"}, names(merged))
	cmp, err := Compare(live, merged, d)
	require.NoError(t, err)
	assert.Equal(t, `.spec.template.spec.containers[name="c"].image`, cmp.Modified.String())
	assert.True(t, cmp.Added.Empty())
	assert.True(t, cmp.Removed.Empty())

	removed := RemoveItems(merged, d, ToFieldSet(applied, d))
	assert.Equal(t, []string{"b=1"}, names(removed))
	extracted := ExtractItems(live, d, ToFieldSet(tree(t, `{"spec":{"replicas":5}}`), d))
	assert.Equal(t, map[string]any{"spec": map[string]any{"replicas": int64(1)}}, extracted)
}

// TestCh01_SSA_CustomResourceType: a custom resource's type from its structural schema: a
// map-list by x-kubernetes-list-map-keys, a set, int-or-string untyped, unknown fields kept
// under x-kubernetes-preserve-unknown-fields (each one a member itself, as upstream records
// members a struct does not declare).
func TestCh01_SSA_CustomResourceType(t *testing.T) {
	var schemaTree map[string]any
	require.NoError(t, json.Unmarshal([]byte(`{"type":"object","properties":{"spec":{"type":"object","properties":{
		"items":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["id"],
			"items":{"type":"object","properties":{"id":{"type":"integer"},"v":{"x-kubernetes-int-or-string":true}}}},
		"tags":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},
		"free":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}}}`), &schemaTree))
	a, err := ForCustomResource(openapi.CustomResource{Group: "example.com", Version: "v1", Kind: "Widget", ListKind: "WidgetList", Plural: "widgets", Schema: schemaTree})
	require.NoError(t, err)
	obj := tree(t, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","labels":{"a":"b"}},
		"spec":{"items":[{"id":2,"v":"50%"}],"tags":["x"],"free":{"deep":{"k":1}}}}`)
	require.NoError(t, Validate(obj, a, false))
	assert.Equal(t, `{"f:apiVersion":{},"f:kind":{},"f:metadata":{"f:labels":{"f:a":{}},"f:name":{}},"f:spec":{"f:free":{"f:deep":{".":{},"f:k":{}}},"f:items":{"k:{\"id\":2}":{".":{},"f:id":{},"f:v":{}}},"f:tags":{"v:\"x\"":{}}}}`,
		fieldsV1(t, obj, a))
	assert.EqualError(t, Validate(tree(t, `{"spec":{"other":1}}`), a, false), ".spec.other: field not declared in schema")
}

// FuzzCh01_SSA_Merge merges arbitrary JSON objects under the Deployment type: no input
// panics, and for an object the type accepts, merging it into itself, comparing it with
// itself and removing all its fields behave.
func FuzzCh01_SSA_Merge(f *testing.F) {
	f.Add(`{"spec":{"replicas":1,"template":{"spec":{"containers":[{"name":"a","ports":[{"containerPort":80}]}]}}}}`,
		`{"spec":{"replicas":2,"template":{"spec":{"containers":[{"name":"b"},{"name":"a","image":"x"}]}}}}`)
	f.Add(`{"metadata":{"labels":{"a":"b"},"finalizers":["x","x"]}}`, `{"metadata":{"labels":null,"finalizers":["y"]}}`)
	f.Add(`{"spec":{"selector":{"matchLabels":{}}}}`, `{"spec":{"selector":{"matchExpressions":[{"key":"k"}]}}}`)
	d := deployment(f)
	f.Fuzz(func(t *testing.T, l, r string) {
		var lu, ru api.Unstructured
		if json.Unmarshal([]byte(l), &lu) != nil || json.Unmarshal([]byte(r), &ru) != nil {
			return
		}
		merged, mergeErr := Merge(lu.Object, ru.Object, d)
		_, _ = Compare(lu.Object, ru.Object, d)
		_ = ToFieldSet(lu.Object, d)
		_ = RemoveItems(lu.Object, d, ToFieldSet(ru.Object, d))
		_ = ExtractItems(lu.Object, d, ToFieldSet(ru.Object, d))
		if Validate(lu.Object, d, false) != nil || Validate(ru.Object, d, false) != nil {
			return
		}
		if mergeErr != nil {
			t.Fatalf("valid objects do not merge: %v", mergeErr)
		}
		if err := Validate(merged, d, true); err != nil {
			t.Fatalf("merged object invalid: %v", err)
		}
		self, err := Merge(ru.Object, ru.Object, d)
		if err != nil {
			t.Fatal(err)
		}
		if c, err := Compare(ru.Object, self, d); err != nil || !c.IsSame() {
			t.Fatalf("merging an object into itself changed it: %v %v", c, err)
		}
		if c, err := Compare(lu.Object, lu.Object, d); err != nil || !c.IsSame() {
			t.Fatalf("an object differs from itself: %v", err)
		}
		if err := Validate(ExtractItems(merged, d, ToFieldSet(ru.Object, d)), d, true); err != nil {
			t.Fatalf("extracting the applied fields gave an invalid object: %v", err)
		}
	})
}

// TestCh01_SSA_EnsuredFieldSetInOneWalk: ToFieldSetEnsured is ToFieldSet followed by
// EnsureNamedFieldsAreMembers.
func TestCh01_SSA_EnsuredFieldSetInOneWalk(t *testing.T) {
	d := deployment(t)
	for _, s := range []string{
		`{"metadata":{"labels":{"a":"b"},"finalizers":["x","x","y"]},"spec":{"replicas":1,"selector":{"matchLabels":{"a":"b"}},
		  "template":{"spec":{"containers":[{"name":"a","ports":[{"containerPort":80}],"resources":{}},{"name":"a"}],"volumes":[{"name":"v","emptyDir":{}}]}}}}`,
		`{"status":{"conditions":[{"type":"A","status":"True"}]},"spec":{"strategy":{"rollingUpdate":{"maxSurge":1}}}}`,
	} {
		v := tree(t, s)
		want := EnsureNamedFieldsAreMembers(ToFieldSet(v, d), d)
		got := ToFieldSetEnsured(v, d)
		assert.True(t, want.Equals(got), "want:\n%v\ngot:\n%v", want, got)
	}
}

// TestCh01_SSA_JSONTree: values built in Go become what the JSON decoder gives, and a tree
// that already is one is returned as it is.
func TestCh01_SSA_JSONTree(t *testing.T) {
	in := map[string]any{"metadata": map[string]any{"finalizers": []string{"a"}, "labels": map[string]string{"k": "v"}}, "spec": map[string]any{"replicas": 3}}
	assert.Equal(t, map[string]any{"metadata": map[string]any{"finalizers": []any{"a"}, "labels": map[string]any{"k": "v"}}, "spec": map[string]any{"replicas": int64(3)}}, JSONTree(in))
	assert.Equal(t, []string{"a"}, in["metadata"].(map[string]any)["finalizers"], "the input is not changed")
	same := map[string]any{"a": []any{int64(1), "x", nil}}
	out := JSONTree(same).(map[string]any)
	out["b"] = true
	assert.Contains(t, same, "b", "an unchanged tree is returned as it is")
}
