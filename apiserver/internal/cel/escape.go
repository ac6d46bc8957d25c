package cel

import (
	"regexp"
	"sync"
)

// reservedSymbols are the names Kubernetes escapes as __name__ in CEL (escaping.go).
var reservedSymbols = map[string]bool{
	"true": true, "false": true, "null": true, "in": true, "as": true, "break": true,
	"const": true, "continue": true, "else": true, "for": true, "function": true, "if": true,
	"import": true, "let": true, "loop": true, "package": true, "namespace": true,
	"return": true, "var": true, "void": true, "while": true,
}

// The matchers compile on first use, not at every process start.
var expandMatcher = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(__|[-./]|[^a-zA-Z0-9-./_])`) })

// Escape turns a property name into the CEL field name Kubernetes uses for it: reserved
// words become __word__, and "__", ".", "-", "/" become __underscores__, __dot__,
// __dash__ and __slash__. Names CEL cannot express are refused.
func Escape(ident string) (string, bool) {
	if ident == "" || ident[0] >= '0' && ident[0] <= '9' {
		return "", false
	}
	if reservedSymbols[ident] {
		return "__" + ident + "__", true
	}
	plain, prevUnderscore := true, false
scan:
	for _, c := range ident {
		switch {
		case c == '/' || c == '-' || c == '.':
			plain = false
			break scan
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
			if c == '_' && prevUnderscore {
				plain = false
				break scan
			}
		default:
			return "", false
		}
		prevUnderscore = c == '_'
	}
	if plain {
		return ident, true
	}
	ok := true
	out := expandMatcher().ReplaceAllStringFunc(ident, func(s string) string {
		switch s {
		case "__":
			return "__underscores__"
		case ".":
			return "__dot__"
		case "-":
			return "__dash__"
		case "/":
			return "__slash__"
		}
		ok = false
		return ""
	})
	return out, ok
}

var unexpandMatcher = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(_{2}[^_]+_{2})`) })

// Unescape reverses Escape.
func Unescape(escaped string) (string, bool) {
	ok := true
	out := unexpandMatcher().ReplaceAllStringFunc(escaped, func(s string) string {
		inner := s[2 : len(s)-2]
		switch inner {
		case "underscores":
			return "__"
		case "dot":
			return "."
		case "dash":
			return "-"
		case "slash":
			return "/"
		}
		if reservedSymbols[inner] {
			if len(s) != len(escaped) {
				ok = false
			}
			return inner
		}
		ok = false
		return ""
	})
	if !ok {
		return "", false
	}
	return out, true
}
