package cel

// overload is one signature of a function, with its implementation. Member overloads take
// the receiver as their first argument.
type overload struct {
	id     string
	member bool
	args   []*Type
	result *Type
	// params is true when args or result mention type parameters.
	params bool
	// fn1, fn2 and fn implement the overload over evaluated, non-error arguments; the
	// unary and binary forms avoid building an argument slice.
	fn1 func(Value) Value
	fn2 func(Value, Value) Value
	fn  func(args []Value) Value
	// nonStrict overloads also receive error arguments (cel-go's non-strict functions).
	nonStrict bool
}

// function is a named function and its overloads, in declaration order.
type function struct {
	name      string
	overloads []*overload
	byID      map[string]*overload
}

// library is a set of function declarations, added to an environment together.
type library struct {
	funcs map[string]*function
	order []string
}

func newLibrary() *library { return &library{funcs: map[string]*function{}} }

func hasParams(ts ...*Type) bool {
	for _, t := range ts {
		if t.Kind == ParamKind || hasParams(t.Params...) {
			return true
		}
	}
	return false
}

func (l *library) add(name string, o *overload) {
	f := l.funcs[name]
	if f == nil {
		f = &function{name: name, byID: map[string]*overload{}}
		l.funcs[name] = f
		l.order = append(l.order, name)
	}
	o.params = hasParams(append([]*Type{o.result}, o.args...)...)
	switch {
	case o.fn1 != nil && o.fn == nil:
		f := o.fn1
		o.fn = func(a []Value) Value { return f(a[0]) }
	case o.fn2 != nil && o.fn == nil:
		f := o.fn2
		o.fn = func(a []Value) Value { return f(a[0], a[1]) }
	}
	f.overloads = append(f.overloads, o)
	f.byID[o.id] = o
}

// impl sets an overload's implementation from a func(Value) Value, a
// func(Value, Value) Value or a func([]Value) Value.
func (o *overload) impl(f any) *overload {
	switch f := f.(type) {
	case func(Value) Value:
		o.fn1 = f
	case func(Value, Value) Value:
		o.fn2 = f
	case func([]Value) Value:
		o.fn = f
	case nil:
	default:
		panic("cel: bad implementation type")
	}
	return o
}

// global declares a global overload.
func (l *library) global(name, id string, result *Type, args []*Type, f any) *overload {
	o := (&overload{id: id, args: args, result: result}).impl(f)
	l.add(name, o)
	return o
}

// member declares a receiver-style overload; args[0] is the receiver type.
func (l *library) member(name, id string, result *Type, args []*Type, f any) *overload {
	o := (&overload{id: id, member: true, args: args, result: result}).impl(f)
	l.add(name, o)
	return o
}

func ts(t ...*Type) []*Type { return t }

// Type parameters used by the declarations.
var (
	tA = paramType("A")
	tB = paramType("B")
	tK = paramType("K")
	tV = paramType("V")
)
