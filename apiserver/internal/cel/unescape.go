package cel

import (
	"errors"
	"strings"
	"unicode/utf8"
)

var newlines = strings.NewReplacer("\r\n", "\n", "\r", "\n")

// unescape decodes a string or bytes literal as written (quotes and r prefix included),
// following cel-spec's escape rules: \x and octal escapes are code points in strings and
// raw bytes in bytes literals; \u and \U are refused in bytes.
func unescape(v string, isBytes bool) (string, error) {
	v = newlines.Replace(v)
	raw := false
	if v[0] == 'r' || v[0] == 'R' {
		raw, v = true, v[1:]
	}
	if len(v) >= 6 && (strings.HasPrefix(v, `"""`) || strings.HasPrefix(v, "'''")) {
		v = v[3 : len(v)-3]
	} else {
		v = v[1 : len(v)-1]
	}
	if raw || !strings.Contains(v, `\`) {
		return v, nil
	}
	var b strings.Builder
	for len(v) > 0 {
		c := v[0]
		if c != '\\' {
			b.WriteByte(c)
			v = v[1:]
			continue
		}
		if len(v) < 2 {
			return "", errors.New("unable to unescape string, found '\\' as last character")
		}
		e := v[1]
		v = v[2:]
		if i := strings.IndexByte("abfnrtv\\'\"`?", e); i >= 0 {
			b.WriteByte("\a\b\f\n\r\t\v\\'\"`?"[i])
			continue
		}
		var r rune
		encode := true
		switch e {
		case 'x', 'X', 'u', 'U':
			n := map[byte]int{'x': 2, 'X': 2, 'u': 4, 'U': 8}[e]
			if isBytes && (e == 'u' || e == 'U') || len(v) < n {
				return "", errors.New("unable to unescape string")
			}
			for j := 0; j < n; j++ {
				if !isHex(v[j]) {
					return "", errors.New("unable to unescape string")
				}
				r = r<<4 | rune(hexVal(v[j]))
			}
			v = v[n:]
			if e == 'x' || e == 'X' {
				encode = !isBytes
			}
		case '0', '1', '2', '3':
			if len(v) < 2 || v[0] < '0' || v[0] > '7' || v[1] < '0' || v[1] > '7' {
				return "", errors.New("unable to unescape octal sequence in string")
			}
			r = rune(e-'0')*64 + rune(v[0]-'0')*8 + rune(v[1]-'0')
			v = v[2:]
			encode = !isBytes
		default:
			return "", errors.New("unable to unescape string")
		}
		if !isBytes && !utf8.ValidRune(r) {
			return "", errors.New("invalid unicode code point")
		}
		if encode && r >= utf8.RuneSelf {
			b.WriteRune(r)
		} else {
			b.WriteByte(byte(r))
		}
	}
	return b.String(), nil
}

func hexVal(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}
