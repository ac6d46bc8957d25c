package cel

import "math"

func (c *coster) cost(e *Expr) CostEstimate {
	if e == nil {
		return CostEstimate{}
	}
	switch e.Kind {
	case eLiteral:
		return CostEstimate{}
	case eIdent:
		if v, ok := c.peek(e.Name); ok {
			c.paths[e.ID] = v.path
		} else {
			c.paths[e.ID] = []string{e.Name}
		}
		return fixedCost(1)
	case eSelect:
		if e.TestOnly {
			// Kubernetes sets PresenceTestHasCost(false).
			return c.cost(e.Target)
		}
		sum := c.cost(e.Target)
		switch c.typeOf(e.Target).Kind {
		case MapKind, ObjectKind, ParamKind:
			sum = sum.Add(fixedCost(1))
		}
		c.paths[e.ID] = appendPath(c.path(e.Target), e.Name)
		return sum
	case eCall:
		return c.costCall(e)
	case eList:
		var sum CostEstimate
		item := sizeEst{math.MaxUint64, 0}
		if len(e.Args) == 0 {
			item.Min = 0
		}
		for _, a := range e.Args {
			sum = sum.Add(c.cost(a))
			item = item.union(c.sizeOrUnknown(a))
		}
		c.setEntry(e, &entrySize{kind: ListKind, key: fixedSize(1), val: item})
		return sum.Add(fixedCost(listCreateBaseCost))
	case eMap:
		var sum CostEstimate
		ks, vs := sizeEst{math.MaxUint64, 0}, sizeEst{math.MaxUint64, 0}
		if len(e.Entries) == 0 {
			ks.Min, vs.Min = 0, 0
		}
		for _, en := range e.Entries {
			sum = sum.Add(c.cost(en.Key)).Add(c.cost(en.Value))
			ks = ks.union(c.sizeOrUnknown(en.Key))
			vs = vs.union(c.sizeOrUnknown(en.Value))
		}
		c.setEntry(e, &entrySize{kind: MapKind, key: ks, val: vs})
		return sum.Add(fixedCost(mapCreateBaseCost))
	case eStruct:
		var sum CostEstimate
		for _, en := range e.Entries {
			sum = sum.Add(c.cost(en.Value))
		}
		return sum.Add(fixedCost(40))
	case eComprehension:
		if isBind(e) {
			return c.costBind(e)
		}
		return c.costComprehension(e)
	}
	return CostEstimate{}
}

func isBind(e *Expr) bool {
	r := e.IterRange
	b, isBool := e.LoopCond.Lit.(bool)
	return r.Kind == eList && len(r.Args) == 0 && e.LoopCond.Kind == eLiteral && isBool && !b &&
		e.AccuVar != "__result__"
}

func (c *coster) pushLocal(name string, e *Expr) {
	c.push(name, &localVar{path: c.path(e), size: c.computeSize(e), entry: c.entry(e)})
}

func (c *coster) costBind(e *Expr) CostEstimate {
	sum := c.cost(e.IterRange).Add(c.cost(e.AccuInit))
	c.pushLocal(e.AccuVar, e.AccuInit)
	sum = sum.Add(c.cost(e.Res))
	c.pop(e.AccuVar)
	c.setSize(e, c.computeSize(e.Res))
	c.setEntry(e, c.entry(e.Res))
	return sum
}

func (c *coster) rangeKind(r *Expr, es *entrySize) Kind {
	if es != nil && es.kind != DynKind {
		return es.kind
	}
	return c.typeOf(r).Kind
}

func (c *coster) costComprehension(e *Expr) CostEstimate {
	sum := c.cost(e.IterRange).Add(c.cost(e.AccuInit))
	c.pushLocal(e.AccuVar, e.AccuInit)
	r := e.IterRange
	es := c.entry(r)
	kind := c.rangeKind(r, es)
	rp := c.path(r)
	if e.IterVar2 != "" {
		sub := "@keys"
		if kind == ListKind {
			sub = "@indices"
		}
		c.push(e.IterVar, &localVar{path: appendPath(rp, sub), size: es.keySize()})
		sub = "@values"
		if kind == ListKind {
			sub = "@items"
		}
		c.push(e.IterVar2, &localVar{path: appendPath(rp, sub), size: es.valSize()})
	} else {
		size, sub := es.keySize(), "@keys"
		if kind == ListKind {
			size, sub = es.valSize(), "@items"
		}
		c.push(e.IterVar, &localVar{path: appendPath(rp, sub), size: size})
	}
	loop := c.cost(e.LoopCond)
	step := c.cost(e.LoopStep)
	c.pop(e.IterVar)
	if e.IterVar2 != "" {
		c.pop(e.IterVar2)
	}
	sum = sum.Add(c.cost(e.Res))
	c.pop(e.AccuVar)
	n := c.sizeOrUnknown(r)
	sum = sum.Add(n.mulCost(step.Add(loop)))
	switch e.AccuInit.Kind {
	case eLiteral:
		c.setSize(e, c.computeSize(e.AccuInit))
	case eList, eMap:
		c.setSize(e, &n)
		if se := c.entry(e.LoopStep); se != nil {
			c.setEntry(e, se)
		}
	}
	return sum
}

func (c *coster) costCall(e *Expr) CostEstimate {
	if e.Name == "dyn" && e.Target == nil && len(e.Args) == 1 {
		a := c.cost(e.Args[0])
		c.setSize(e, c.computeSize(e.Args[0]))
		c.setEntry(e, c.entry(e.Args[0]))
		return fixedCost(1).Add(a)
	}
	args := make([]astNode, len(e.Args))
	argCosts := make([]CostEstimate, len(e.Args))
	for i, a := range e.Args {
		argCosts[i] = c.cost(a)
		args[i] = c.node(a)
	}
	ids := c.overloadIDs(e)
	if len(ids) == 0 {
		return CostEstimate{}
	}
	var sum CostEstimate
	var target *astNode
	if e.Target != nil {
		sum = sum.Add(c.cost(e.Target))
		t := c.node(e.Target)
		target = &t
	}
	fn := CostEstimate{Min: math.MaxUint64}
	var result *sizeEst
	for _, id := range ids {
		est, size := c.functionCost(e, id, target, args, argCosts)
		fn = fn.union(est)
		if size != nil {
			if result == nil {
				result = size
			} else {
				u := result.union(*size)
				result = &u
			}
		}
		switch id {
		case "index_list":
			if len(e.Args) > 0 {
				result = c.entry(e.Args[0]).valSize()
				c.paths[e.ID] = appendPath(c.path(e.Args[0]), "@items")
			}
		case "index_map":
			if len(e.Args) > 0 {
				result = c.entry(e.Args[0]).valSize()
				c.paths[e.ID] = appendPath(c.path(e.Args[0]), "@values")
			}
		}
		if result == nil {
			result = c.computeSize(e)
		}
	}
	c.setSize(e, result)
	return sum.Add(fn)
}

// overloadIDs are the overloads the checker left for a call, as cel-go's reference map.
func (c *coster) overloadIDs(e *Expr) []string {
	if e.Name == opOptSelect {
		return []string{"select_optional_field"}
	}
	r := c.refs[e.ID]
	if r == nil {
		return nil
	}
	if e.Name == opLogicalAnd || e.Name == opLogicalOr {
		return []string{r.fn.overloads[0].id}
	}
	ids := make([]string, len(r.overloads))
	for i, o := range r.overloads {
		ids[i] = o.id
	}
	return ids
}
