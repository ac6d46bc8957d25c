package cel

import (
	"fmt"
	"strings"
)

// indexNode is operand[index].
type indexNode struct {
	operand, index node
	// identIndex: the index is a plain variable, which cel-go's attribute planning
	// resolves without charging it separately.
	identIndex bool
}

func (n *indexNode) eval(f *frame) Value {
	v := n.operand.eval(f)
	var i Value
	if n.identIndex {
		c := f.cost
		i = n.index.eval(f)
		f.cost = c
	} else {
		i = n.index.eval(f)
	}
	f.add(1)
	return index(v, i)
}

func index(v, i Value) Value {
	if e, ok := v.(*Err); ok {
		return e
	}
	if e, ok := i.(*Err); ok {
		return e
	}
	switch x := v.(type) {
	case List:
		n, err := listIndex(i)
		if err != nil {
			return err
		}
		if n < 0 || n >= int64(x.Len()) {
			return errorf("index out of bounds: %s", formatValue(i))
		}
		return x.At(int(n))
	case Map:
		if r, ok := mapLookup(x, i); ok {
			return r
		}
		return errorf("no such key: %s", formatValue(i))
	case Optional:
		if !x.Ok {
			return x
		}
		return optIndex(x.V, i)
	}
	return errorf("no such key: %s", formatValue(i))
}

func listIndex(i Value) (int64, *Err) {
	switch x := i.(type) {
	case int64:
		return x, nil
	case uint64:
		if x > 1<<63-1 {
			return 0, errorf("unsupported index value %s in list", formatValue(i))
		}
		return int64(x), nil
	case float64:
		if n, ok := doubleToIntExact(x); ok {
			return n, nil
		}
		return 0, errorf("unsupported index value %s in list", formatValue(i))
	}
	return 0, errorf("unsupported index type '%s' in list", typeOfValue(i).Name)
}

// optIndex is operand[?index].
func optIndex(v, i Value) Value {
	if e, ok := v.(*Err); ok {
		return e
	}
	if e, ok := i.(*Err); ok {
		return e
	}
	switch x := v.(type) {
	case Optional:
		if !x.Ok {
			return x
		}
		return optIndex(x.V, i)
	case List:
		n, err := listIndex(i)
		if err != nil {
			return err
		}
		if n < 0 || n >= int64(x.Len()) {
			return optNone
		}
		return Optional{V: x.At(int(n)), Ok: true}
	case Map:
		if r, ok := mapLookup(x, i); ok {
			return Optional{V: r, Ok: true}
		}
		return optNone
	}
	return errorf("no such key: %s", formatValue(i))
}

type optIndexNode struct{ operand, index node }

func (n *optIndexNode) eval(f *frame) Value {
	v := n.operand.eval(f)
	i := n.index.eval(f)
	f.add(1)
	return optIndex(v, i)
}

// callNode calls a function: directly when the checker left one overload whose argument
// types need no run-time check, else by dispatch over the candidate overloads.
type callNode struct {
	name  string
	args  []node
	cands []*overload
	// direct is set when cands[0] can be called without checking argument types.
	direct bool
	// plain: a failed dispatch says just "no such overload".
	plain bool
	cost  costFn
}

// costFn is the actual cost of one call, given its arguments and result.
type costFn func(args []Value, result Value) uint64

func (n *callNode) eval(f *frame) Value {
	var buf [3]Value
	var args []Value
	if len(n.args) <= len(buf) {
		args = buf[:len(n.args)]
	} else {
		args = make([]Value, len(n.args))
	}
	for i, a := range n.args {
		args[i] = a.eval(f)
	}
	o := n.pick(args)
	var r Value
	switch {
	case o == nil:
		r = strictErr(args)
		if r == nil {
			r = n.noSuchOverload(args)
		}
	case !o.nonStrict && strictErr(args) != nil:
		r = strictErr(args)
	default:
		switch {
		case o.fn1 != nil:
			r = o.fn1(args[0])
		case o.fn2 != nil:
			r = o.fn2(args[0], args[1])
		default:
			r = o.fn(args)
		}
	}
	if n.cost != nil {
		f.add(n.cost(args, r))
	} else {
		f.add(1)
	}
	return r
}

// noSuchOverload is cel-go's error for arguments no overload accepts.
func (n *callNode) noSuchOverload(args []Value) Value {
	if n.plain {
		if trait, ok := operandTraits[n.name]; ok && len(args) > 0 && !trait(args[0]) {
			// cel-go's operators check their first operand's trait first.
			return errorf("no such overload: %s", n.name)
		}
		return errNoSuchOverload
	}
	names := make([]string, len(args))
	for i, a := range args {
		names[i] = typeOfValue(a).Name
	}
	return errorf("no such overload: %s(%s)", n.name, strings.Join(names, ", "))
}

func strictErr(args []Value) Value {
	for _, a := range args {
		if e, ok := a.(*Err); ok {
			return e
		}
	}
	return nil
}

func (n *callNode) pick(args []Value) *overload {
	if n.direct {
		return n.cands[0]
	}
	for _, o := range n.cands {
		if argsMatch(o, args) {
			return o
		}
	}
	return nil
}

func argsMatch(o *overload, args []Value) bool {
	if len(o.args) != len(args) {
		return false
	}
	for i, t := range o.args {
		if _, isErr := args[i].(*Err); isErr {
			continue
		}
		if !valueHasType(args[i], t) {
			return false
		}
	}
	return true
}

// valueHasType reports whether a run-time value may be passed where t is declared.
func valueHasType(v Value, t *Type) bool {
	switch t.Kind {
	case DynKind, ParamKind, AnyKind, ErrorKind:
		return true
	case IntKind:
		_, ok := v.(int64)
		return ok
	case UintKind:
		_, ok := v.(uint64)
		return ok
	case DoubleKind:
		_, ok := v.(float64)
		return ok
	case BoolKind:
		_, ok := v.(bool)
		return ok
	case StringKind:
		_, ok := v.(string)
		return ok
	case BytesKind:
		_, ok := v.(Bytes)
		return ok
	case NullKind:
		_, ok := v.(NullValue)
		return ok
	case DurationKind:
		_, ok := v.(Duration)
		return ok
	case TimestampKind:
		_, ok := v.(Timestamp)
		return ok
	case ListKind:
		_, ok := v.(List)
		return ok
	case MapKind, ObjectKind:
		_, ok := v.(Map)
		return ok
	case TypeKind:
		_, ok := v.(*Type)
		return ok
	case OpaqueKind:
		if t.Name == "optional_type" {
			_, ok := v.(Optional)
			return ok
		}
		return typeOfValue(v).Name == t.Name
	}
	return false
}

// foldNode is a comprehension, the form every macro expands to.
type foldNode struct {
	rng                       node
	iterSlot, iter2Slot, accu int
	init, cond, step, result  node
	// appendAccu: the accumulator starts as [] or {} and only this fold extends it, so the
	// step may append in place instead of copying (cel-go's mutable accumulators).
	appendAccu bool
}

func (n *foldNode) eval(f *frame) Value {
	r := n.rng.eval(f)
	if e, ok := r.(*Err); ok {
		return e
	}
	accu := n.init.eval(f)
	if n.appendAccu {
		accu = newAccumulator(accu)
	}
	f.slots[n.accu] = accu
	step := func(k, v Value) bool {
		f.slots[n.iterSlot] = k
		if n.iter2Slot >= 0 {
			f.slots[n.iter2Slot] = v
		}
		if c, ok := n.cond.eval(f).(bool); ok && !c {
			return false
		}
		f.slots[n.accu] = n.step.eval(f)
		return true
	}
	switch x := r.(type) {
	case List:
		for i := 0; i < x.Len(); i++ {
			var k, v Value = x.At(i), nil
			if n.iter2Slot >= 0 {
				k, v = int64(i), x.At(i)
			}
			if !step(k, v) {
				break
			}
		}
	case Map:
		x.Range(step)
	default:
		return errorf("unsupported comprehension range type: %s", typeOfValue(r).Name)
	}
	return freezeAccu(n.result.eval(f))
}

// formatValue prints a value the way cel-go's %v of a ref.Val does in its messages.
func formatValue(v Value) string {
	switch x := v.(type) {
	case string:
		return x
	case Bytes:
		return string(x)
	case NullValue:
		return "NULL_VALUE"
	case *Type:
		return x.Name
	case Duration:
		return x.D.String()
	case Timestamp:
		return x.T.String()
	case List:
		s := "["
		for i := 0; i < x.Len(); i++ {
			if i > 0 {
				s += ", "
			}
			s += formatValue(x.At(i))
		}
		return s + "]"
	case fmt.Stringer:
		return x.String()
	}
	return fmt.Sprint(v)
}

// operandTraits tell whether a value has the trait (Adder, Comparer, …) an operator's
// implementation in cel-go requires of its first operand.
var operandTraits = map[string]func(Value) bool{
	opAdd: func(v Value) bool {
		switch v.(type) {
		case int64, uint64, float64, string, Bytes, List, Duration, Timestamp:
			return true
		}
		return false
	},
	opSubtract: func(v Value) bool {
		switch v.(type) {
		case int64, uint64, float64, Duration, Timestamp:
			return true
		}
		return false
	},
	opMultiply: isArithmetic, opDivide: isArithmetic,
	opModulo: func(v Value) bool {
		switch v.(type) {
		case int64, uint64:
			return true
		}
		return false
	},
	opNegate: func(v Value) bool {
		switch v.(type) {
		case int64, float64, Duration:
			return true
		}
		return false
	},
	opLess: isComparer, opLessEquals: isComparer, opGreater: isComparer, opGreaterEquals: isComparer,
	opIndex: func(v Value) bool {
		switch v.(type) {
		case List, Map, Optional:
			return true
		}
		return false
	},
	"size": func(v Value) bool {
		switch v.(type) {
		case string, Bytes, List, Map:
			return true
		}
		return false
	},
}

func isArithmetic(v Value) bool {
	switch v.(type) {
	case int64, uint64, float64:
		return true
	}
	return false
}

func isComparer(v Value) bool {
	switch v.(type) {
	case int64, uint64, float64, string, Bytes, bool, Duration, Timestamp:
		return true
	}
	return false
}
