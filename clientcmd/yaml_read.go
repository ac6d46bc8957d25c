package clientcmd

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// This file (block structure), yaml_flow.go (flow collections, anchors, tags) and
// yaml_scalar.go (scalars) read the YAML kubeconfig files are written in, so that the module
// needs no YAML dependency. They read one document of YAML 1.1 as kubectl's parser does: block and flow collections (nested, over several lines), plain, single- and
// double-quoted scalars over several lines, literal (|) and folded (>) block scalars with
// chomping and indentation indicators, comments, anchors, aliases and merge keys (<<),
// the --- and ... markers, and the !!str, !!map and !!seq tags. Explicit keys ("? key"),
// other tags and a second document are refused with an error naming the line.
//
// The result is a tree of map[string]any, []any, string (a quoted or block scalar), plain (a
// plain scalar, typed only where it is used, as YAML 1.1 does) and nil.

// plain is a plain (unquoted) scalar other than null. Whether it means a string, a number or
// a boolean depends on where it is used: "true" is a boolean for insecure-skip-tls-verify and
// text for a token.
type plain string

type nodeKind int

const (
	scalarNode nodeKind = iota
	mappingNode
	sequenceNode
)

// yamlNode is one node of the document. Aliases point to their anchor's node.
type yamlNode struct {
	kind  nodeKind
	line  int
	text  string // scalarNode
	plain bool   // scalarNode: written without quotes
	keys  []string
	vals  []*yamlNode
	index map[string]int // position of each key in keys
	items []*yamlNode    // sequenceNode
}

// Bounds that keep hostile input cheap: nesting depth, and the nodes an expanded document
// may hold (aliases can multiply a small file).
const (
	maxYAMLDepth = 200
	maxYAMLNodes = 1 << 20
)

type yamlParser struct {
	src     string
	pos     int
	line    int // 1-based line of pos
	lineBeg int // offset of the start of pos's line
	anchors map[string]*yamlNode
	depth   int
}

// parseYAML reads one YAML document into the tree described above; nil for an empty one.
func parseYAML(data []byte) (any, error) {
	if !utf8.Valid(data) {
		return nil, fmt.Errorf("yaml: the data is not valid UTF-8")
	}
	src := strings.TrimPrefix(string(data), "\uFEFF")
	src = strings.ReplaceAll(strings.ReplaceAll(src, "\r\n", "\n"), "\r", "\n")
	p := &yamlParser{src: src, line: 1, anchors: map[string]*yamlNode{}}
	root, err := p.document()
	if err != nil {
		return nil, err
	}
	budget := maxYAMLNodes
	return root.value(&budget)
}

func (p *yamlParser) errorf(format string, args ...any) error {
	return fmt.Errorf("yaml: line %d: %s", p.line, fmt.Sprintf(format, args...))
}

func (p *yamlParser) eof() bool { return p.pos >= len(p.src) }

// at returns the byte i bytes ahead, or 0 past the end.
func (p *yamlParser) at(i int) byte {
	if p.pos+i < len(p.src) {
		return p.src[p.pos+i]
	}
	return 0
}

func (p *yamlParser) col() int { return p.pos - p.lineBeg }

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// isBreakOrEnd is true for a line break and for the end of the input (0).
func isBreakOrEnd(c byte) bool { return c == '\n' || c == 0 }

func isSpaceOrEnd(c byte) bool { return isBlank(c) || isBreakOrEnd(c) }

// newline consumes the line break at pos.
func (p *yamlParser) newline() {
	p.pos++
	p.line++
	p.lineBeg = p.pos
}

func (p *yamlParser) skipBlanks() {
	for isBlank(p.at(0)) {
		p.pos++
	}
}

// atLineEnd skips blanks and reports whether only a comment or nothing is left on the line.
func (p *yamlParser) atLineEnd() bool {
	p.skipBlanks()
	c := p.at(0)
	return isBreakOrEnd(c) || (c == '#' && (p.pos == p.lineBeg || isBlank(p.src[p.pos-1])))
}

// finishLine ends the line of a value just read: only blanks and a comment may follow. A
// value that already ended its lines (a block collection or block scalar) leaves pos at the
// start of a line, and nothing is left to do.
func (p *yamlParser) finishLine(what string) error {
	if p.pos == p.lineBeg || p.eof() {
		return nil
	}
	if !p.atLineEnd() {
		rest, _, _ := strings.Cut(p.src[p.pos:], "\n")
		if strings.HasPrefix(rest, ":") {
			return p.errorf("mapping values are not allowed in this context")
		}
		return p.errorf("unexpected text after %s: %q", what, rest)
	}
	p.skipLine()
	return nil
}

// nextContent moves from the start of a line past blank and comment-only lines to the
// first character of the next content line and returns its indentation; ok is false at
// the end of the input. The caller puts pos back to p.lineBeg when the line is not its own.
func (p *yamlParser) nextContent() (indent int, ok bool, err error) {
	for !p.eof() {
		for p.at(0) == ' ' {
			p.pos++
		}
		indent = p.col()
		for isBlank(p.at(0)) {
			p.pos++
		}
		c := p.at(0)
		switch {
		case c == '#' || c == '\n':
			p.skipLine()
		case c == 0:
			return 0, false, nil
		case p.col() != indent:
			return 0, false, p.errorf("tabs are not allowed in indentation")
		default:
			return indent, true, nil
		}
	}
	return 0, false, nil
}

// unread puts pos back to the start of the content line nextContent found (ok), for the
// caller's caller to read; at the end of the input there is nothing to put back.
func (p *yamlParser) unread(ok bool) {
	if ok {
		p.pos = p.lineBeg
	}
}

// atDocumentMarker reports whether pos starts a line with --- or ....
func (p *yamlParser) atDocumentMarker() bool {
	if p.col() != 0 {
		return false
	}
	s := p.src[p.pos:]
	return (strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...")) && (len(s) == 3 || isSpaceOrEnd(s[3]))
}

func (p *yamlParser) atSeqEntry() bool { return p.at(0) == '-' && isSpaceOrEnd(p.at(1)) }

// document reads directives, the optional ---, one node, and the optional ...; a second
// document with content is an error.
func (p *yamlParser) document() (*yamlNode, error) {
	var root *yamlNode
	started, ended := false, false
	for {
		_, ok, err := p.nextContent()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		switch {
		case p.col() == 0 && p.at(0) == '%' && !started:
			p.skipLine() // %YAML and %TAG change nothing this reader does
			continue
		case root != nil && p.col() > 0 && !ended:
			return nil, p.errorf("unexpected indentation")
		case root != nil && p.atDocumentMarker() && p.at(0) == '-' && !ended:
			// A --- after the document is fine when nothing follows it.
			line := p.line
			p.skipLine()
			if _, more, err := p.nextContent(); err != nil || more {
				return nil, fmt.Errorf("yaml: line %d: only one document is supported", line)
			}
			continue
		case ended:
			return nil, p.errorf("only one document is supported")
		case p.atDocumentMarker() && p.at(0) == '.':
			p.pos += 3
			ended = true
			if err := p.finishLine("..."); err != nil {
				return nil, err
			}
			continue
		case p.atDocumentMarker():
			started = true
			p.pos += 3
			if p.atLineEnd() {
				if err := p.finishLine("---"); err != nil {
					return nil, err
				}
				continue
			}
			root, err = p.blockValue(-1, false, false)
		default:
			started = true
			p.pos = p.lineBeg
			root, err = p.blockValue(-1, false, true)
		}
		if err != nil {
			return nil, err
		}
		if err := p.finishLine("the document"); err != nil {
			return nil, err
		}
	}
	if root == nil {
		root = &yamlNode{kind: scalarNode, plain: true, line: p.line}
	}
	return root, nil
}

// skipLine moves past the rest of the line and its line break.
func (p *yamlParser) skipLine() {
	for !isBreakOrEnd(p.at(0)) {
		p.pos++
	}
	if !p.eof() {
		p.newline()
	}
}

// blockValue reads a node in block context: the value after "key:" or "-", or a document.
// n is the parent's indentation (-1 for a document), seqAtN lets a sequence sit at n (a
// mapping's value), and compact allows a mapping or sequence to start on this line (after
// "- ", or a document's first line).
func (p *yamlParser) blockValue(n int, seqAtN, compact bool) (*yamlNode, error) {
	if p.depth++; p.depth > maxYAMLDepth {
		return nil, p.errorf("nesting deeper than %d levels", maxYAMLDepth)
	}
	defer func() { p.depth-- }()
	if p.pos == p.lineBeg {
		// A document starts at a line's beginning: the first line may hold a collection.
		if _, ok, err := p.nextContent(); err != nil || !ok {
			return &yamlNode{kind: scalarNode, plain: true, line: p.line}, err
		}
	}
	p.skipBlanks()
	anchor, tag, err := p.properties()
	if err != nil {
		return nil, err
	}
	var node *yamlNode
	if p.atLineEnd() {
		node, err = p.blockValueBelow(n, seqAtN, tag != "")
	} else {
		node, err = p.blockValueHere(n, compact && anchor == "" && tag == "")
	}
	if err != nil {
		return nil, err
	}
	return p.applyProperties(node, anchor, tag)
}

// blockValueBelow reads a value that starts on a later line, or is empty.
func (p *yamlParser) blockValueBelow(n int, seqAtN, tagged bool) (*yamlNode, error) {
	line := p.line
	if err := p.finishLine("the value"); err != nil {
		return nil, err
	}
	indent, ok, err := p.nextContent()
	if err != nil {
		return nil, err
	}
	switch {
	case !ok || p.atDocumentMarker():
	case p.atSeqEntry() && (indent > n || (indent == n && seqAtN)):
		return p.blockSequence(indent)
	case indent > n && p.looksLikeKey():
		return p.blockMapping(indent)
	case indent > n:
		return p.flowOrScalar(n)
	}
	p.unread(ok)
	if tagged {
		return &yamlNode{kind: scalarNode, line: line}, nil // "!!str" alone is ""
	}
	return &yamlNode{kind: scalarNode, plain: true, line: line}, nil
}

// blockValueHere reads a value that starts at pos, on the line of its key or dash.
func (p *yamlParser) blockValueHere(n int, compact bool) (*yamlNode, error) {
	if compact {
		switch {
		case p.atSeqEntry():
			return p.blockSequence(p.col())
		case p.looksLikeKey():
			return p.blockMapping(p.col())
		}
	}
	if p.atSeqEntry() {
		return nil, p.errorf("block sequence entries are not allowed in this context")
	}
	return p.flowOrScalar(n)
}

// looksLikeKey reports whether the line at pos is "key: …" (or "key:"), without moving.
func (p *yamlParser) looksLikeKey() bool {
	s, _, _ := strings.Cut(p.src[p.pos:], "\n")
	if s == "" {
		return false
	}
	switch s[0] {
	case '"', '\'':
		save, saveLine, saveBeg := p.pos, p.line, p.lineBeg
		_, err := p.quoted()
		ok := err == nil && p.line == saveLine && p.atKeyColon()
		p.pos, p.line, p.lineBeg = save, saveLine, saveBeg
		return ok
	case '[', '{', '#':
		return false
	}
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '#' && i > 0 && isBlank(s[i-1]):
			return false
		case s[i] == ':' && (i+1 == len(s) || isBlank(s[i+1])):
			return true
		}
	}
	return false
}

// atKeyColon skips blanks and reports whether a key's ":" follows.
func (p *yamlParser) atKeyColon() bool {
	p.skipBlanks()
	return p.at(0) == ':' && isSpaceOrEnd(p.at(1))
}

// mappingKey reads a block mapping key and its ":"; isPlain tells a merge key "<<" from a
// quoted "<<".
func (p *yamlParser) mappingKey() (key string, isPlain bool, err error) {
	switch c := p.at(0); c {
	case '"', '\'':
		line := p.line
		if key, err = p.quoted(); err != nil {
			return "", false, err
		}
		if p.line != line || !p.atKeyColon() {
			return "", false, p.errorf("expected \"key: value\" after a quoted key")
		}
	case '?':
		return "", false, p.errorf("explicit keys (\"? key\") are not supported")
	case '&', '*', '!', '[', '{':
		return "", false, p.errorf("keys must be plain or quoted scalars, without anchors, aliases or tags")
	default:
		start := p.pos
		for !(p.at(0) == ':' && isSpaceOrEnd(p.at(1))) {
			if isBreakOrEnd(p.at(0)) {
				return "", false, p.errorf("expected \"key: value\", got %q", p.src[start:p.pos])
			}
			p.pos++
		}
		key, isPlain = strings.TrimRight(p.src[start:p.pos], " \t"), true
	}
	p.pos++ // the ':'
	return key, isPlain, nil
}

// blockMapping reads "key: value" lines at indent.
func (p *yamlParser) blockMapping(indent int) (*yamlNode, error) {
	m := &yamlNode{kind: mappingNode, line: p.line}
	for {
		if p.atSeqEntry() {
			return nil, p.errorf("a sequence item where a mapping key was expected")
		}
		key, isPlain, err := p.mappingKey()
		if err != nil {
			return nil, err
		}
		v, err := p.blockValue(indent, true, false)
		if err != nil {
			return nil, err
		}
		if isPlain && key == "<<" {
			if err := m.merge(v); err != nil {
				return nil, err
			}
		} else {
			m.set(key, v)
		}
		if err := p.finishLine("the value"); err != nil {
			return nil, err
		}
		next, ok, err := p.nextContent()
		if err != nil {
			return nil, err
		}
		if !ok || next < indent || p.atDocumentMarker() {
			p.unread(ok)
			break
		}
		if next > indent {
			return nil, p.errorf("unexpected indentation")
		}
	}
	return m, nil
}

// set gives key the value v. A key given twice keeps its place and takes the later value,
// as kubectl's parser does.
func (m *yamlNode) set(key string, v *yamlNode) {
	if i, ok := m.index[key]; ok {
		m.vals[i] = v
		return
	}
	if m.index == nil {
		m.index = map[string]int{}
	}
	m.index[key] = len(m.keys)
	m.keys, m.vals = append(m.keys, key), append(m.vals, v)
}

// merge applies a merge key (<<: *a or <<: [*a, *b]) where it stands, as kubectl's parser
// does: the merged keys replace those before it and later keys replace them; of a list of
// mappings, the first has the last word.
func (m *yamlNode) merge(src *yamlNode) error {
	flat := []*yamlNode{src}
	if src.kind == sequenceNode {
		flat = src.items
	}
	for i := len(flat) - 1; i >= 0; i-- {
		s := flat[i]
		if s.kind != mappingNode {
			return fmt.Errorf("yaml: line %d: a merge key (<<) takes a mapping or a list of mappings", s.line)
		}
		for j, k := range s.keys {
			m.set(k, s.vals[j])
		}
	}
	return nil
}

// blockSequence reads "- item" lines at indent.
func (p *yamlParser) blockSequence(indent int) (*yamlNode, error) {
	s := &yamlNode{kind: sequenceNode, line: p.line}
	for {
		p.pos++ // the '-'
		v, err := p.blockValue(indent, false, true)
		if err != nil {
			return nil, err
		}
		s.items = append(s.items, v)
		if err := p.finishLine("the item"); err != nil {
			return nil, err
		}
		next, ok, err := p.nextContent()
		if err != nil {
			return nil, err
		}
		if !ok || next < indent || p.atDocumentMarker() || (next == indent && !p.atSeqEntry()) {
			p.unread(ok)
			return s, nil
		}
		if next > indent {
			return nil, p.errorf("unexpected indentation")
		}
	}
}
