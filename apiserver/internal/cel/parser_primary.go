package cel

import (
	"fmt"
	"strconv"
	"strings"
)

var reservedIdents = map[string]bool{
	"as": true, "break": true, "const": true, "continue": true, "else": true, "false": true,
	"for": true, "function": true, "if": true, "import": true, "in": true, "let": true,
	"loop": true, "package": true, "namespace": true, "null": true, "return": true,
	"true": true, "var": true, "void": true, "while": true,
}

func (p *parser) primary() *Expr {
	t := p.tok
	set := exprStart
	if p.startSet != "" {
		set = p.startSet
	}
	p.startSet = ""
	switch t.kind {
	case tDot, tIdent:
		return p.identOrCall()
	case tLParen:
		p.advance()
		e := p.expr()
		p.expect(tRParen, ")")
		return e
	case tLBracket:
		return p.listLit()
	case tLBrace:
		return p.mapLit()
	case tMinus, tInt, tUint, tFloat, tString, tBytes, tTrue, tFalse, tNull:
		return p.literal()
	}
	p.syntax(t.pos, fmt.Sprintf("mismatched input %s expecting %s", quoteTok(t), set))
	return nil
}

func (p *parser) identOrCall() *Expr {
	start := p.tok.pos
	name := ""
	if p.tok.kind == tDot {
		name = "."
		p.advance()
		if p.tok.kind != tIdent {
			p.syntax(p.tok.pos, fmt.Sprintf("no viable alternative at input '.%s'", strings.TrimPrefix(quoteTok(p.tok), "'")))
		}
	}
	idTok := p.tok
	p.advance()
	if reservedIdents[idTok.text] {
		p.errs.add(start, "reserved identifier: "+idTok.text)
		panic(bailout{})
	}
	name += idTok.text
	switch p.tok.kind {
	case tLParen:
		open := p.tok.pos
		p.advance()
		args := p.exprList(tRParen)
		p.expect(tRParen, ")")
		return p.globalCall(open, name, args)
	case tLBrace:
		return p.structLit(name, idTok.pos)
	case tDot:
		// A qualified name followed by '{' is a message literal: look ahead without
		// consuming, since a.b.c alone is a chain of selects.
		save, saveTok := p.lex, p.tok
		qual := name
		for p.tok.kind == tDot {
			p.advance()
			if p.tok.kind != tIdent {
				break
			}
			qual += "." + p.tok.text
			p.advance()
		}
		if p.tok.kind == tLBrace {
			return p.structLit(qual, idTok.pos)
		}
		p.lex, p.tok = save, saveTok
	}
	return &Expr{ID: p.id(idTok.pos), Kind: eIdent, Name: name}
}

func (p *parser) structLit(name string, pos int) *Expr {
	open := p.tok.pos
	p.advance()
	e := &Expr{ID: p.id(open), Kind: eStruct, Name: name}
	_ = pos
	for p.tok.kind != tRBrace {
		opt := false
		if p.tok.kind == tQuestion {
			opt = true
			p.advance()
		}
		field, _, _ := p.selector()
		col := p.expect(tColon, ":")
		v := p.expr()
		e.Entries = append(e.Entries, &Entry{ID: p.id(col.pos), Field: field, Value: v, Optional: opt})
		if p.tok.kind != tComma {
			break
		}
		p.advance()
	}
	p.expectCloser(tRBrace, "}")
	return e
}

func (p *parser) listLit() *Expr {
	open := p.tok.pos
	p.advance()
	e := &Expr{ID: p.id(open), Kind: eList}
	anyOpt := false
	for p.tok.kind != tRBracket {
		opt := false
		if p.tok.kind == tQuestion {
			opt, anyOpt = true, true
			p.advance()
		}
		e.Args = append(e.Args, p.expr())
		e.Optional = append(e.Optional, opt)
		if p.tok.kind != tComma {
			break
		}
		p.advance()
	}
	if !anyOpt {
		e.Optional = nil
	}
	p.expectCloser(tRBracket, "]")
	return e
}

func (p *parser) mapLit() *Expr {
	open := p.tok.pos
	p.advance()
	e := &Expr{ID: p.id(open), Kind: eMap}
	for p.tok.kind != tRBrace {
		opt := false
		if p.tok.kind == tQuestion {
			opt = true
			p.advance()
		}
		k := p.expr()
		col := p.expect(tColon, ":")
		v := p.expr()
		e.Entries = append(e.Entries, &Entry{ID: p.id(col.pos), Key: k, Value: v, Optional: opt})
		if p.tok.kind != tComma {
			break
		}
		p.advance()
	}
	p.expectCloser(tRBrace, "}")
	return e
}

func (p *parser) literal() *Expr {
	t := p.tok
	neg, pos := "", t.pos
	if t.kind == tMinus {
		neg = "-"
		p.advance()
		t = p.tok
	}
	p.advance()
	lit := func(v Value) *Expr { return &Expr{ID: p.id(pos), Kind: eLiteral, Lit: v} }
	switch t.kind {
	case tInt:
		text, base := t.text, 10
		if strings.HasPrefix(text, "0x") {
			text, base = text[2:], 16
		}
		i, err := strconv.ParseInt(neg+text, base, 64)
		if err != nil {
			return p.litError(pos, "invalid int literal")
		}
		return lit(i)
	case tUint:
		text, base := strings.TrimRight(t.text, "uU"), 10
		if strings.HasPrefix(text, "0x") {
			text, base = text[2:], 16
		}
		u, err := strconv.ParseUint(text, base, 64)
		if err != nil {
			return p.litError(pos, "invalid uint literal")
		}
		return lit(u)
	case tFloat:
		f, err := strconv.ParseFloat(neg+t.text, 64)
		if err != nil && !strings.Contains(err.Error(), "range") {
			return p.litError(pos, "invalid double literal")
		}
		return lit(f)
	case tString:
		s, err := unescape(t.text, false)
		if err != nil {
			return p.litError(pos, err.Error())
		}
		return lit(s)
	case tBytes:
		s, err := unescape(t.text[1:], true)
		if err != nil {
			return p.litError(pos, err.Error())
		}
		return lit(Bytes(s))
	case tTrue:
		return lit(true)
	case tFalse:
		return lit(false)
	case tNull:
		return lit(Null)
	}
	p.syntax(t.pos, fmt.Sprintf("mismatched input %s expecting {NUM_FLOAT, NUM_INT}", quoteTok(t)))
	return nil
}

func (p *parser) litError(pos int, msg string) *Expr {
	p.errs.add(pos, msg)
	return &Expr{ID: p.id(pos), Kind: eLiteral, Lit: Null}
}
