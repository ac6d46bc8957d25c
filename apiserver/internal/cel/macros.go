package cel

import "fmt"

// globalCall builds f(args), expanding the has() macro.
func (p *parser) globalCall(pos int, fn string, args []*Expr) *Expr {
	if fn == "has" && len(args) == 1 && p.macros {
		a := args[0]
		if a.Kind != eSelect {
			p.errs.add(p.offsets[a.ID], "invalid argument to has() macro")
			return &Expr{ID: p.id(pos), Kind: eLiteral, Lit: Null}
		}
		p.noteMacro(fn)
		return &Expr{ID: p.id(pos), Kind: eSelect, Target: a.Target, Name: a.Name, TestOnly: true}
	}
	return p.call(pos, fn, args...)
}

// memberCall builds target.fn(args), expanding the receiver macros of cel-go's standard
// set, of the two-variable comprehensions library and of the optional library.
func (p *parser) memberCall(pos int, target *Expr, fn string, args []*Expr, _ int) *Expr {
	n := len(args)
	if !p.macros {
		n = -1
	}
	switch {
	case (fn == "all" || fn == "exists" || fn == "exists_one" || fn == "existsOne" || fn == "filter") && n == 2,
		fn == "map" && (n == 2 || n == 3):
		if e := p.oneVar(pos, target, fn, args); e != nil {
			p.noteMacro(fn)
			return e
		}
	case (fn == "all" || fn == "exists" || fn == "existsOne") && n == 3,
		(fn == "transformList" || fn == "transformMap" || fn == "transformMapEntry") && (n == 3 || n == 4):
		if e := p.twoVar(pos, target, fn, args); e != nil {
			p.noteMacro(fn)
			return e
		}
	case (fn == "optMap" || fn == "optFlatMap") && n == 2:
		p.noteMacro(fn)
		return p.optMap(pos, target, fn, args)
	case fn == "sortBy" && n == 2:
		if e := p.sortBy(pos, target, args); e != nil {
			p.noteMacro(fn)
			return e
		}
	default:
		e := p.call(pos, fn, args...)
		e.Target = target
		return e
	}
	return &Expr{ID: p.id(pos), Kind: eLiteral, Lit: Null}
}

// noteMacro records an expanded macro when the parse is traced.
func (p *parser) noteMacro(fn string) {
	if p.record {
		p.expanded = append(p.expanded, fn)
	}
}

func (p *parser) ident(pos int, name string) *Expr {
	return &Expr{ID: p.id(pos), Kind: eIdent, Name: name}
}

func (p *parser) lit(pos int, v Value) *Expr { return &Expr{ID: p.id(pos), Kind: eLiteral, Lit: v} }

func (p *parser) accu(pos int) *Expr { return p.ident(pos, accuVar) }

func (p *parser) iterVar(a *Expr, msg string) (string, bool) {
	if a.Kind != eIdent {
		p.errs.add(p.offsets[a.ID], msg)
		return "", false
	}
	if a.Name == accuVar || a.Name == "__result__" {
		p.errs.add(p.offsets[a.ID], "iteration variable overwrites accumulator variable")
		return "", false
	}
	return a.Name, true
}

func (p *parser) comprehension(pos int, rng *Expr, v, v2 string, init, cond, step, res *Expr) *Expr {
	return &Expr{ID: p.id(pos), Kind: eComprehension, IterRange: rng, IterVar: v, IterVar2: v2,
		AccuVar: accuVar, AccuInit: init, LoopCond: cond, LoopStep: step, Res: res}
}

// quantifier builds the init, condition, step and result of all, exists and exists_one.
func (p *parser) quantifier(pos int, fn string, pred *Expr) (init, cond, step, res *Expr) {
	switch fn {
	case "all":
		return p.lit(pos, true), p.call(pos, opNotStrictlyFalse, p.accu(pos)),
			p.call(pos, opLogicalAnd, p.accu(pos), pred), p.accu(pos)
	case "exists":
		return p.lit(pos, false), p.call(pos, opNotStrictlyFalse, p.call(pos, opLogicalNot, p.accu(pos))),
			p.call(pos, opLogicalOr, p.accu(pos), pred), p.accu(pos)
	}
	return p.lit(pos, int64(0)), p.lit(pos, true),
		p.call(pos, opConditional, pred, p.call(pos, opAdd, p.accu(pos), p.lit(pos, int64(1))), p.accu(pos)),
		p.call(pos, opEquals, p.accu(pos), p.lit(pos, int64(1)))
}

func (p *parser) oneVar(pos int, target *Expr, fn string, args []*Expr) *Expr {
	msg := "argument must be a simple name"
	if fn == "map" || fn == "filter" {
		msg = "argument is not an identifier"
	}
	v, ok := p.iterVar(args[0], msg)
	if !ok {
		return nil
	}
	switch fn {
	case "map", "filter":
		var elem, filter *Expr
		if fn == "filter" {
			filter, elem = args[1], p.ident(p.offsets[args[0].ID], v)
		} else if len(args) == 3 {
			filter, elem = args[1], args[2]
		} else {
			elem = args[1]
		}
		step := p.call(pos, opAdd, p.accu(pos), &Expr{ID: p.id(pos), Kind: eList, Args: []*Expr{elem}})
		if filter != nil {
			step = p.call(pos, opConditional, filter, step, p.accu(pos))
		}
		return p.comprehension(pos, target, v, "", &Expr{ID: p.id(pos), Kind: eList}, p.lit(pos, true), step, p.accu(pos))
	}
	init, cond, step, res := p.quantifier(pos, fn, args[1])
	return p.comprehension(pos, target, v, "", init, cond, step, res)
}

func (p *parser) twoVar(pos int, target *Expr, fn string, args []*Expr) *Expr {
	v1, ok := p.iterVar(args[0], "argument must be a simple name")
	if !ok {
		return nil
	}
	v2, ok := p.iterVar(args[1], "argument must be a simple name")
	if !ok {
		return nil
	}
	if v1 == v2 {
		p.errs.add(p.offsets[args[1].ID], "duplicate variable name: "+v1)
		return nil
	}
	switch fn {
	case "all", "exists", "existsOne":
		init, cond, step, res := p.quantifier(pos, fn, args[2])
		return p.comprehension(pos, target, v1, v2, init, cond, step, res)
	}
	var filter, transform *Expr
	if len(args) == 4 {
		filter, transform = args[2], args[3]
	} else {
		transform = args[2]
	}
	var step, init *Expr
	switch fn {
	case "transformList":
		init = &Expr{ID: p.id(pos), Kind: eList}
		step = p.call(pos, opAdd, p.accu(pos), &Expr{ID: p.id(pos), Kind: eList, Args: []*Expr{transform}})
	case "transformMap":
		init = &Expr{ID: p.id(pos), Kind: eMap}
		step = p.call(pos, opMapInsert, p.accu(pos), p.ident(pos, v1), transform)
	default:
		init = &Expr{ID: p.id(pos), Kind: eMap}
		step = p.call(pos, opMapInsert, p.accu(pos), transform)
	}
	if filter != nil {
		step = p.call(pos, opConditional, filter, step, p.accu(pos))
	}
	return p.comprehension(pos, target, v1, v2, init, p.lit(pos, true), step, p.accu(pos))
}

// optMap expands opt.optMap(v, e) to opt.hasValue() ? optional.of(<e with v bound>) :
// optional.none(), binding v through a one-shot comprehension as cel-go does.
func (p *parser) optMap(pos int, target *Expr, fn string, args []*Expr) *Expr {
	if args[0].Kind != eIdent {
		p.errs.add(p.offsets[args[0].ID], fmt.Sprintf("%s() variable name must be a simple identifier", fn))
		return &Expr{ID: p.id(pos), Kind: eLiteral, Lit: Null}
	}
	v := args[0].Name
	has := p.call(pos, "hasValue")
	has.Target = target
	val := p.call(pos, "value")
	val.Target = copyExpr(p, target)
	bind := &Expr{ID: p.id(pos), Kind: eComprehension, IterRange: &Expr{ID: p.id(pos), Kind: eList},
		IterVar: "#unused", AccuVar: v, AccuInit: val, LoopCond: p.lit(pos, false),
		LoopStep: p.ident(pos, v), Res: args[1]}
	then := bind
	if fn == "optMap" {
		then = p.call(pos, "optional.of", bind)
	}
	return p.call(pos, opConditional, has, then, p.call(pos, "optional.none"))
}

// copyExpr duplicates e with fresh ids at the same offsets.
func copyExpr(p *parser, e *Expr) *Expr {
	if e == nil {
		return nil
	}
	c := *e
	c.ID = p.id(p.offsets[e.ID])
	c.Target = copyExpr(p, e.Target)
	c.Args = nil
	for _, a := range e.Args {
		c.Args = append(c.Args, copyExpr(p, a))
	}
	c.Entries = nil
	for _, en := range e.Entries {
		ce := *en
		ce.ID = p.id(p.offsets[en.ID])
		ce.Key, ce.Value = copyExpr(p, en.Key), copyExpr(p, en.Value)
		c.Entries = append(c.Entries, &ce)
	}
	c.IterRange, c.AccuInit, c.LoopCond = copyExpr(p, e.IterRange), copyExpr(p, e.AccuInit), copyExpr(p, e.LoopCond)
	c.LoopStep, c.Res = copyExpr(p, e.LoopStep), copyExpr(p, e.Res)
	c.Optional = append([]bool(nil), e.Optional...)
	return &c
}

// sortBy expands list.sortBy(x, key) as cel-go's ext.Lists does: bind the list once, map
// it to its keys and call @sortByAssociatedKeys.
func (p *parser) sortBy(pos int, target *Expr, args []*Expr) *Expr {
	switch target.Kind {
	case eList, eSelect, eIdent, eComprehension, eCall:
	default:
		p.errs.add(p.offsets[target.ID], "sortBy can only be applied to a list, identifier, comprehension, call or select expression")
		return nil
	}
	const in = "@__sortBy_input__"
	mapped := p.oneVar(pos, p.ident(pos, in), "map", args)
	if mapped == nil {
		return nil
	}
	call := p.call(pos, "@sortByAssociatedKeys", mapped)
	call.Target = p.ident(pos, in)
	return &Expr{ID: p.id(pos), Kind: eComprehension, IterRange: &Expr{ID: p.id(pos), Kind: eList},
		IterVar: "#unused", AccuVar: in, AccuInit: target, LoopCond: p.lit(pos, false),
		LoopStep: p.ident(pos, in), Res: call}
}
