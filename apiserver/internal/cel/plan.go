package cel

import "strings"

// planner turns a checked expression into nodes. Comprehension variables get frame slots,
// so evaluation looks them up by index instead of by name.
type planner struct {
	// err is the first error of a constant folded at plan time: cel-go's optimizer
	// evaluates conversions of constants when the program is made, and fails then.
	err     *Err
	env     *Env
	noCheck bool
	types   map[int64]*Type
	refs    map[int64]*reference
	scopes  []map[string]int
	nslots  int
}

func (p *planner) lookupSlot(name string) (int, bool) {
	for i := len(p.scopes) - 1; i >= 0; i-- {
		if s, ok := p.scopes[i][name]; ok {
			return s, true
		}
	}
	return 0, false
}

func (p *planner) slot() int {
	p.nslots++
	return p.nslots - 1
}

func (p *planner) plan(e *Expr) node {
	switch e.Kind {
	case eLiteral:
		return &constNode{v: e.Lit}
	case eIdent:
		if s, ok := p.lookupSlot(e.Name); ok {
			return &slotNode{slot: s}
		}
		if r := p.refs[e.ID]; r != nil && r.typeValue != nil {
			return &constNode{v: r.typeValue}
		}
		if _, isVar := p.env.vars[e.Name]; !isVar {
			if t, ok := typeIdents[e.Name]; ok {
				return &constNode{v: t}
			}
		}
		return &varNode{name: e.Name}
	case eSelect:
		if q, ok := qualifiedName(e); ok && p.noCheck {
			// Unchecked: a dotted name may be a variable of its own (a.b.c).
			if _, declared := p.env.vars[q]; declared {
				if _, inScope := p.lookupSlot(strings.SplitN(q, ".", 2)[0]); !inScope {
					return &varNode{name: q}
				}
			}
		}
		return &selectNode{operand: p.plan(e.Target), field: e.Name, test: e.TestOnly}
	case eCall:
		return p.planCall(e)
	case eList:
		n := &listNode{opt: e.Optional}
		consts := true
		for _, a := range e.Args {
			x := p.plan(a)
			_, isConst := x.(*constNode)
			consts = consts && isConst
			n.elems = append(n.elems, x)
		}
		if consts {
			return &constNode{v: n.eval(&frame{})}
		}
		return n
	case eMap:
		n := &mapNode{}
		anyOpt := false
		for _, en := range e.Entries {
			n.keys = append(n.keys, p.plan(en.Key))
			n.vals = append(n.vals, p.plan(en.Value))
			n.opt = append(n.opt, en.Optional)
			anyOpt = anyOpt || en.Optional
		}
		if !anyOpt {
			n.opt = nil
		}
		for i := range n.keys {
			_, kc := n.keys[i].(*constNode)
			_, vc := n.vals[i].(*constNode)
			if !kc || !vc {
				return n
			}
		}
		return &constNode{v: n.eval(&frame{})}
	case eComprehension:
		return p.planFold(e)
	case eStruct:
		return p.planStruct(e)
	}
	return &constNode{v: errorf("unsupported expression")}
}

func (p *planner) planFold(e *Expr) node {
	n := &foldNode{rng: p.plan(e.IterRange), init: p.plan(e.AccuInit), iter2Slot: -1}
	n.accu = p.slot()
	p.scopes = append(p.scopes, map[string]int{e.AccuVar: n.accu})
	n.iterSlot = p.slot()
	scope := map[string]int{e.IterVar: n.iterSlot}
	if e.IterVar2 != "" {
		n.iter2Slot = p.slot()
		scope[e.IterVar2] = n.iter2Slot
	}
	p.scopes = append(p.scopes, scope)
	n.cond = p.plan(e.LoopCond)
	n.step = p.plan(e.LoopStep)
	p.scopes = p.scopes[:len(p.scopes)-1]
	n.result = p.plan(e.Res)
	p.scopes = p.scopes[:len(p.scopes)-1]
	n.appendAccu = e.AccuVar == accuVar && (e.AccuInit.Kind == eList || e.AccuInit.Kind == eMap) &&
		len(e.AccuInit.Args) == 0 && len(e.AccuInit.Entries) == 0
	return n
}

func (p *planner) planCall(e *Expr) node {
	switch e.Name {
	case opLogicalAnd:
		return &andNode{l: p.plan(e.Args[0]), r: p.plan(e.Args[1])}
	case opLogicalOr:
		return &orNode{l: p.plan(e.Args[0]), r: p.plan(e.Args[1])}
	case opConditional:
		return &condNode{c: p.plan(e.Args[0]), t: p.plan(e.Args[1]), e: p.plan(e.Args[2])}
	case opNotStrictlyFalse:
		return &notStrictlyFalseNode{x: p.plan(e.Args[0])}
	case opOptSelect:
		return &optSelectNode{operand: p.plan(e.Args[0]), field: e.Args[1].Lit.(string)}
	case opIndex:
		if e.Target == nil && len(e.Args) == 2 {
			return &indexNode{operand: p.plan(e.Args[0]), index: p.plan(e.Args[1]), identIndex: e.Args[1].Kind == eIdent}
		}
	case opOptIndex:
		if e.Target == nil && len(e.Args) == 2 {
			return &optIndexNode{operand: p.plan(e.Args[0]), index: p.plan(e.Args[1])}
		}
	case opIn:
		// cel-go's optimizer turns membership in a constant empty list into false without
		// evaluating the left side.
		if len(e.Args) == 2 && e.Args[1].Kind == eList && len(e.Args[1].Args) == 0 {
			return &constNode{v: false}
		}
	case "or", "orValue":
		if e.Target != nil && len(e.Args) == 1 && p.isOptional(e.Target) {
			return &optOrNode{opt: p.plan(e.Target), other: p.plan(e.Args[0]), value: e.Name == "orValue"}
		}
	}
	n := &callNode{name: e.Name}
	var all []*Expr
	if e.Target != nil {
		all = append(all, e.Target)
	}
	all = append(all, e.Args...)
	for _, a := range all {
		n.args = append(n.args, p.plan(a))
	}
	r := p.refs[e.ID]
	if r != nil {
		n.cands = r.overloads
	} else {
		n.cands, all = p.unchecked(e, all)
		n.args = n.args[:0]
		for _, a := range all {
			n.args = append(n.args, p.plan(a))
		}
	}
	n.direct = len(n.cands) == 1 && staticallyTyped(n.cands[0], all, p.types)
	n.cost = callCost(e.Name, n.cands)
	n.plain = plainNoSuchOverload[e.Name] || e.Name == "" || strings.IndexByte("_@!-", e.Name[0]) >= 0
	if conversionFunctions[e.Name] && len(n.args) == 1 {
		if _, isConst := n.args[0].(*constNode); isConst {
			return p.fold(n)
		}
	}
	return n
}

// conversionFunctions are the calls cel-go's optimizer folds when their argument is a
// constant (overloads.IsTypeConversionFunction).
var conversionFunctions = map[string]bool{"bool": true, "bytes": true, "double": true, "duration": true,
	"dyn": true, "int": true, "string": true, "timestamp": true, "type": true, "uint": true}

// plainNoSuchOverload are the functions whose failed dispatch says only "no such overload"
// (cel-go's singleton bindings and functions without type guards); others name the
// function and the argument types.
var plainNoSuchOverload = map[string]bool{"size": true, "type": true, "dyn": true, "contains": true,
	"endsWith": true, "startsWith": true, "matches": true, "sort": true, "flatten": true}

func (p *planner) fold(n node) node {
	v := n.eval(&frame{})
	if e, ok := v.(*Err); ok {
		if p.err == nil {
			p.err = e
		}
		return n
	}
	return &constNode{v: v}
}

// staticallyTyped reports whether the checker proved every argument has the overload's
// declared type, so that no run-time check is needed.
func staticallyTyped(o *overload, args []*Expr, types map[int64]*Type) bool {
	for i, a := range args {
		t := types[a.ID]
		if t == nil || !concrete(t) {
			return false
		}
		if o.args[i].Kind != ParamKind && !isDyn(o.args[i]) && o.args[i].Kind != t.Kind {
			return false
		}
	}
	return true
}

// concrete reports whether a type has no dyn or parameter anywhere inside.
func concrete(t *Type) bool {
	switch t.Kind {
	case DynKind, AnyKind, ParamKind, ErrorKind:
		return false
	}
	for _, p := range t.Params {
		if !concrete(p) {
			return false
		}
	}
	return true
}

// unchecked finds the candidate overloads of a call the checker did not see: every overload
// of the function with the same call style. A member call on a dotted name may be a
// namespaced global function (optional.none()).
func (p *planner) unchecked(e *Expr, all []*Expr) ([]*overload, []*Expr) {
	if e.Target != nil {
		if q, ok := qualifiedName(e.Target); ok {
			if _, isVar := p.env.vars[q]; !isVar {
				if fn := p.env.funcs[q+"."+e.Name]; fn != nil {
					return filterOverloads(fn, false), e.Args
				}
			}
		}
	}
	fn := p.env.funcs[e.Name]
	if fn == nil {
		return nil, all
	}
	return filterOverloads(fn, e.Target != nil), all
}

func filterOverloads(fn *function, member bool) []*overload {
	var out []*overload
	for _, o := range fn.overloads {
		if o.member == member {
			out = append(out, o)
		}
	}
	return out
}

// isOptional reports whether the checker typed e as an optional (so or/orValue are the
// optional library's short-circuiting functions).
func (p *planner) isOptional(e *Expr) bool {
	t := p.types[e.ID]
	return t != nil && t.isOptional()
}
