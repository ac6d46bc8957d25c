package protobuf

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCh02_ProtobufEmbeddedJSONMatchesEncodingJSON checks the hand-written writer of
// embedded documents against json.Marshal.
func TestCh02_ProtobufEmbeddedJSONMatchesEncodingJSON(t *testing.T) {
	for _, v := range []any{
		nil, true, false, int64(-42), "plain", "q\"b\\s/\b\f\n\r\t\x00\x1f<>&\u2028\u2029é😀", "bad\xffutf8\xc3",
		map[string]any{"f:metadata": map[string]any{"f:labels": map[string]any{".": map[string]any{}, "f:app": map[string]any{}}}},
		map[string]any{"z": []any{int64(1), "x", nil, []any{}}, "a": map[string]any{}, "<k>": 1.5, "e": 1e21, "n": 3.0},
		[]any{map[string]any{"k": "v"}, false},
	} {
		want, err := json.Marshal(v)
		require.NoError(t, err)
		got, err := appendJSON(nil, v)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got))
	}
}

func FuzzEmbeddedJSON(f *testing.F) {
	f.Add("a<b>&\u2028\x01\xff")
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(map[string]any{s: []any{s}})
		got, err := appendJSON(nil, map[string]any{s: []any{s}})
		if err != nil || string(got) != string(want) {
			t.Fatalf("%q: got %s want %s", s, got, want)
		}
	})
}
