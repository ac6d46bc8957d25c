package cel

import (
	"strings"
	"unicode/utf8"
)

// tokKind classifies a token of CEL's grammar (cel-spec's CEL.g4 lexer rules).
type tokKind uint8

const (
	tEOF tokKind = iota
	tError
	tInt
	tUint
	tFloat
	tString
	tBytes
	tIdent
	tEscIdent
	tTrue
	tFalse
	tNull
	tIn
	tEq
	tNe
	tLt
	tLe
	tGe
	tGt
	tAnd
	tOr
	tLBracket
	tRBracket
	tLBrace
	tRBrace
	tLParen
	tRParen
	tDot
	tComma
	tMinus
	tNot
	tQuestion
	tColon
	tPlus
	tStar
	tSlash
	tPercent
)

// token is one lexeme: its kind, its text as written and its byte offset in the source.
type token struct {
	kind tokKind
	text string
	pos  int
}

// lexer splits a source into tokens, skipping whitespace and // comments as the grammar's
// hidden channel does.
type lexer struct {
	src string
	pos int
}

var punct = map[string]tokKind{
	"==": tEq, "!=": tNe, "<=": tLe, ">=": tGe, "&&": tAnd, "||": tOr,
	"<": tLt, ">": tGt, "[": tLBracket, "]": tRBracket, "{": tLBrace, "}": tRBrace,
	"(": tLParen, ")": tRParen, ".": tDot, ",": tComma, "-": tMinus, "!": tNot,
	"?": tQuestion, ":": tColon, "+": tPlus, "*": tStar, "/": tSlash, "%": tPercent,
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isHex(c byte) bool    { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func (l *lexer) peekByte(off int) byte {
	if l.pos+off < len(l.src) {
		return l.src[l.pos+off]
	}
	return 0
}

// next returns the next token. A character no rule accepts yields a tError token holding
// it, which the parser reports as ANTLR's "token recognition error".
func (l *lexer) next() token {
	l.skipSpace()
	if l.pos >= len(l.src) {
		return token{kind: tEOF, pos: l.pos, text: "<EOF>"}
	}
	start := l.pos
	c := l.src[l.pos]
	switch {
	case isDigit(c) || c == '.' && isDigit(l.peekByte(1)):
		return l.number()
	case c == '"' || c == '\'':
		return l.str(start, 0, tString)
	case (c == 'r' || c == 'R') && (l.peekByte(1) == '"' || l.peekByte(1) == '\''):
		return l.str(start, 1, tString)
	case (c == 'b' || c == 'B') && (l.peekByte(1) == '"' || l.peekByte(1) == '\''):
		return l.str(start, 1, tBytes)
	case (c == 'b' || c == 'B') && (l.peekByte(1) == 'r' || l.peekByte(1) == 'R') && (l.peekByte(2) == '"' || l.peekByte(2) == '\''):
		return l.str(start, 2, tBytes)
	case isLetter(c) || c == '_':
		for l.pos < len(l.src) && (isLetter(l.src[l.pos]) || isDigit(l.src[l.pos]) || l.src[l.pos] == '_') {
			l.pos++
		}
		text := l.src[start:l.pos]
		kind := tIdent
		switch text {
		case "true":
			kind = tTrue
		case "false":
			kind = tFalse
		case "null":
			kind = tNull
		case "in":
			kind = tIn
		}
		return token{kind: kind, text: text, pos: start}
	case c == '`':
		i := l.pos + 1
		for i < len(l.src) && escIdentChar(l.src[i]) {
			i++
		}
		if i < len(l.src) && l.src[i] == '`' && i > l.pos+1 {
			l.pos = i + 1
			return token{kind: tEscIdent, text: l.src[start:l.pos], pos: start}
		}
	}
	if l.pos+1 < len(l.src) {
		if k, ok := punct[l.src[l.pos:l.pos+2]]; ok {
			l.pos += 2
			return token{kind: k, text: l.src[start:l.pos], pos: start}
		}
	}
	if k, ok := punct[l.src[l.pos:l.pos+1]]; ok {
		l.pos++
		return token{kind: k, text: l.src[start:l.pos], pos: start}
	}
	_, sz := utf8.DecodeRuneInString(l.src[l.pos:])
	l.pos += sz
	return token{kind: tError, text: l.src[start:l.pos], pos: start}
}

func escIdentChar(c byte) bool {
	return isLetter(c) || isDigit(c) || c == '_' || c == '.' || c == '-' || c == '/' || c == ' '
}

func (l *lexer) skipSpace() {
	for l.pos < len(l.src) {
		switch c := l.src[l.pos]; {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f':
			l.pos++
		case c == '/' && l.peekByte(1) == '/':
			for l.pos < len(l.src) && l.src[l.pos] != '\n' {
				l.pos++
			}
		default:
			return
		}
	}
}

func (l *lexer) digits(pred func(byte) bool) int {
	n := 0
	for l.pos < len(l.src) && pred(l.src[l.pos]) {
		l.pos++
		n++
	}
	return n
}

// number lexes NUM_INT, NUM_UINT and NUM_FLOAT with the longest match ANTLR would take.
func (l *lexer) number() token {
	start := l.pos
	if l.src[l.pos] == '0' && l.peekByte(1) == 'x' && isHex(l.peekByte(2)) {
		l.pos += 2
		l.digits(isHex)
		if c := l.peekByte(0); c == 'u' || c == 'U' {
			l.pos++
			return token{kind: tUint, text: l.src[start:l.pos], pos: start}
		}
		return token{kind: tInt, text: l.src[start:l.pos], pos: start}
	}
	float := false
	if l.src[l.pos] != '.' {
		l.digits(isDigit)
	}
	if l.peekByte(0) == '.' && isDigit(l.peekByte(1)) {
		l.pos++
		l.digits(isDigit)
		float = true
	}
	if c := l.peekByte(0); c == 'e' || c == 'E' {
		save := l.pos
		l.pos++
		if c := l.peekByte(0); c == '+' || c == '-' {
			l.pos++
		}
		if l.digits(isDigit) == 0 {
			l.pos = save
		} else {
			float = true
		}
	}
	if float {
		return token{kind: tFloat, text: l.src[start:l.pos], pos: start}
	}
	if c := l.peekByte(0); c == 'u' || c == 'U' {
		l.pos++
		return token{kind: tUint, text: l.src[start:l.pos], pos: start}
	}
	return token{kind: tInt, text: l.src[start:l.pos], pos: start}
}

// str lexes a quoted literal whose quote starts prefix bytes after start. Raw literals take
// no escapes; single-quoted forms end at a newline, triple-quoted ones may span lines.
func (l *lexer) str(start, prefix int, kind tokKind) token {
	raw := strings.ContainsAny(l.src[start:start+prefix], "rR")
	l.pos = start + prefix
	q := l.src[l.pos]
	triple := strings.HasPrefix(l.src[l.pos:], strings.Repeat(string(q), 3))
	if triple {
		l.pos += 3
		closing := strings.Repeat(string(q), 3)
		for l.pos < len(l.src) {
			if !raw && l.src[l.pos] == '\\' {
				if !l.escape() {
					return l.bad(start, l.escapeEnd())
				}
				continue
			}
			if strings.HasPrefix(l.src[l.pos:], closing) {
				l.pos += 3
				return token{kind: kind, text: l.src[start:l.pos], pos: start}
			}
			l.pos++
		}
		return l.bad(start, len(l.src))
	}
	l.pos++
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case c == q:
			l.pos++
			return token{kind: kind, text: l.src[start:l.pos], pos: start}
		case c == '\n' || c == '\r':
			return l.bad(start, l.pos+1)
		case c == '\\' && !raw:
			if !l.escape() {
				return l.bad(start, l.escapeEnd())
			}
		default:
			l.pos++
		}
	}
	return l.bad(start, len(l.src))
}

// escape consumes one ESC_SEQ at l.pos, reporting whether it is well formed.
func (l *lexer) escape() bool {
	c := l.peekByte(1)
	n := 0
	switch {
	case strings.IndexByte("abfnrtv\"'\\?`", c) >= 0 && c != 0:
		l.pos += 2
		return true
	case c == 'x' || c == 'X':
		n = 2
	case c == 'u':
		n = 4
	case c == 'U':
		n = 8
	case c >= '0' && c <= '3':
		if d, e := l.peekByte(2), l.peekByte(3); d >= '0' && d <= '7' && e >= '0' && e <= '7' {
			l.pos += 4
			return true
		}
		return false
	default:
		return false
	}
	for i := 0; i < n; i++ {
		if !isHex(l.peekByte(2 + i)) {
			return false
		}
	}
	l.pos += 2 + n
	return true
}

// bad turns a malformed literal into an error token whose text runs from its start to the
// character ANTLR's lexer could not match, as its "token recognition error" shows.
func (l *lexer) bad(start, end int) token {
	if end > len(l.src) {
		end = len(l.src)
	}
	l.pos = end
	return token{kind: tError, text: l.src[start:end], pos: start}
}

// escapeEnd is the end of a bad escape sequence: the character after the backslash, or
// the first one that is not a digit of it.
func (l *lexer) escapeEnd() int {
	i := l.pos + 1
	switch c := l.peekByte(1); {
	case c == 'x' || c == 'X' || c == 'u' || c == 'U':
		i++
		for i < len(l.src) && isHex(l.src[i]) {
			i++
		}
	case c >= '0' && c <= '3':
		i++
		for i < len(l.src) && l.src[i] >= '0' && l.src[i] <= '7' {
			i++
		}
	}
	_, sz := utf8.DecodeRuneInString(l.src[min(i, len(l.src)):])
	return i + sz
}
