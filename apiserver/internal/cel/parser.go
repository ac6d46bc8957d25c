package cel

import (
	"fmt"
)

// Limits cel-go's parser applies by default; Kubernetes keeps them.
const (
	maxRecursionDepth = 250
	maxCodePoints     = 100000
)

// parser is a recursive-descent parser for cel-spec's grammar (CEL.g4). It builds Expr
// nodes, expands macros as it goes and records each node's source offset for errors.
type parser struct {
	src     string
	lex     lexer
	tok     token
	nextID  int64
	offsets map[int64]int
	errs    *Errors
	depth   int
	macros  bool
	// startSet is what a missing expression is reported against: ANTLR lists the tokens
	// its current decision accepts, which depends on where the expression was expected.
	startSet string
	// record keeps the names of the macros expanded, in order, in expanded (for a trace).
	record   bool
	expanded []string
}

// bailout unwinds the parser after the first syntax error.
type bailout struct{}

// parseRecording parses src into an expression, expanding macros or not, or returns the
// syntax errors found. When record is set it also returns the macros it expanded, in
// order (for a trace).
func parseRecording(src string, macros, record bool) (e *Expr, offsets map[int64]int, errs *Errors, expanded []string) {
	p := &parser{src: src, lex: lexer{src: src}, offsets: map[int64]int{}, errs: newErrors(src), macros: macros, record: record}
	if n := len([]rune(src)); n > maxCodePoints {
		p.errs.add(0, fmt.Sprintf("expression code point size exceeds limit: size: %d, limit %d", n, maxCodePoints))
		return nil, nil, p.errs, nil
	}
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(bailout); !ok {
					panic(r)
				}
				e = nil
			}
		}()
		p.advance()
		e = p.expr()
		if p.tok.kind != tEOF {
			p.syntax(p.tok.pos, fmt.Sprintf("extraneous input %s expecting <EOF>", quoteTok(p.tok)))
		}
	}()
	if len(p.errs.list) > 0 {
		return nil, nil, p.errs, nil
	}
	return e, p.offsets, nil, p.expanded
}

func quoteTok(t token) string {
	if t.kind == tEOF {
		return "'<EOF>'"
	}
	return "'" + t.text + "'"
}

func (p *parser) advance() {
	p.tok = p.lex.next()
	if p.tok.kind == tError {
		p.syntax(p.tok.pos, fmt.Sprintf("token recognition error at: '%s'", p.tok.text))
	}
}

// syntax records a syntax error and abandons the parse.
func (p *parser) syntax(pos int, msg string) {
	p.errs.add(pos, "Syntax error: "+msg)
	panic(bailout{})
}

// exprStart is the set ANTLR lists when an expression was expected; in an argument list
// ')' may also come, and in an index '?'.
const (
	exprStart             = "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}"
	exprStartWithRParen   = "{'[', '{', '(', ')', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}"
	exprStartWithQuestion = "{'[', '{', '(', '.', '-', '!', '?', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}"
)

func (p *parser) expect(k tokKind, text string) token {
	t := p.tok
	if t.kind != k {
		if (k == tRParen || k == tRBracket) && followsCloser(t.kind) {
			// ANTLR's single-token insertion: what comes next could follow the closer.
			p.syntax(t.pos, fmt.Sprintf("missing '%s' at %s", text, quoteTok(t)))
		}
		p.syntax(t.pos, fmt.Sprintf("mismatched input %s expecting '%s'", quoteTok(t), text))
	}
	p.advance()
	return t
}

// expectCloser expects the end of a list, map or struct literal, whose loop could also go
// on with a comma.
func (p *parser) expectCloser(k tokKind, text string) {
	if p.tok.kind != k {
		p.syntax(p.tok.pos, fmt.Sprintf("mismatched input %s expecting {'%s', ','}", quoteTok(p.tok), text))
	}
	p.advance()
}

// followsCloser reports whether a token may come right after ')' or ']'.
func followsCloser(k tokKind) bool {
	switch k {
	case tEOF, tEq, tNe, tIn, tLt, tLe, tGe, tGt, tAnd, tOr, tLBracket, tRBracket, tRBrace, tRParen,
		tDot, tComma, tMinus, tQuestion, tColon, tPlus, tStar, tSlash, tPercent:
		return true
	}
	return false
}

func (p *parser) id(pos int) int64 {
	p.nextID++
	p.offsets[p.nextID] = pos
	return p.nextID
}

func (p *parser) enter(pos int) {
	p.depth++
	if p.depth > maxRecursionDepth {
		p.errs.add(pos, fmt.Sprintf("expression recursion limit exceeded: %d", maxRecursionDepth))
		panic(bailout{})
	}
}

func (p *parser) leave() { p.depth-- }

func (p *parser) call(pos int, fn string, args ...*Expr) *Expr {
	return &Expr{ID: p.id(pos), Kind: eCall, Name: fn, Args: args}
}

// expr = conditionalOr ["?" conditionalOr ":" expr]
func (p *parser) expr() *Expr {
	p.enter(p.tok.pos)
	defer p.leave()
	e := p.or()
	if p.tok.kind != tQuestion {
		return e
	}
	q := p.tok.pos
	p.advance()
	a := p.or()
	p.expect(tColon, ":")
	b := p.expr()
	return p.call(q, opConditional, e, a, b)
}

// or and and build balanced trees over a chain of operands, as cel-go's balancer does, so
// that deep chains do not make deep trees.
func (p *parser) or() *Expr {
	operands := []*Expr{p.and()}
	var ops []int
	for p.tok.kind == tOr {
		ops = append(ops, p.tok.pos)
		p.advance()
		operands = append(operands, p.and())
	}
	return p.balance(opLogicalOr, operands, ops, 0, len(ops)-1)
}

func (p *parser) and() *Expr {
	operands := []*Expr{p.relation()}
	var ops []int
	for p.tok.kind == tAnd {
		ops = append(ops, p.tok.pos)
		p.advance()
		operands = append(operands, p.relation())
	}
	return p.balance(opLogicalAnd, operands, ops, 0, len(ops)-1)
}

func (p *parser) balance(fn string, operands []*Expr, ops []int, lo, hi int) *Expr {
	if len(ops) == 0 {
		return operands[0]
	}
	if lo > hi {
		return operands[lo]
	}
	mid := (lo + hi + 1) / 2
	left := p.balance(fn, operands, ops, lo, mid-1)
	right := p.balance(fn, operands, ops, mid+1, hi)
	if mid-1 < lo {
		left = operands[lo]
	}
	if mid+1 > hi {
		right = operands[hi+1]
	}
	return p.call(ops[mid], fn, left, right)
}

var relOps = map[tokKind]string{
	tLt: opLess, tLe: opLessEquals, tGt: opGreater, tGe: opGreaterEquals,
	tEq: opEquals, tNe: opNotEquals, tIn: opIn,
}

func (p *parser) relation() *Expr {
	e := p.addition()
	for {
		fn, ok := relOps[p.tok.kind]
		if !ok {
			return e
		}
		pos := p.tok.pos
		p.enter(pos)
		p.advance()
		e = p.call(pos, fn, e, p.addition())
		p.leave()
	}
}

func (p *parser) addition() *Expr {
	e := p.multiplication()
	for p.tok.kind == tPlus || p.tok.kind == tMinus {
		fn := opAdd
		if p.tok.kind == tMinus {
			fn = opSubtract
		}
		pos := p.tok.pos
		p.enter(pos)
		p.advance()
		e = p.call(pos, fn, e, p.multiplication())
		p.leave()
	}
	return e
}

func (p *parser) multiplication() *Expr {
	e := p.unary()
	for p.tok.kind == tStar || p.tok.kind == tSlash || p.tok.kind == tPercent {
		fn := map[tokKind]string{tStar: opMultiply, tSlash: opDivide, tPercent: opModulo}[p.tok.kind]
		pos := p.tok.pos
		p.enter(pos)
		p.advance()
		e = p.call(pos, fn, e, p.unary())
		p.leave()
	}
	return e
}

// unary handles runs of ! and -. A single - directly before a numeric literal is the
// literal's sign (the grammar's `literal: sign=MINUS? NUM_INT`), so -9223372036854775808
// is an int; an even run of operators cancels out, as in cel-go.
func (p *parser) unary() *Expr {
	switch p.tok.kind {
	case tNot:
		pos := p.tok.pos
		n := 0
		for p.tok.kind == tNot {
			n++
			p.advance()
		}
		p.operandAfterUnary()
		m := p.member()
		if n%2 == 0 {
			return m
		}
		return p.call(pos, opLogicalNot, m)
	case tMinus:
		pos := p.tok.pos
		n := 0
		save := p.lex
		p.advance()
		if p.tok.kind == tInt || p.tok.kind == tFloat {
			// "-1": a signed literal; a member after it applies to the literal.
			p.lex = save
			p.tok = token{kind: tMinus, pos: pos, text: "-"}
			return p.member()
		}
		n = 1
		for p.tok.kind == tMinus {
			n++
			p.advance()
		}
		p.operandAfterUnary()
		m := p.member()
		if n%2 == 0 {
			return m
		}
		return p.call(pos, opNegate, m)
	}
	return p.member()
}

// operandAfterUnary reports a missing operand after ! or - as ANTLR does.
func (p *parser) operandAfterUnary() {
	switch p.tok.kind {
	case tDot, tIdent, tLParen, tLBracket, tLBrace, tInt, tUint, tFloat, tString, tBytes, tTrue, tFalse, tNull:
		return
	}
	p.syntax(p.tok.pos, fmt.Sprintf("extraneous input %s expecting %s", quoteTok(p.tok), exprStart))
}

func (p *parser) member() *Expr {
	e := p.primary()
	for {
		switch p.tok.kind {
		case tDot:
			pos := p.tok.pos
			p.enter(pos)
			p.advance()
			opt := false
			if p.tok.kind == tQuestion {
				opt = true
				p.advance()
			}
			name, isEsc, npos := p.selector()
			if p.tok.kind == tLParen && !opt && !isEsc {
				open := p.tok.pos
				p.advance()
				args := p.exprList(tRParen)
				p.expect(tRParen, ")")
				e = p.memberCall(open, e, name, args, npos)
			} else if opt {
				e = p.call(pos, opOptSelect, e, &Expr{ID: p.id(npos), Kind: eLiteral, Lit: name})
			} else {
				e = &Expr{ID: p.id(pos), Kind: eSelect, Target: e, Name: name}
			}
			p.leave()
		case tLBracket:
			pos := p.tok.pos
			p.enter(pos)
			p.advance()
			p.startSet = exprStartWithQuestion
			fn := opIndex
			if p.tok.kind == tQuestion {
				fn = opOptIndex
				p.advance()
			}
			idx := p.expr()
			p.expect(tRBracket, "]")
			e = p.call(pos, fn, e, idx)
			p.leave()
		default:
			return e
		}
	}
}

// selector reads a field name: an identifier or a backquoted escaped one.
func (p *parser) selector() (name string, escaped bool, pos int) {
	t := p.tok
	switch t.kind {
	case tIdent:
		p.advance()
		return t.text, false, t.pos
	case tEscIdent:
		p.advance()
		return t.text[1 : len(t.text)-1], true, t.pos
	}
	text := t.text
	if t.kind == tEOF {
		text = ""
	}
	p.syntax(t.pos, fmt.Sprintf("no viable alternative at input '.%s'", text))
	return
}

func (p *parser) exprList(end tokKind) []*Expr {
	var args []*Expr
	if p.tok.kind == end {
		return nil
	}
	p.startSet = exprStartWithRParen
	args = append(args, p.expr())
	for p.tok.kind == tComma {
		p.advance()
		args = append(args, p.expr())
	}
	return args
}
