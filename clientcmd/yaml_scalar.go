package clientcmd

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// plainScalar reads a plain scalar, possibly over several lines (in a block, each further
// line indented deeper than n). Line breaks fold: one becomes a space, each empty line a
// newline. It ends at ": ", " #", a line break not followed by a continuation, and in flow
// context at , [ ] { }.
func (p *yamlParser) plainScalar(n int, flow bool) (string, error) {
	switch c := p.at(0); {
	// YAML reserves % @ ` too; they are let through, as a value such as "%%%" cannot be
	// anything else.
	case strings.IndexByte("#,[]{}&*!|>'\"", c) >= 0,
		(c == '-' || c == '?' || c == ':') && (isSpaceOrEnd(p.at(1)) || flow && strings.IndexByte(",[]{}", p.at(1)) >= 0):
		return "", p.errorf("a plain scalar cannot start with %q", c)
	}
	var b strings.Builder
	first := true
	for {
		start := p.pos
		for {
			c := p.at(0)
			if isBreakOrEnd(c) ||
				c == '#' && p.pos > start && isBlank(p.src[p.pos-1]) ||
				c == ':' && (isSpaceOrEnd(p.at(1)) || flow && strings.IndexByte(",[]{}", p.at(1)) >= 0) ||
				flow && strings.IndexByte(",[]{}", c) >= 0 {
				break
			}
			p.pos++
		}
		seg := strings.TrimRight(p.src[start:p.pos], " \t")
		if !first && p.at(0) == ':' && !flow {
			return "", p.errorf("unexpected indentation")
		}
		b.WriteString(seg)
		first = false
		end, endLine, endBeg := start+len(seg), p.line, p.lineBeg
		if p.at(0) != '\n' {
			p.pos = end
			return b.String(), nil
		}
		// Look for a continuation line: more indented than n, not a comment or a marker.
		breaks, ind := 0, 0
		for p.at(0) == '\n' {
			p.newline()
			for p.at(0) == ' ' {
				p.pos++
			}
			ind = p.col()
			p.skipBlanks()
			breaks++
		}
		c := p.at(0)
		if c == 0 || c == '#' || (!flow && ind <= n) || p.isMarkerLine() ||
			(flow && strings.IndexByte(",[]{}", c) >= 0) {
			p.pos, p.line, p.lineBeg = end, endLine, endBeg
			return b.String(), nil
		}
		if breaks == 1 {
			b.WriteByte(' ')
		} else {
			b.WriteString(strings.Repeat("\n", breaks-1))
		}
	}
}

// isMarkerLine reports whether the current line starts with --- or ....
func (p *yamlParser) isMarkerLine() bool {
	save := p.pos
	p.pos = p.lineBeg
	ok := p.atDocumentMarker()
	p.pos = save
	return ok
}

// quoted reads a single- or double-quoted scalar. Line breaks inside fold as in plain
// scalars; a double-quoted one takes YAML's escapes, "\" before a line break joins the lines.
func (p *yamlParser) quoted() (string, error) {
	q := p.at(0)
	startLine := p.line
	p.pos++
	var b strings.Builder
	for {
		c := p.at(0)
		switch {
		case c == 0:
			return "", p.errorf("unterminated quoted scalar starting on line %d", startLine)
		case c == q && q == '\'' && p.at(1) == '\'':
			b.WriteByte('\'')
			p.pos += 2
		case c == q:
			p.pos++
			return b.String(), nil
		case c == '\\' && q == '"':
			if p.at(1) == '\n' { // an escaped line break joins the lines without a space
				p.pos++
				p.newline()
				p.skipBlanks()
				continue
			}
			if err := p.escape(&b); err != nil {
				return "", err
			}
		case c == '\n':
			// Trailing blanks of the line are dropped, then the break folds.
			s := b.String()
			b.Reset()
			b.WriteString(strings.TrimRight(s, " \t"))
			breaks := 0
			for p.at(0) == '\n' {
				p.newline()
				p.skipBlanks()
				breaks++
			}
			if p.isMarkerLine() && p.col() == 0 {
				return "", p.errorf("unterminated quoted scalar starting on line %d", startLine)
			}
			if breaks == 1 {
				b.WriteByte(' ')
			} else {
				b.WriteString(strings.Repeat("\n", breaks-1))
			}
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
}

// escapes maps YAML's one-letter escapes to what they stand for.
var escapes = map[byte]string{
	'0': "\x00", 'a': "\a", 'b': "\b", 't': "\t", '\t': "\t", 'n': "\n", 'v': "\v", 'f': "\f",
	'r': "\r", 'e': "\x1b", ' ': " ", '"': "\"", '/': "/", '\\': "\\", 'N': "\u0085",
	'_': "\u00a0", 'L': "\u2028", 'P': "\u2029",
}

// escape reads one escape sequence of a double-quoted scalar at pos (the backslash).
func (p *yamlParser) escape(b *strings.Builder) error {
	e := p.at(1)
	if s, ok := escapes[e]; ok {
		b.WriteString(s)
		p.pos += 2
		return nil
	}
	width := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
	if width == 0 {
		return p.errorf("unsupported escape \\%c in a double-quoted scalar", e)
	}
	if p.pos+2+width > len(p.src) {
		return p.errorf("short \\%c escape", e)
	}
	r, err := strconv.ParseUint(p.src[p.pos+2:p.pos+2+width], 16, 32)
	if err != nil || r > 0x10FFFF {
		return p.errorf("bad \\%c escape %q", e, p.src[p.pos:p.pos+2+width])
	}
	b.WriteRune(rune(r))
	p.pos += 2 + width
	return nil
}

// blockScalar reads a literal (|) or folded (>) block scalar whose header is at pos; n is
// the indentation of the node it belongs to. The header may carry a chomping indicator (-
// strips the final line breaks, + keeps them all, none keeps one) and an indentation
// indicator (the content's indentation relative to n; by default the first non-empty line
// sets it).
func (p *yamlParser) blockScalar(n int) (string, error) {
	folded := p.at(0) == '>'
	p.pos++
	chomp, explicit := byte(0), 0
	for i := 0; i < 2; i++ {
		switch c := p.at(0); {
		case (c == '-' || c == '+') && chomp == 0:
			chomp = c
			p.pos++
		case c >= '1' && c <= '9' && explicit == 0:
			explicit = int(c - '0')
			p.pos++
		}
	}
	if !p.atLineEnd() {
		return "", p.errorf("unexpected text after a block scalar header")
	}
	p.skipLine()
	indent := -1
	if explicit > 0 {
		indent = max(n, 0) + explicit
	}
	// Read the lines: nil for an empty one, else the text after the indentation.
	var lines []*string
	for !p.eof() {
		spaces := 0
		for p.at(spaces) == ' ' {
			spaces++
		}
		rest, _, _ := strings.Cut(p.src[p.pos+spaces:], "\n")
		if indent < 0 && rest != "" {
			if spaces <= n {
				break // no content: the scalar is empty
			}
			indent = spaces
		}
		switch {
		case rest == "" && (indent < 0 || spaces <= indent):
			lines = append(lines, nil)
		case spaces < indent || indent < 0:
			return finishBlockScalar(lines, folded, chomp), nil
		default:
			text := p.src[p.pos+indent : p.pos+spaces+len(rest)]
			lines = append(lines, &text)
		}
		p.pos += spaces + len(rest)
		if !p.eof() {
			p.newline()
		}
	}
	return finishBlockScalar(lines, folded, chomp), nil
}

// finishBlockScalar joins the lines of a block scalar: literal keeps every line break;
// folded turns a single break between two lines that do not start with a blank into a space
// and drops the first break before empty lines. Then the chomping indicator decides the
// final breaks.
func finishBlockScalar(lines []*string, folded bool, chomp byte) string {
	last := len(lines)
	for last > 0 && lines[last-1] == nil {
		last--
	}
	var b strings.Builder
	started, prevText, pending := false, false, 0
	for _, l := range lines[:last] {
		if l == nil {
			pending++
			continue
		}
		text := *l != "" && !isBlank((*l)[0]) // not a more-indented line
		switch {
		case !started:
			b.WriteString(strings.Repeat("\n", pending))
		case folded && prevText && text && pending == 0:
			b.WriteByte(' ')
		case folded && prevText && text:
			b.WriteString(strings.Repeat("\n", pending))
		default:
			b.WriteString(strings.Repeat("\n", pending+1))
		}
		started, prevText, pending = true, text, 0
		b.WriteString(*l)
	}
	switch {
	case chomp == '-':
	case chomp == '+':
		if last > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(strings.Repeat("\n", len(lines)-last))
	case last > 0:
		b.WriteByte('\n')
	}
	return b.String()
}

// yamlFloat is the float syntax YAML 1.1 resolves (kubectl's parser): "1.5", ".5", "1e3".
var yamlFloat = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)

// resolvePlain types a plain scalar as YAML 1.1 does (kubectl's parser): null, a boolean
// (y, yes, on, true and their opposites, in three cases), an integer (decimal, 0x, 0o, 0b,
// leading-zero octal, with _ separators), a float or ±.inf and .nan, or else the text.
func resolvePlain(s string) any {
	switch s {
	case "", "~", "null", "Null", "NULL":
		return nil
	case "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON":
		return true
	case "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF":
		return false
	case ".nan", ".NaN", ".NAN":
		return math.NaN()
	case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF":
		return math.Inf(1)
	case "-.inf", "-.Inf", "-.INF":
		return math.Inf(-1)
	}
	if strings.IndexByte("+-.0123456789", s[0]) < 0 {
		return s
	}
	digits := strings.ReplaceAll(s, "_", "")
	if i, err := strconv.ParseInt(digits, 0, 64); err == nil {
		return i
	}
	if u, err := strconv.ParseUint(digits, 0, 64); err == nil {
		return u
	}
	if yamlFloat.MatchString(digits) {
		if f, err := strconv.ParseFloat(digits, 64); err == nil {
			return f
		}
	}
	for _, prefix := range []string{"0b", "-0b", "+0b"} {
		if rest, ok := strings.CutPrefix(digits, prefix); ok {
			if i, err := strconv.ParseInt(rest, 2, 64); err == nil {
				if prefix == "-0b" {
					return -i
				}
				return i
			}
		}
	}
	return s
}

// value turns a node into the tree; budget bounds the nodes an alias-heavy file expands to.
func (n *yamlNode) value(budget *int) (any, error) {
	if *budget--; *budget < 0 {
		return nil, fmt.Errorf("yaml: the document expands to more than %d nodes", maxYAMLNodes)
	}
	switch n.kind {
	case mappingNode:
		out := make(map[string]any, len(n.keys))
		for i, k := range n.keys {
			v, err := n.vals[i].value(budget)
			if err != nil {
				return nil, err
			}
			out[k] = v
		}
		return out, nil
	case sequenceNode:
		out := make([]any, 0, len(n.items))
		for _, it := range n.items {
			v, err := it.value(budget)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	}
	if !n.plain {
		return n.text, nil
	}
	if resolvePlain(n.text) == nil {
		return nil, nil
	}
	return plain(n.text), nil
}
