package labels

import (
	"fmt"
	"strings"
)

// keyPath is the field path the real server prints for a bad key met while parsing. It
// parses without a path, and a nil path prints as "<nil>"; we copy that so the 400 texts of
// the simulated server match the real ones (e.g. `<nil>: Invalid value: "a@b": ...`).
const keyPath = "<nil>"

// Parse mirrors labels.Parse in k8s.io/apimachinery/pkg/labels. It turns the text of a
// ?labelSelector= into a Selector; see the package documentation for the grammar.
func Parse(selector string) (Selector, error) {
	p := parser{lx: lexer{s: selector}}
	p.advance() // load the first lookahead token
	reqs, err := p.parse()
	if err != nil {
		return nil, err
	}
	if len(reqs) == 0 {
		return Everything(), nil
	}
	sortByKey(reqs)
	return internalSelector(reqs), nil
}

// parser is a recursive-descent parser with one token of lookahead. The error texts are the
// real server's, so each method documents which input produces which text.
type parser struct {
	lx  lexer
	cur token // the lookahead: the next token not yet consumed
}

// advance consumes the lookahead and returns it.
func (p *parser) advance() token {
	t := p.cur
	p.cur = p.lx.next()
	return t
}

func startsRequirement(t token) bool { return t.kind == tokIdent || t.kind == tokBang }

// parse reads: [ requirement { "," requirement } ].
func (p *parser) parse() ([]Requirement, error) {
	if p.cur.kind == tokEnd {
		return nil, nil
	}
	if !startsRequirement(p.cur) {
		return nil, fmt.Errorf("found '%s', expected: !, identifier, or 'end of string'", p.cur.text)
	}
	var reqs []Requirement
	for {
		r, err := p.parseRequirement()
		if err != nil {
			return nil, fmt.Errorf("unable to parse requirement: %w", err)
		}
		reqs = append(reqs, *r)
		switch t := p.advance(); t.kind {
		case tokEnd:
			return reqs, nil
		case tokComma:
			if !startsRequirement(p.cur) { // "a,", "a,,b", "a,=b"
				return nil, fmt.Errorf("found '%s', expected: identifier after ','", p.cur.text)
			}
		default: // "a=b c", "!a=b"
			return nil, fmt.Errorf("found '%s', expected: ',' or 'end of string'", t.text)
		}
	}
}

// parseRequirement reads one of: "!" key | key | key op value | key (in|notin) "(" values ")".
func (p *parser) parseRequirement() (*Requirement, error) {
	key, op, err := p.parseKey()
	if err != nil {
		return nil, err
	}
	if op == Exists || op == DoesNotExist {
		return NewRequirement(key, op, nil)
	}
	if op, err = p.parseOperator(); err != nil {
		return nil, err
	}
	var vals []string
	if op == In || op == NotIn {
		vals, err = p.parseSet()
	} else {
		vals, err = p.parseSingleValue()
	}
	if err != nil {
		return nil, err
	}
	return NewRequirement(key, op, vals)
}

// parseKey reads an optional "!" and a key, checks the key, and infers Exists when the key
// stands alone. It returns op "" when an operator is still to come.
func (p *parser) parseKey() (key string, op Operator, err error) {
	t := p.advance()
	if t.kind == tokBang {
		op = DoesNotExist
		t = p.advance()
	}
	if t.kind != tokIdent { // "!=a", "!!a"
		return "", "", fmt.Errorf("found '%s', expected: identifier", t.text)
	}
	if err := validateKey(t.text, keyPath); err != nil {
		return "", "", err
	}
	if op == "" && (p.cur.kind == tokEnd || p.cur.kind == tokComma) {
		op = Exists
	}
	return t.text, op, nil
}

// operatorList is what the error for "a b" says was expected instead of 'b'.
var operatorList = func() string {
	names := make([]string, len(binaryOperators))
	for i, op := range binaryOperators {
		names[i] = string(op)
	}
	return strings.Join(names, ", ")
}()

func (p *parser) parseOperator() (Operator, error) {
	t := p.advance()
	switch t.kind {
	case tokEquals:
		return Equals, nil
	case tokDoubleEquals:
		return DoubleEquals, nil
	case tokNotEquals:
		return NotEquals, nil
	case tokGreater:
		return GreaterThan, nil
	case tokLess:
		return LessThan, nil
	case tokIdent:
		switch t.text {
		case "in":
			return In, nil
		case "notin":
			return NotIn, nil
		}
	}
	return "", fmt.Errorf("found '%s', expected: %s", t.text, operatorList)
}

// parseSingleValue reads the value after =, ==, !=, > or <. A missing value ("a=" or "a=,b")
// is the empty value.
func (p *parser) parseSingleValue() ([]string, error) {
	if p.cur.kind == tokEnd || p.cur.kind == tokComma {
		return []string{""}, nil
	}
	t := p.advance()
	if t.kind != tokIdent { // "a==="
		return nil, fmt.Errorf("found '%s', expected: identifier", t.text)
	}
	return []string{t.text}, nil
}

// parseSet reads "(" item { "," item } ")" where an item is a value or nothing; a missing item
// stands for the empty value, so "()" and "(,)" both mean {""} and "(a,)" means {"", a}.
// The result is sorted and deduplicated, as upstream's set is.
func (p *parser) parseSet() ([]string, error) {
	if t := p.advance(); t.kind != tokOpen { // "a in b"; the missing comma is upstream's
		return nil, fmt.Errorf("found '%s' expected: '('", t.text)
	}
	switch p.cur.kind {
	case tokClose:
		p.advance()
		return []string{""}, nil
	case tokIdent, tokComma:
	default: // "a in (", "a in (("
		return nil, fmt.Errorf("found '%s', expected: ',', ')' or identifier", p.cur.text)
	}
	var vals []string
	for {
		// One item.
		switch t := p.cur; t.kind {
		case tokIdent:
			p.advance()
			vals = append(vals, t.text)
			if p.cur.kind != tokComma && p.cur.kind != tokClose { // "a in (x y)", "a in (x"
				return nil, fmt.Errorf("found '%s', expected: ',' or ')'", p.cur.text)
			}
		case tokComma, tokClose:
			vals = append(vals, "")
		default: // "a in (x,=)", "a in (x,"
			p.advance()
			return nil, fmt.Errorf("found '%s', expected: ',', or identifier", t.text)
		}
		// The separator after it.
		if t := p.advance(); t.kind == tokClose {
			return sortedSet(vals), nil
		}
	}
}
