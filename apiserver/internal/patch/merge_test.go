package patch

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// TestCh01_MergePatchRFC7386 runs the examples of RFC 7386 appendix A (docs/behaviour/wire.md X1). Two
// of them differ on purpose: json-patch v4, which the real server uses, refuses a null or
// scalar patch with 400 "Invalid JSON Patch" instead of returning the patch.
func TestCh01_MergePatchRFC7386(t *testing.T) {
	tests := []struct{ doc, patch, want string }{
		{`{"a":"b"}`, `{"a":"c"}`, `{"a":"c"}`},
		{`{"a":"b"}`, `{"b":"c"}`, `{"a":"b","b":"c"}`},
		{`{"a":"b"}`, `{"a":null}`, `{}`},
		{`{"a":"b","b":"c"}`, `{"a":null}`, `{"b":"c"}`},
		{`{"a":["b"]}`, `{"a":"c"}`, `{"a":"c"}`},
		{`{"a":"c"}`, `{"a":["b"]}`, `{"a":["b"]}`},
		{`{"a":{"b":"c"}}`, `{"a":{"b":"d","c":null}}`, `{"a":{"b":"d"}}`},
		{`{"a":[{"b":"c"}]}`, `{"a":[1]}`, `{"a":[1]}`},
		{`["a","b"]`, `["c","d"]`, `["c","d"]`},
		{`{"a":"b"}`, `["c"]`, `["c"]`},
		{`{"e":null}`, `{"a":1}`, `{"e":null,"a":1}`},
		{`[1,2]`, `{"a":"b","c":null}`, `{"a":"b"}`},
		{`{}`, `{"a":{"bb":{"ccc":null}}}`, `{"a":{"bb":{}}}`},
		// kubectl label (X2): a merge patch of metadata.labels.
		{`{"metadata":{"name":"p","labels":{"app":"a","tier":"x"}},"spec":{"containers":[{"name":"c"}]}}`,
			`{"metadata":{"labels":{"app":"b","tier":null}}}`,
			`{"metadata":{"name":"p","labels":{"app":"b"}},"spec":{"containers":[{"name":"c"}]}}`},
		// Lists are replaced, never merged by key.
		{`{"spec":{"containers":[{"name":"a"},{"name":"b"}]}}`, `{"spec":{"containers":[{"name":"b","image":"x"}]}}`,
			`{"spec":{"containers":[{"name":"b","image":"x"}]}}`},
		{`{"a":[1,null]}`, `{"b":[{"x":null},null]}`, `{"a":[1,null],"b":[{},null]}`},
	}
	for _, tc := range tests {
		t.Run(tc.doc+"+"+tc.patch, func(t *testing.T) {
			got, err := applyMergePatch([]byte(tc.doc), []byte(tc.patch))
			require.NoError(t, err)
			assert.JSONEq(t, tc.want, string(got))
		})
	}
}

// TestCh01_E23_MergePatchErrors checks the 400s of a merge patch.
func TestCh01_E23_MergePatchErrors(t *testing.T) {
	tests := []struct{ patch, msg string }{
		{`{"a":`, "invalid JSON patch"},
		{"a: b", "invalid JSON patch"},
		{``, "invalid JSON patch"},
		{`null`, "Invalid JSON Patch"},
		{`"bar"`, "Invalid JSON Patch"},
		{`5`, "Invalid JSON Patch"},
	}
	for _, tc := range tests {
		_, err := applyMergePatch([]byte(`{"a":"foo"}`), []byte(tc.patch))
		assert.True(t, api.IsBadRequest(err), "%q: %v", tc.patch, err)
		assert.EqualError(t, err, tc.msg, tc.patch)
	}
}

func FuzzApplyMergePatch(f *testing.F) {
	f.Add([]byte(`{"a":{"b":"c"},"l":[1]}`), []byte(`{"a":{"b":"d","c":null}}`))
	f.Add([]byte(`[1,2]`), []byte(`{"a":"b","c":null}`))
	f.Add([]byte(`{}`), []byte(`["x",{"y":null}]`))
	f.Fuzz(func(t *testing.T, doc, patch []byte) {
		out, err := applyMergePatch(doc, patch)
		if err != nil {
			if !api.IsBadRequest(err) {
				t.Fatalf("unexpected error: %v", err)
			}
			return
		}
		// Applying the same object patch twice changes nothing more (RFC 7386 idempotence).
		if len(patch) > 0 && patch[0] == '{' {
			again, err := applyMergePatch(out, patch)
			if err != nil {
				t.Fatalf("second application failed: %v", err)
			}
			if !jsonTextEqual(out, again) {
				t.Fatalf("not idempotent: %s then %s", out, again)
			}
		}
	})
}

// jsonTextEqual compares two JSON texts as values.
func jsonTextEqual(a, b []byte) bool {
	va, err1 := decodeJSONTree(a)
	vb, err2 := decodeJSONTree(b)
	return err1 == nil && err2 == nil && jsonEqual(va, vb)
}
