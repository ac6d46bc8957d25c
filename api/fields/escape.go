package fields

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// escaper doubles backslashes first by construction: strings.Replacer works left to right on
// the input, so the '\' it adds in front of ',' and '=' is never escaped again.
var escaper = strings.NewReplacer(`\`, `\\`, `,`, `\,`, `=`, `\=`)

// EscapeValue mirrors fields.EscapeValue in k8s.io/apimachinery/pkg/fields: it escapes the
// bytes that would end a value or a term ('\', ',' and '=') so that any value survives
// String and ParseSelector.
func EscapeValue(s string) string {
	return escaper.Replace(s)
}

// InvalidEscapeSequence mirrors fields.InvalidEscapeSequence in
// k8s.io/apimachinery/pkg/fields: a '\' followed by a byte that needs no escaping, or by
// nothing.
type InvalidEscapeSequence struct {
	sequence string
}

// Error mirrors InvalidEscapeSequence.Error; the text is the real server's.
func (e InvalidEscapeSequence) Error() string {
	return "invalid field selector: invalid escape sequence: " + e.sequence
}

// UnescapedRune mirrors fields.UnescapedRune in k8s.io/apimachinery/pkg/fields: a ',' or '='
// inside a value without its '\'.
type UnescapedRune struct {
	r rune
}

// Error mirrors UnescapedRune.Error. Upstream prints the character's code point ("61" for
// '='); we quote the character itself, which reads better and names the offending token.
func (e UnescapedRune) Error() string {
	return fmt.Sprintf("invalid field selector: unescaped character in value: %q", e.r)
}

// UnescapeValue mirrors fields.UnescapeValue in k8s.io/apimachinery/pkg/fields: the inverse
// of EscapeValue. It rejects any other escape, a trailing '\', and a bare ',' or '='.
func UnescapeValue(s string) (string, error) {
	if !strings.ContainsAny(s, `\,=`) {
		return s, nil // the common case costs no allocation
	}
	// Work on bytes: every byte that matters is ASCII, and ASCII never occurs inside a
	// multi-byte UTF-8 sequence, so other bytes pass through untouched, valid UTF-8 or not.
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\':
			if i+1 == len(s) {
				return "", InvalidEscapeSequence{sequence: `\`}
			}
			i++
			switch n := s[i]; n {
			case '\\', ',', '=':
				b.WriteByte(n)
			default:
				return "", InvalidEscapeSequence{sequence: `\` + nextRune(s[i:])}
			}
		case ',', '=':
			return "", UnescapedRune{r: rune(c)}
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}

// nextRune returns the first character of s, whole, so an error shows "\é" and not half of
// it. A byte that is not valid UTF-8 shows as U+FFFD, as upstream's does.
func nextRune(s string) string {
	r, _ := utf8.DecodeRuneInString(s)
	return string(r)
}
