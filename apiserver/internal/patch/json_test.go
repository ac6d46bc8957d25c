package patch

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// TestCh01_JSONPatchRFC6902 runs the examples of RFC 6902 appendix A (docs/behaviour/wire.md X1).
func TestCh01_JSONPatchRFC6902(t *testing.T) {
	tests := []struct {
		name, doc, patch, want string // want "" = the patch must fail with 422 (E24)
	}{
		{"A.1 add member", `{"foo":"bar"}`, `[{"op":"add","path":"/baz","value":"qux"}]`, `{"baz":"qux","foo":"bar"}`},
		{"A.2 add element", `{"foo":["bar","baz"]}`, `[{"op":"add","path":"/foo/1","value":"qux"}]`, `{"foo":["bar","qux","baz"]}`},
		{"A.3 remove member", `{"baz":"qux","foo":"bar"}`, `[{"op":"remove","path":"/baz"}]`, `{"foo":"bar"}`},
		{"A.4 remove element", `{"foo":["bar","qux","baz"]}`, `[{"op":"remove","path":"/foo/1"}]`, `{"foo":["bar","baz"]}`},
		{"A.5 replace", `{"baz":"qux","foo":"bar"}`, `[{"op":"replace","path":"/baz","value":"boo"}]`, `{"baz":"boo","foo":"bar"}`},
		{"A.6 move", `{"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}}`, `[{"op":"move","from":"/foo/waldo","path":"/qux/thud"}]`,
			`{"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}}`},
		{"A.7 move element", `{"foo":["all","grass","cows","eat"]}`, `[{"op":"move","from":"/foo/1","path":"/foo/3"}]`, `{"foo":["all","cows","eat","grass"]}`},
		{"A.8 test success", `{"baz":"qux","foo":["a",2,"c"]}`, `[{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}]`, `{"baz":"qux","foo":["a",2,"c"]}`},
		{"A.9 test failure", `{"baz":"qux"}`, `[{"op":"test","path":"/baz","value":"bar"}]`, ""},
		{"A.10 nested object", `{"foo":"bar"}`, `[{"op":"add","path":"/child","value":{"grandchild":{}}}]`, `{"foo":"bar","child":{"grandchild":{}}}`},
		{"A.11 extra members", `{"foo":"bar"}`, `[{"op":"add","path":"/baz","value":"qux","xyz":123}]`, `{"foo":"bar","baz":"qux"}`},
		{"A.12 nonexistent target", `{"foo":"bar"}`, `[{"op":"add","path":"/baz/bat","value":"qux"}]`, ""},
		{"A.13 duplicate op member", `{"foo":"bar"}`, `[{"op":"add","path":"/baz","value":"qux","op":"remove"}]`, ""},
		{"A.14 escape ordering", `{"/":9,"~1":10}`, `[{"op":"test","path":"/~01","value":10}]`, `{"/":9,"~1":10}`},
		{"A.15 string vs number", `{"/":9,"~1":10}`, `[{"op":"test","path":"/~01","value":"10"}]`, ""},
		{"A.16 add array value", `{"foo":["bar"]}`, `[{"op":"add","path":"/foo/-","value":["abc","def"]}]`, `{"foo":["bar",["abc","def"]]}`},
		// Beyond the RFC: what kubectl patch --type=json does to our objects.
		{"escape ~1 in a label key", `{"metadata":{"labels":{"app.kubernetes.io/name":"a"}}}`,
			`[{"op":"replace","path":"/metadata/labels/app.kubernetes.io~1name","value":"b"}]`, `{"metadata":{"labels":{"app.kubernetes.io/name":"b"}}}`},
		{"copy", `{"a":{"x":[1]},"b":{}}`, `[{"op":"copy","from":"/a/x","path":"/b/y"},{"op":"add","path":"/b/y/-","value":2}]`, `{"a":{"x":[1]},"b":{"y":[1,2]}}`},
		{"negative index (json-patch v4)", `{"a":[1,2,3]}`, `[{"op":"remove","path":"/a/-1"}]`, `{"a":[1,2]}`},
		{"index past the end", `{"a":[1]}`, `[{"op":"add","path":"/a/5","value":2}]`, ""},
		{"replace missing", `{"a":1}`, `[{"op":"replace","path":"/b","value":2}]`, ""},
		{"remove missing", `{"a":1}`, `[{"op":"remove","path":"/b"}]`, ""},
		{"replace root", `{"a":1}`, `[{"op":"replace","path":"","value":{"b":2}}]`, `{"b":2}`},
		{"add at root refused (v4)", `{"a":1}`, `[{"op":"add","path":"","value":{"b":2}}]`, ""},
		{"test root", `{"a":1}`, `[{"op":"test","path":"","value":{"a":1.0}}]`, `{"a":1}`},
		{"unknown op", `{"a":1}`, `[{"op":"frobnicate","path":"/a"}]`, ""},
		{"missing path", `{"a":1}`, `[{"op":"add","value":1}]`, ""},
		{"pointer without slash", `{"a":1}`, `[{"op":"add","path":"a","value":1}]`, ""},
		{"big numbers keep their text", `{"a":12345678901234567890}`, `[{"op":"add","path":"/b","value":1.50}]`, `{"a":12345678901234567890,"b":1.50}`},
		{"empty patch", `{"a":1}`, `[]`, `{"a":1}`},
		{"null patch", `{"a":1}`, `null`, `{"a":1}`},
		{"added values are not shared", `{"a":{}}`, `[{"op":"add","path":"/a/x","value":{"k":1}},{"op":"copy","from":"/a/x","path":"/a/y"},{"op":"replace","path":"/a/y/k","value":2}]`,
			`{"a":{"x":{"k":1},"y":{"k":2}}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := applyJSONPatch([]byte(tc.doc), []byte(tc.patch))
			if tc.want == "" {
				require.Error(t, err)
				assert.True(t, api.IsInvalid(err), "E24: %v", err)
				assert.Equal(t, "the server rejected our request due to an error in our request", err.Error())
				return
			}
			require.NoError(t, err)
			assert.JSONEq(t, tc.want, string(got))
		})
	}
	got, err := applyJSONPatch([]byte(`{"a":12345678901234567890}`), []byte(`[]`))
	require.NoError(t, err)
	assert.Equal(t, `{"a":12345678901234567890}`, string(got), "numbers keep their exact text")
}

// TestCh01_JSONPatchErrors checks E23, E48 and the 400 for a patch that does not decode.
func TestCh01_JSONPatchErrors(t *testing.T) {
	ops := func(n int) string {
		return "[" + strings.TrimSuffix(strings.Repeat(`{"op":"test","path":"/a","value":1},`, n), ",") + "]"
	}
	tests := []struct {
		id, patch string
		code      int32
		msg       string
	}{
		{"E23", `[{"op":`, 400, "invalid JSON patch"},
		{"E23 yaml", "- op: add", 400, "invalid JSON patch"},
		{"not a list", `{"op":"add"}`, 400, "json: cannot unmarshal object into Go value of type jsonpatch.Patch"},
		{"not an object", `["add"]`, 400, "json: cannot unmarshal string into Go value of type jsonpatch.Operation"},
		{"E48", ops(10001), 413, "Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001"},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			_, err := applyJSONPatch([]byte(`{"a":1}`), []byte(tc.patch))
			require.Error(t, err)
			assert.Equal(t, tc.code, api.CodeForError(err))
			assert.EqualError(t, err, tc.msg)
		})
	}
	_, err := applyJSONPatch([]byte(`{"a":1}`), []byte(ops(10000)))
	assert.NoError(t, err, "exactly 10000 operations are allowed")
}

func TestCh01_JSONPatchCopyLimit(t *testing.T) {
	doc := fmt.Sprintf(`{"a":%q}`, strings.Repeat("x", 1<<20))
	patch := `[{"op":"copy","from":"/a","path":"/b"},{"op":"copy","from":"/a","path":"/c"},{"op":"copy","from":"/a","path":"/d"}]`
	_, err := applyJSONPatch([]byte(doc), []byte(patch))
	assert.True(t, api.IsInvalid(err), "three 1 MiB copies pass the 3 MiB copy budget: %v", err)
}

func FuzzApplyJSONPatch(f *testing.F) {
	f.Add([]byte(`{"foo":["bar","baz"],"m":{"k":1}}`), []byte(`[{"op":"add","path":"/foo/1","value":"qux"}]`))
	f.Add([]byte(`{"foo":{"bar":"baz"}}`), []byte(`[{"op":"move","from":"/foo/bar","path":"/x"},{"op":"test","path":"/x","value":"baz"}]`))
	f.Add([]byte(`{"a":[1,2,3]}`), []byte(`[{"op":"remove","path":"/a/-1"},{"op":"copy","from":"/a","path":"/a/0"}]`))
	f.Add([]byte(`{"/":9,"~1":10}`), []byte(`[{"op":"replace","path":"","value":[1]}]`))
	f.Fuzz(func(t *testing.T, doc, patch []byte) {
		out, err := applyJSONPatch(doc, patch)
		if err != nil {
			switch api.CodeForError(err) {
			case 400, 413, 422:
			default:
				t.Fatalf("unexpected error: %v", err)
			}
			return
		}
		if len(out) == 0 {
			t.Fatal("empty result")
		}
	})
}
