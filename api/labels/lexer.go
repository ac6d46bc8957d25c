package labels

// tokenKind classifies one lexeme of a label selector.
type tokenKind int

const (
	tokEnd          tokenKind = iota // end of input; its text is "" (errors print found '')
	tokIdent                         // a run of non-special, non-blank bytes: key, value, in, notin
	tokComma                         // ,
	tokOpen                          // (
	tokClose                         // )
	tokBang                          // !
	tokEquals                        // =
	tokDoubleEquals                  // ==
	tokNotEquals                     // !=
	tokGreater                       // >
	tokLess                          // <
)

type token struct {
	kind tokenKind
	text string
}

// lexer splits a selector into tokens. It never fails: every byte is a blank, part of a
// symbol, or part of an identifier, and the parser decides what is out of place. "in" and
// "notin" come out as identifiers because they are keywords only where an operator is due
// ("in in (in)" is a fine selector).
type lexer struct {
	s   string
	pos int
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func isSymbol(c byte) bool {
	switch c {
	case '=', '!', '(', ')', ',', '>', '<':
		return true
	}
	return false
}

func (l *lexer) next() token {
	for l.pos < len(l.s) && isBlank(l.s[l.pos]) {
		l.pos++
	}
	if l.pos >= len(l.s) {
		return token{kind: tokEnd}
	}
	start := l.pos
	if !isSymbol(l.s[start]) {
		for l.pos < len(l.s) && !isSymbol(l.s[l.pos]) && !isBlank(l.s[l.pos]) {
			l.pos++
		}
		return token{kind: tokIdent, text: l.s[start:l.pos]}
	}
	// Symbols are one byte long except "==" and "!=", so try the two-byte forms first:
	// "!==" is then "!=" followed by "=", as upstream reads it.
	if l.pos+1 < len(l.s) && l.s[l.pos+1] == '=' {
		switch l.s[l.pos] {
		case '=':
			l.pos += 2
			return token{kind: tokDoubleEquals, text: "=="}
		case '!':
			l.pos += 2
			return token{kind: tokNotEquals, text: "!="}
		}
	}
	l.pos++
	return token{kind: symbolKind(l.s[start]), text: l.s[start:l.pos]}
}

// symbolKind maps a one-byte symbol to its kind; c is always one of isSymbol's bytes.
func symbolKind(c byte) tokenKind {
	switch c {
	case ',':
		return tokComma
	case '(':
		return tokOpen
	case ')':
		return tokClose
	case '!':
		return tokBang
	case '=':
		return tokEquals
	case '>':
		return tokGreater
	}
	return tokLess
}
