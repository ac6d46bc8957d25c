package decode

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/schema"
)

var (
	decodeConfigMapGVK = api.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}
	decodeSecretGVK    = api.GroupVersionKind{Version: "v1", Kind: "Secret"}
	decodeServiceGVK   = api.GroupVersionKind{Version: "v1", Kind: "Service"}
)

func mustSchema(t testing.TB, gvk api.GroupVersionKind) *schema.Schema {
	t.Helper()
	s, ok := schema.ForKind(gvk)
	require.True(t, ok, "no schema for %v", gvk)
	return s
}

// tree decodes JSON as api.Unstructured does: the expected stored object.
func tree(t testing.TB, body string) map[string]any {
	t.Helper()
	var u api.Unstructured
	require.NoError(t, u.UnmarshalJSON([]byte(body)))
	return u.Object
}

// TestCh01_DecodeObjectRoundTrip: realistic manifests decode under Strict to exactly the
// tree they were sent as.
func TestCh01_DecodeObjectRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		gvk  api.GroupVersionKind
		body string
	}{
		{"pod", decodePodGVK, fullPodJSON},
		{"deployment", decodeDeployGVK, fullDeploymentJSON},
		{"configmap", decodeConfigMapGVK, smallConfigMapJSON},
		{"secret", decodeSecretGVK, `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"db"},"type":"Opaque","data":{"password":"aHVudGVyMg==","empty":""},"stringData":{"user":"admin"}}`},
		{"service", decodeServiceGVK, `{"apiVersion":"v1","kind":"Service","metadata":{"name":"web"},"spec":{"selector":{"app":"web"},"ports":[{"name":"http","port":80,"targetPort":"http"},{"name":"alt","port":8081,"targetPort":8080,"nodePort":30080}],"type":"NodePort"}}`},
		{"managed fields are free-form", decodeConfigMapGVK, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","managedFields":[{"manager":"kubectl","operation":"Apply","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:k":{}},"anything":[1,2.5,null]}}]}}`},
		{"large integers stay exact", decodePodGVK, `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a"},"spec":{"containers":[{"name":"c"}],"activeDeadlineSeconds":9007199254740993}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u, warnings, err := Object([]byte(tc.body), mustSchema(t, tc.gvk), tc.gvk, api.FieldValidationStrict)
			require.NoError(t, err)
			assert.Empty(t, warnings)
			if diff := cmp.Diff(tree(t, tc.body), u.Object); diff != "" {
				t.Errorf("stored object differs from the body (-sent +stored):\n%s", diff)
			}
		})
	}
}

// TestCh01_DecodeObjectFieldValidation: E6 and E7 against the schema, with pruning.
func TestCh01_DecodeObjectFieldValidation(t *testing.T) {
	typo := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x","labelz":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"nginx","imagePullPolicyy":"Always","ports":[{"containerPort":80,"hostPortt":1}]}],"bogus":{"deep":[1]}}}`
	pruned := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x"},"spec":{"containers":[{"name":"c","image":"nginx","ports":[{"containerPort":80}]}]}}`
	texts := []string{`unknown field "metadata.labelz"`, `unknown field "spec.containers[0].imagePullPolicyy"`,
		`unknown field "spec.containers[0].ports[0].hostPortt"`, `unknown field "spec.bogus"`}
	tests := []struct {
		name     string
		body     string
		fv       string
		want     string
		warnings []string
		err      string
	}{
		{"Strict names every problem in document order", typo, "Strict", "", nil,
			`Pod in version "v1" cannot be handled as a Pod: strict decoding error: ` + strings.Join(texts, ", ")},
		{"Strict typo", `{"spec":{"containers":[{"name":"c","imagePullPolicyy":"Always"}]}}`, "Strict", "", nil,
			`Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].imagePullPolicyy"`},
		{"Warn prunes and warns", typo, "Warn", pruned, texts, ""},
		{"empty means Warn", typo, "", pruned, texts, ""},
		{"Ignore prunes silently", typo, "Ignore", pruned, nil, ""},
		{"duplicates: last wins", `{"metadata":{"name":"a","name":"b"},"spec":{"containers":[{"name":"c"}],"nodeSelector":{"k":"1","k":"2"}}}`, "Warn",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"b"},"spec":{"containers":[{"name":"c"}],"nodeSelector":{"k":"2"}}}`,
			[]string{`duplicate field "metadata.name"`, `duplicate field "spec.nodeSelector.k"`}, ""},
		{"duplicate unknown is one unknown", `{"zz":1,"zz":2}`, "Strict", "", nil,
			`Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "zz"`},
		{"case matters", `{"Metadata":{"name":"a"},"metadata":{"Name":"b"}}`, "Warn", `{"apiVersion":"v1","kind":"Pod","metadata":{}}`,
			[]string{`unknown field "Metadata"`, `unknown field "metadata.Name"`}, ""},
		{"values of unknown members are not inspected", `{"zz":{"a":1,"a":2,"b":"\u00e9"}}`, "Warn", `{"apiVersion":"v1","kind":"Pod"}`,
			[]string{`unknown field "zz"`}, ""},
		{"escaped names are unescaped", `{"meta\u0064ata":{"n\u0061me":"a","x\u0079":1}}`, "Warn",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a"}}`, []string{`unknown field "metadata.xy"`}, ""},
		{"type errors come before strict errors", `{"bogus":1,"spec":{"hostNetwork":"yes"}}`, "Strict", "", nil,
			`Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field PodSpec.spec.hostNetwork of type bool`},
	}
	s := mustSchema(t, decodePodGVK)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u, warnings, err := Object([]byte(tc.body), s, decodePodGVK, tc.fv)
			if tc.err != "" {
				require.EqualError(t, err, tc.err)
				assert.Equal(t, int32(400), api.CodeForError(err))
				assert.Nil(t, u)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.warnings, warnings)
			if diff := cmp.Diff(tree(t, tc.want), u.Object); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestCh01_DecodeObjectKeepsUnknownWherePreserved uses the hand-written schema shape of a
// custom resource: unknown members under x-kubernetes-preserve-unknown-fields and in
// free-form objects stay.
func TestCh01_DecodeObjectKeepsUnknownWherePreserved(t *testing.T) {
	d, err := schema.ParseDefinitions([]byte(`{"components":{"schemas":{"io.example.v1.Foo":{"type":"object",
		"x-kubernetes-group-version-kind":[{"group":"example.dev","version":"v1","kind":"Foo"}],
		"properties":{"apiVersion":{"type":"string"},"kind":{"type":"string"},
		"spec":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{"n":{"type":"integer"}}},
		"raw":{"type":"object"},"strict":{"type":"object","properties":{"a":{"type":"string"}}}}}}}}`))
	require.NoError(t, err)
	gvk := api.GroupVersionKind{Group: "example.dev", Version: "v1", Kind: "Foo"}
	s, ok := d.ForKind(gvk)
	require.True(t, ok)
	body := `{"spec":{"n":1,"extra":{"x":[1,null]}},"raw":{"any":true,"nil":null},"strict":{"a":"b","c":1}}`
	u, warnings, err := Object([]byte(body), s, gvk, "Warn")
	require.NoError(t, err)
	assert.Equal(t, []string{`unknown field "strict.c"`}, warnings)
	want := tree(t, `{"apiVersion":"example.dev/v1","kind":"Foo","spec":{"n":1,"extra":{"x":[1,null]}},"raw":{"any":true,"nil":null},"strict":{"a":"b"}}`)
	assert.Empty(t, cmp.Diff(want, u.Object))
	_, _, err = Object([]byte(`{"spec":{"n":"one"}}`), s, gvk, "Warn")
	assert.EqualError(t, err, `Foo in version "v1" cannot be handled as a Foo: json: cannot unmarshal string into Go struct field Foo.spec.n of type int64`)
}

// TestCh01_DecodeObjectNull: null members are dropped, null elements become zero values.
func TestCh01_DecodeObjectNull(t *testing.T) {
	s := mustSchema(t, decodePodGVK)
	u, _, err := Object([]byte(`{"metadata":{"name":"a","labels":null,"annotations":{"k":null}},"spec":{"containers":[{"name":"c","args":["x",null],"image":null}],"nodeName":null}}`), s, decodePodGVK, "Strict")
	require.NoError(t, err)
	want := tree(t, `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","annotations":{"k":""}},"spec":{"containers":[{"name":"c","args":["x",""]}]}}`)
	assert.Empty(t, cmp.Diff(want, u.Object))

	u, _, err = Object([]byte(`null`), s, decodePodGVK, "Strict")
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"apiVersion": "v1", "kind": "Pod"}, u.Object)
}

// TestCh01_DecodeObjectHeader: the body checks Object shares with Body (E1–E5).
func TestCh01_DecodeObjectHeader(t *testing.T) {
	tests := []struct {
		body string
		msg  string
	}{
		{`{"a":`, `the object provided is unrecognized (must be of type Pod): couldn't get version/kind; json parse error: unexpected end of JSON input ({"a":)`},
		{`[1,2]`, `the object provided is unrecognized (must be of type Pod): couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\"apiVersion,omitempty\""; Kind string "json:\"kind,omitempty\"" } (5b312c325d)`},
		{`{"apiVersion":"v1","kind":"ConfigMap"}`, `ConfigMap in version "v1" cannot be handled as a Pod: converting (v1.ConfigMap) to (core.Pod): unknown conversion`},
		{`{"apiVersion":"v1","kind":"Bogus"}`, `Bogus in version "v1" cannot be handled as a Pod: no kind "Bogus" is registered for version "v1" in scheme "pkg/api/legacyscheme/scheme.go:30"`},
		{`{"apiVersion":"v2","kind":"Pod"}`, `the API version in the data (v2) does not match the expected API version (v1)`},
	}
	s := mustSchema(t, decodePodGVK)
	for _, tc := range tests {
		_, _, err := Object([]byte(tc.body), s, decodePodGVK, "")
		assert.EqualError(t, err, tc.msg)
		assert.Equal(t, int32(400), api.CodeForError(err))
	}
}

// TestCh01_DecodeObjectOpaqueTypes: inside FieldsV1, which decodes itself upstream,
// nothing is reported; inside an unnamed free-form object duplicates are.
func TestCh01_DecodeObjectOpaqueTypes(t *testing.T) {
	s := mustSchema(t, decodeConfigMapGVK)
	u, warnings, err := Object([]byte(`{"metadata":{"managedFields":[{"fieldsV1":{"f:a":{},"f:a":{"x":1}}}]}}`), s, decodeConfigMapGVK, "Strict")
	require.NoError(t, err)
	assert.Empty(t, warnings)
	mf := u.Object["metadata"].(map[string]any)["managedFields"].([]any)[0].(map[string]any)
	assert.Equal(t, map[string]any{"f:a": map[string]any{"x": int64(1)}}, mf["fieldsV1"])
}
