package jsonpath

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// The parser of k8s.io/client-go util/jsonpath (parser.go): text with {actions} in braces,
// an action a list of nodes. Its messages are the real parser's.

// nodeType names the kind of a node.
type nodeType int

const (
	nodeText nodeType = iota
	nodeList
	nodeField
	nodeArray
	nodeFilter
	nodeInt
	nodeFloat
	nodeBool
	nodeWildcard
	nodeRecursive
	nodeUnion
	nodeIdentifier
)

// node is one element of a parsed template; only the members of its type are set.
type node struct {
	typ    nodeType
	text   string  // nodeText: the text; nodeField: the name; nodeIdentifier: the name
	nodes  []*node // nodeList: its nodes
	params [3]param
	left   *node // nodeFilter: a list
	right  *node // nodeFilter: a list
	op     string
	i      int
	f      float64
	b      bool
	union  []*node // nodeUnion: lists
}

// param is one bound of a slice ([start:end:step]) mirroring ParamsEntry.
type param struct {
	value          int
	known, derived bool
}

const eof = -1

// The patterns compile on first use, not at every process start.
var (
	errSyntax      = errors.New("invalid syntax")
	dictKey        = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^'([^']*)'$`) })
	sliceOperator  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(-?[\d]*)(:-?[\d]*)?(:-?[\d]*)?$`) })
	filterOperator = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([^!<>=]+)([!<>=]+)(.+?)$`) })
)

type parser struct {
	root              *node
	input             string
	pos, start, width int
}

// parse parses a whole template.
func parse(text string) (*node, error) {
	p := &parser{input: text, root: &node{typ: nodeList}}
	if err := p.parseText(p.root); err != nil {
		return nil, err
	}
	return p.root, nil
}

// parseAction parses text as the inside of one action and returns its list.
func parseAction(text string) (*node, error) {
	root, err := parse("{" + text + "}")
	if err != nil {
		return nil, err
	}
	return root.nodes[0], nil
}

func (p *parser) consume() string {
	v := p.input[p.start:p.pos]
	p.start = p.pos
	return v
}

func (p *parser) next() rune {
	if p.pos >= len(p.input) {
		p.width = 0
		return eof
	}
	r, w := utf8.DecodeRuneInString(p.input[p.pos:])
	p.width = w
	p.pos += w
	return r
}

func (p *parser) peek() rune {
	r := p.next()
	p.backup()
	return r
}

func (p *parser) backup() { p.pos -= p.width }

func (p *parser) parseText(cur *node) error {
	for {
		if strings.HasPrefix(p.input[p.pos:], "{") {
			if p.pos > p.start {
				cur.nodes = append(cur.nodes, &node{typ: nodeText, text: p.consume()})
			}
			p.pos++
			p.consume()
			list := &node{typ: nodeList}
			cur.nodes = append(cur.nodes, list)
			return p.parseInsideAction(list)
		}
		if p.next() == eof {
			break
		}
	}
	if p.pos > p.start {
		cur.nodes = append(cur.nodes, &node{typ: nodeText, text: p.consume()})
	}
	return nil
}

func (p *parser) parseInsideAction(cur *node) error {
	rest := p.input[p.pos:]
	switch {
	case strings.HasPrefix(rest, "}"):
		p.pos++
		p.consume()
		return p.parseText(p.root)
	case strings.HasPrefix(rest, "[?("):
		return p.parseFilter(cur)
	case strings.HasPrefix(rest, ".."):
		return p.parseRecursive(cur)
	}
	switch r := p.next(); {
	case r == eof || r == '\r' || r == '\n':
		return errors.New("unclosed action")
	case r == ' ', r == '@', r == '$':
		p.consume()
	case r == '[':
		return p.parseArray(cur)
	case r == '"' || r == '\'':
		return p.parseQuote(cur, r)
	case r == '.':
		return p.parseField(cur)
	case r == '+' || r == '-' || unicode.IsDigit(r):
		p.backup()
		return p.parseNumber(cur)
	case isAlphaNumeric(r):
		p.backup()
		return p.parseIdentifier(cur)
	default:
		return fmt.Errorf("unrecognized character in action: %#U", r)
	}
	return p.parseInsideAction(cur)
}

func (p *parser) parseIdentifier(cur *node) error {
	for {
		if r := p.next(); isTerminator(r) {
			p.backup()
			break
		}
	}
	v := p.consume()
	if v == "true" || v == "false" {
		cur.nodes = append(cur.nodes, &node{typ: nodeBool, b: v == "true"})
	} else {
		cur.nodes = append(cur.nodes, &node{typ: nodeIdentifier, text: v})
	}
	return p.parseInsideAction(cur)
}

func (p *parser) parseRecursive(cur *node) error {
	if n := len(cur.nodes); n > 0 && cur.nodes[n-1].typ == nodeRecursive {
		return errors.New("invalid multiple recursive descent")
	}
	p.pos += 2
	p.consume()
	cur.nodes = append(cur.nodes, &node{typ: nodeRecursive})
	if isAlphaNumeric(p.peek()) {
		return p.parseField(cur)
	}
	return p.parseInsideAction(cur)
}

func (p *parser) parseNumber(cur *node) error {
	if r := p.peek(); r == '+' || r == '-' {
		p.next()
	}
	for {
		if r := p.next(); r != '.' && !unicode.IsDigit(r) {
			p.backup()
			break
		}
	}
	v := p.consume()
	if i, err := strconv.Atoi(v); err == nil {
		cur.nodes = append(cur.nodes, &node{typ: nodeInt, i: i})
		return p.parseInsideAction(cur)
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		cur.nodes = append(cur.nodes, &node{typ: nodeFloat, f: f})
		return p.parseInsideAction(cur)
	}
	return fmt.Errorf("cannot parse number %s", v)
}

func (p *parser) parseArray(cur *node) error {
loop:
	for {
		switch p.next() {
		case eof, '\n':
			return errors.New("unterminated array")
		case ']':
			break loop
		}
	}
	text := p.consume()
	text = text[1 : len(text)-1]
	if text == "*" {
		text = ":"
	}
	if parts := strings.Split(text, ","); len(parts) > 1 {
		u := &node{typ: nodeUnion}
		for _, part := range parts {
			l, err := parseAction("[" + strings.Trim(part, " ") + "]")
			if err != nil {
				return err
			}
			u.union = append(u.union, l)
		}
		cur.nodes = append(cur.nodes, u)
		return p.parseInsideAction(cur)
	}
	if m := dictKey().FindStringSubmatch(text); m != nil {
		l, err := parseAction("." + m[1])
		if err != nil {
			return err
		}
		cur.nodes = append(cur.nodes, l.nodes...)
		return p.parseInsideAction(cur)
	}
	m := sliceOperator().FindStringSubmatch(text)
	if m == nil {
		return fmt.Errorf("invalid array index %s", text)
	}
	var params [3]param
	for i := 0; i < 3; i++ {
		v := m[i+1]
		switch {
		case v != "":
			if i > 0 {
				v = v[1:]
			}
			if i > 0 && v == "" {
				params[i].known = false
				continue
			}
			n, err := strconv.Atoi(v)
			if err != nil {
				return fmt.Errorf("array index %s is not a number", v)
			}
			params[i] = param{value: n, known: true}
		case i == 1:
			params[i] = param{value: params[0].value + 1, known: true, derived: true}
		}
	}
	cur.nodes = append(cur.nodes, &node{typ: nodeArray, params: params})
	return p.parseInsideAction(cur)
}

func (p *parser) parseFilter(cur *node) error {
	p.pos += len("[?(")
	p.consume()
	begin, end := false, false
	var pair rune
loop:
	for {
		r := p.next()
		switch r {
		case eof, '\n':
			return errors.New("unterminated filter")
		case '"', '\'':
			if !begin {
				begin, pair = true, r
				continue
			}
			if p.input[p.pos-2] != '\\' && r == pair {
				end = true
			}
		case ')':
			if begin == end {
				break loop
			}
		}
	}
	if p.next() != ']' {
		return errors.New("unclosed array expect ]")
	}
	text := p.consume()
	text = text[:len(text)-2]
	f := &node{typ: nodeFilter}
	if m := filterOperator().FindStringSubmatch(text); m == nil {
		l, err := parseAction(text)
		if err != nil {
			return err
		}
		f.left, f.right, f.op = l, &node{typ: nodeList}, "exists"
	} else {
		l, err := parseAction(m[1])
		if err != nil {
			return err
		}
		r, err := parseAction(m[3])
		if err != nil {
			return err
		}
		f.left, f.right, f.op = l, r, m[2]
	}
	cur.nodes = append(cur.nodes, f)
	return p.parseInsideAction(cur)
}

func (p *parser) parseQuote(cur *node, end rune) error {
loop:
	for {
		switch p.next() {
		case eof, '\n':
			return errors.New("unterminated quoted string")
		case end:
			if p.input[p.pos-2] != '\\' {
				break loop
			}
		}
	}
	v := p.consume()
	s, err := unquoteExtend(v)
	if err != nil {
		return fmt.Errorf("unquote string %s error %v", v, err)
	}
	cur.nodes = append(cur.nodes, &node{typ: nodeText, text: s})
	return p.parseInsideAction(cur)
}

func (p *parser) parseField(cur *node) error {
	p.consume()
	for p.advance() {
	}
	v := p.consume()
	if v == "*" {
		cur.nodes = append(cur.nodes, &node{typ: nodeWildcard})
	} else {
		cur.nodes = append(cur.nodes, &node{typ: nodeField, text: strings.ReplaceAll(v, `\`, "")})
	}
	return p.parseInsideAction(cur)
}

// advance reads up to the next unescaped terminator.
func (p *parser) advance() bool {
	r := p.next()
	if r == '\\' {
		p.next()
	} else if isTerminator(r) {
		p.backup()
		return false
	}
	return true
}

func isTerminator(r rune) bool {
	switch r {
	case ' ', '\t', '\r', '\n', eof, '.', ',', '[', ']', '$', '@', '{', '}':
		return true
	}
	return false
}

func isAlphaNumeric(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// unquoteExtend mirrors UnquoteExtend: strconv.Unquote that also takes single quotes.
func unquoteExtend(s string) (string, error) {
	n := len(s)
	if n < 2 || s[0] != s[n-1] || (s[0] != '"' && s[0] != '\'') {
		return "", errSyntax
	}
	quote := s[0]
	s = s[1 : n-1]
	if !strings.ContainsRune(s, '\\') && !strings.ContainsRune(s, rune(quote)) {
		return s, nil
	}
	var b strings.Builder
	for len(s) > 0 {
		c, multibyte, rest, err := strconv.UnquoteChar(s, quote)
		if err != nil {
			return "", err
		}
		s = rest
		if c < utf8.RuneSelf || !multibyte {
			b.WriteByte(byte(c))
		} else {
			b.WriteRune(c)
		}
	}
	return b.String(), nil
}
