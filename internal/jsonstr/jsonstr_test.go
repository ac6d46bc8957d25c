package jsonstr

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAppendMatchesEncodingJSON: on strings that exercise every escape, Append writes the
// bytes json.Marshal writes.
func TestAppendMatchesEncodingJSON(t *testing.T) {
	tests := []struct {
		name string
		s    string
		want string // the expected output, spelled out (json.Marshal must agree)
	}{
		{"empty", "", `""`},
		{"plain", "plain text/with slash", `"plain text/with slash"`},
		{"quote and backslash", `q"b\s`, `"q\"b\\s"`},
		{"short escapes", "\b\f\n\r\t", `"\b\f\n\r\t"`},
		{"other control characters", "\x00\x01\x1f\x7f", `"\u0000\u0001\u001f` + "\x7f" + `"`},
		{"html", "<script>&amp;</script>", `"\u003cscript\u003e\u0026amp;\u003c/script\u003e"`},
		{"line and paragraph separators", "a\u2028b\u2029c", `"a\u2028b\u2029c"`},
		{"multibyte", "héllo 世界 😀", `"héllo 世界 😀"`},
		{"invalid byte", "bad\xffutf8", `"bad\ufffdutf8"`},
		{"truncated sequence at the end", "bad\xc3", `"bad\ufffd"`},
		{"truncated sequence inside", "a\xe4\xb8b", `"a\ufffd\ufffdb"`},
		{"surrogate half", "\xed\xa0\x80", `"\ufffd\ufffd\ufffd"`},
		{"overlong encoding", "\xc0\xaf", `"\ufffd\ufffd"`},
		{"escapes next to each other", "<\x00\xff\u2028>", `"\u003c\u0000\ufffd\u2028\u003e"`},
		{"replacement character itself", "\ufffd", "\"\ufffd\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, err := json.Marshal(tt.s)
			require.NoError(t, err)
			require.Equal(t, tt.want, string(want), "the table disagrees with encoding/json")
			assert.Equal(t, string(want), string(Append(nil, tt.s)))
			// Appending keeps what b held.
			assert.Equal(t, "x:"+string(want), string(Append([]byte("x:"), tt.s)))
		})
	}
}

// TestAppendDecodesBack: what Append writes decodes to s with invalid UTF-8 replaced.
func TestAppendDecodesBack(t *testing.T) {
	for _, s := range []string{"", "tab\there", "bad\xc3", "<&>", "\u2028"} {
		var got string
		require.NoError(t, json.Unmarshal(Append(nil, s), &got), "%q", s)
		assert.Equal(t, strings.ToValidUTF8(s, "\ufffd"), got, "%q", s)
	}
}

func FuzzAppend(f *testing.F) {
	for _, s := range []string{"", "a<b>&\u2028\x01\xff", "\xed\xa0\x80", "q\"\\\b\f", "世界\xe4\xb8"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := Append(nil, s); string(got) != string(want) {
			t.Fatalf("%q: got %s, encoding/json writes %s", s, got, want)
		}
		if got := Append(nil, s); !utf8.Valid(got) {
			t.Fatalf("%q: output %q is not valid UTF-8", s, got)
		}
	})
}

func BenchmarkAppend(b *testing.B) {
	s := strings.Repeat("ns/pod-1 ", 8) + "<b>"
	buf := make([]byte, 0, 256)
	b.ReportAllocs()
	for b.Loop() {
		buf = Append(buf[:0], s)
	}
}
