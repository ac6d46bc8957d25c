package apiserver

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// TestCh01_AppendJSONIsJSONMarshal: the stored tree's encoder writes byte for byte what
// json.Marshal writes, for every kind of value a stored tree holds, for strings that need
// escaping, and for one object of every kind the server serves (testdata/roundtrip).
func TestCh01_AppendJSONIsJSONMarshal(t *testing.T) {
	values := []struct {
		name string
		v    any
	}{
		{"null", nil},
		{"true", true},
		{"int64", int64(-9007199254740993)},
		{"float", 1.5},
		{"whole float", float64(3)},
		{"json.Number", json.Number("12")},
		{"int", 7},
		{"empty map", map[string]any{}},
		{"nil map", map[string]any(nil)},
		{"empty list", []any{}},
		{"nil list", []any(nil)},
		{"typed map", map[string]string{"b": "1", "a": "<2>"}},
		{"sorted keys", map[string]any{"b": int64(1), "a": []any{"x", nil, false}, "A": map[string]any{"z": "", "é": "ü"}}},
		{"html", "<a href=\"x\">&amp;</a>"},
		{"controls", "\x00\x01\b\f\n\r\t\x1f\x7f"},
		{"backslash and quote", `a\"b`},
		{"invalid UTF-8", "a\xffb\xc3"},
		{"separators", "a\u2028b\u2029c"},
		{"multi-byte", "日本語 🚀 ü"},
		{"escaped key", map[string]any{"<k>": "v", "a\nb": "w"}},
	}
	for _, tt := range values {
		t.Run(tt.name, func(t *testing.T) {
			want, werr := json.Marshal(tt.v)
			got, gerr := appendJSON([]byte("prefix"), tt.v)
			require.Equal(t, werr == nil, gerr == nil)
			assert.Equal(t, "prefix"+string(want), string(got))
		})
	}
	files, err := filepath.Glob("testdata/roundtrip/*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, doc := range strings.Split(string(data), "\n---\n") {
			var tree map[string]any
			require.NoError(t, yaml.Unmarshal([]byte(doc), &tree), f)
			if tree == nil {
				continue
			}
			tree = int64s(tree).(map[string]any)
			want, err := json.Marshal(tree)
			require.NoError(t, err)
			got, err := appendJSON(nil, tree)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got), f)
		}
	}
}

// int64s turns the ints yaml.v3 decodes into the int64s a stored tree holds.
func int64s(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = int64s(e)
		}
	case []any:
		for i, e := range t {
			t[i] = int64s(e)
		}
	case int:
		return int64(t)
	}
	return v
}
