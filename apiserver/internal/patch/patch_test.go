package patch

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

const allPatchTypes = "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml"

// TestCh01_E22_PatchTypeFromContentType checks the Content-Type table of docs/behaviour/wire.md X1.
func TestCh01_E22_PatchTypeFromContentType(t *testing.T) {
	ok := map[string]api.PatchType{
		"application/json-patch+json":                           api.JSONPatchType,
		"application/merge-patch+json":                          api.MergePatchType,
		"application/merge-patch+json; charset=utf-8":           api.MergePatchType,
		"application/strategic-merge-patch+json":                api.StrategicMergePatchType,
		"application/apply-patch+yaml":                          api.ApplyPatchType,
		"application/apply-patch+yaml;charset=utf-8;x=y":        api.ApplyPatchType,
		"application/strategic-merge-patch+json;charset=latin1": api.StrategicMergePatchType,
	}
	for ct, want := range ok {
		got, err := TypeFromContentType(ct)
		require.NoError(t, err, ct)
		assert.Equal(t, want, got, ct)
	}
	for _, ct := range []string{"", "application/json", "application/vnd.kubernetes.protobuf", "APPLICATION/MERGE-PATCH+JSON",
		" application/merge-patch+json", "application/apply-patch+cbor", ";application/merge-patch+json"} {
		_, err := TypeFromContentType(ct)
		require.Error(t, err, ct)
		assert.True(t, api.IsUnsupportedMediaType(err), ct)
		assert.EqualError(t, err, allPatchTypes, ct)
	}
}

// TestCh01_ApplyPatchDispatch checks that Apply routes each type and that SMP on a
// custom kind is 415 (E22).
func TestCh01_ApplyPatchDispatch(t *testing.T) {
	orig := []byte(`{"metadata":{"name":"p"},"spec":{"containers":[{"name":"a","image":"1"},{"name":"b","image":"1"}]}}`)
	tests := []struct {
		patchType   api.PatchType
		patch, kind string
		builtin     bool
		want        string
	}{
		{api.JSONPatchType, `[{"op":"replace","path":"/spec/containers/1/image","value":"2"}]`, "Pod", true,
			`{"metadata":{"name":"p"},"spec":{"containers":[{"name":"a","image":"1"},{"name":"b","image":"2"}]}}`},
		{api.MergePatchType, `{"spec":{"containers":[{"name":"b","image":"2"}]}}`, "Pod", true,
			`{"metadata":{"name":"p"},"spec":{"containers":[{"name":"b","image":"2"}]}}`},
		{api.StrategicMergePatchType, `{"spec":{"containers":[{"name":"b","image":"2"}]}}`, "Pod", true,
			`{"metadata":{"name":"p"},"spec":{"containers":[{"name":"a","image":"1"},{"name":"b","image":"2"}]}}`},
		{api.MergePatchType, `{"spec":{"replicas":3}}`, "Deployment", false,
			`{"metadata":{"name":"p"},"spec":{"containers":[{"name":"a","image":"1"},{"name":"b","image":"1"}],"replicas":3}}`},
	}
	for _, tc := range tests {
		t.Run(string(tc.patchType)+" "+tc.kind, func(t *testing.T) {
			got, err := Apply(tc.patchType, orig, []byte(tc.patch), tc.kind, tc.builtin)
			require.NoError(t, err)
			assert.JSONEq(t, tc.want, string(got))
		})
	}

	_, err := Apply(api.StrategicMergePatchType, orig, []byte(`{}`), "Deployment", false)
	assert.True(t, api.IsUnsupportedMediaType(err))
	assert.EqualError(t, err, "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml")

	_, err = Apply("bogus", orig, []byte(`{}`), "Pod", true)
	assert.EqualError(t, err, allPatchTypes)
}

// TestCh01_AppliedConfiguration: an apply body (X4) is YAML or JSON, always an object, nulls
// kept.
func TestCh01_AppliedConfiguration(t *testing.T) {
	for body, want := range map[string]string{
		`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"a":"1","b":null}}`: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"a":"1","b":null}}`,
		"apiVersion: v1\nkind: ConfigMap\ndata:\n  a: \"1\"\n  n: 2\n  l: [x]\n":                   `{"apiVersion":"v1","kind":"ConfigMap","data":{"a":"1","n":2,"l":["x"]}}`,
	} {
		got, err := AppliedConfiguration([]byte(body))
		require.NoError(t, err, body)
		assert.JSONEq(t, want, string(got), body)
	}
	for body, msg := range map[string]string{
		`[1]`:        "error decoding patch: an apply patch must be a JSON object, got array",
		`null`:       "error decoding patch: an apply patch must be a JSON object, got null",
		"a: [\n":     "error decoding YAML: yaml: line 1: did not find expected node content",
		"- a\n- b\n": "error decoding patch: an apply patch must be a JSON object, got array",
	} {
		_, err := AppliedConfiguration([]byte(body))
		assert.True(t, api.IsBadRequest(err), body)
		assert.EqualError(t, err, msg, body)
	}
	_, err := ApplyFor(api.ApplyPatchType, []byte(`{}`), []byte(`{}`), api.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, true)
	assert.Error(t, err, "apply is the field manager's")
}
