package cel

// Activation supplies the values of an expression's variables.
type Activation interface {
	ResolveName(name string) (Value, bool)
}

// Vars is an Activation over a map.
type Vars map[string]Value

// ResolveName implements Activation.
func (v Vars) ResolveName(name string) (Value, bool) {
	x, ok := v[name]
	return x, ok
}

// frame is the state of one evaluation: variables, comprehension slots and the cost.
type frame struct {
	act   Activation
	slots []Value
	cost  uint64
	limit uint64 // 0: no limit
	// mutable marks the accumulators a comprehension may extend in place.
}

// costExceeded unwinds an evaluation whose actual cost passed the limit.
type costExceeded struct{}

func (f *frame) add(c uint64) {
	f.cost += c
	if f.limit != 0 && f.cost > f.limit {
		panic(costExceeded{})
	}
}

// node is one planned step of an expression.
type node interface {
	eval(f *frame) Value
}

type constNode struct{ v Value }

func (n *constNode) eval(*frame) Value { return n.v }

type varNode struct{ name string }

func (n *varNode) eval(f *frame) Value {
	f.add(1)
	if f.act != nil {
		if v, ok := f.act.ResolveName(n.name); ok {
			return v
		}
	}
	return errorf("no such attribute(s): %s", n.name)
}

type slotNode struct{ slot int }

func (n *slotNode) eval(f *frame) Value {
	f.add(1)
	return f.slots[n.slot]
}

// selectNode is operand.field, or has(operand.field) when test is set.
type selectNode struct {
	operand node
	field   string
	test    bool
}

func (n *selectNode) eval(f *frame) Value {
	v := n.operand.eval(f)
	if n.test {
		return hasField(v, n.field)
	}
	f.add(1)
	return selectField(v, n.field)
}

func hasField(v Value, field string) Value {
	switch x := v.(type) {
	case *Err:
		return x
	case Map:
		_, ok := x.Get(field)
		return ok
	case Optional:
		if !x.Ok {
			return false
		}
		return hasField(x.V, field)
	}
	return errNoSuchOverload
}

func selectField(v Value, field string) Value {
	switch x := v.(type) {
	case *Err:
		return x
	case Map:
		if r, ok := x.Get(field); ok {
			return r
		}
		return errorf("no such key: %s", field)
	case Optional:
		if !x.Ok {
			return x
		}
		return optSelect(x.V, field)
	}
	return errNoSuchOverload
}

// optSelect is operand.?field: optional.of(the field) or optional.none().
func optSelect(v Value, field string) Value {
	switch x := v.(type) {
	case *Err:
		return x
	case Optional:
		if !x.Ok {
			return x
		}
		return optSelect(x.V, field)
	case Map:
		if r, ok := x.Get(field); ok {
			return Optional{V: r, Ok: true}
		}
		return optNone
	}
	return errNoSuchOverload
}

type optSelectNode struct {
	operand node
	field   string
}

func (n *optSelectNode) eval(f *frame) Value {
	v := n.operand.eval(f)
	f.add(1)
	return optSelect(v, n.field)
}

type andNode struct{ l, r node }

func (n *andNode) eval(f *frame) Value {
	l := n.l.eval(f)
	if b, ok := l.(bool); ok && !b {
		return false
	}
	r := n.r.eval(f)
	if b, ok := r.(bool); ok {
		if !b {
			return false
		}
		if lb, ok := l.(bool); ok {
			return lb
		}
	}
	return logicErr(l, r)
}

type orNode struct{ l, r node }

func (n *orNode) eval(f *frame) Value {
	l := n.l.eval(f)
	if b, ok := l.(bool); ok && b {
		return true
	}
	r := n.r.eval(f)
	if b, ok := r.(bool); ok {
		if b {
			return true
		}
		if lb, ok := l.(bool); ok {
			return lb
		}
	}
	return logicErr(l, r)
}

// logicErr picks the error of && or || when neither side decided it: the first operand's
// error, or "no such overload" for a non-boolean operand.
func logicErr(l, r Value) Value {
	for _, v := range []Value{l, r} {
		if _, ok := v.(bool); ok {
			continue
		}
		if e, ok := v.(*Err); ok {
			return e
		}
		return errNoSuchOverload
	}
	return errNoSuchOverload
}

type notStrictlyFalseNode struct{ x node }

func (n *notStrictlyFalseNode) eval(f *frame) Value {
	v := n.x.eval(f)
	f.add(1)
	if b, ok := v.(bool); ok {
		return b
	}
	return true
}

type condNode struct{ c, t, e node }

func (n *condNode) eval(f *frame) Value {
	c := n.c.eval(f)
	b, ok := c.(bool)
	if !ok {
		if e, isErr := c.(*Err); isErr {
			return e
		}
		return errNoSuchOverload
	}
	if b {
		return n.t.eval(f)
	}
	return n.e.eval(f)
}

type listNode struct {
	elems []node
	opt   []bool
}

func (n *listNode) eval(f *frame) Value {
	out := make(listOf, 0, len(n.elems))
	for i, e := range n.elems {
		v := e.eval(f)
		if err, ok := v.(*Err); ok {
			return err
		}
		if n.opt != nil && n.opt[i] {
			o, ok := v.(Optional)
			if !ok {
				return errorf("cannot initialize optional list element from non-optional value %v", formatValue(v))
			}
			if !o.Ok {
				continue
			}
			v = o.V
		}
		out = append(out, v)
	}
	f.add(10)
	return out
}

type mapNode struct {
	keys, vals []node
	opt        []bool
}

func (n *mapNode) eval(f *frame) Value {
	m := newMapOf(len(n.keys))
	for i := range n.keys {
		k := n.keys[i].eval(f)
		if err, ok := k.(*Err); ok {
			return err
		}
		v := n.vals[i].eval(f)
		if err, ok := v.(*Err); ok {
			return err
		}
		switch k.(type) {
		case List, Map:
			return errorf("unsupported key type: %s", typeOfValue(k).Name)
		}
		if n.opt != nil && n.opt[i] {
			o, ok := v.(Optional)
			if !ok {
				return errorf("cannot initialize optional entry '%v' from non-optional value %v", formatValue(k), formatValue(v))
			}
			if !o.Ok {
				m.del(k)
				continue
			}
			v = o.V
		}
		m.put(k, v)
	}
	f.add(30)
	return m
}
