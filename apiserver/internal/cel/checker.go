package cel

import "fmt"

// reference is what the checker resolved a node to: a variable, a type name used as a
// value, or a function's candidate overloads.
type reference struct {
	name      string
	typeValue *Type
	overloads []*overload
	fn        *function
}

// checker type-checks a parsed expression the way cel-go's checker does, so that the same
// expressions are refused with the same messages.
type checker struct {
	env     *Env
	errs    *Errors
	offsets map[int64]int
	types   map[int64]*Type
	refs    map[int64]*reference
	m       mapping
	nvar    int
	scopes  []map[string]*Type
}

func check(env *Env, e *Expr, offsets map[int64]int, errs *Errors) (map[int64]*Type, map[int64]*reference) {
	c := &checker{env: env, errs: errs, offsets: offsets, types: map[int64]*Type{},
		refs: map[int64]*reference{}, m: mapping{}}
	c.check(e)
	for id, t := range c.types {
		c.types[id] = substitute(c.m, t, true)
	}
	return c.types, c.refs
}

func (c *checker) errorAt(id int64, format string, args ...any) {
	c.errs.add(c.offsets[id], fmt.Sprintf(format, args...))
}

func (c *checker) setType(e *Expr, t *Type) { c.types[e.ID] = t }

func (c *checker) lookupIdent(name string) (*Type, *reference) {
	for i := len(c.scopes) - 1; i >= 0; i-- {
		if t, ok := c.scopes[i][name]; ok {
			return t, &reference{name: name}
		}
	}
	if t, ok := c.env.vars[name]; ok {
		return t, &reference{name: name}
	}
	if t, ok := typeIdents[name]; ok {
		return TypeOf(t), &reference{name: name, typeValue: t}
	}
	return nil, nil
}

func (c *checker) check(e *Expr) {
	switch e.Kind {
	case eLiteral:
		c.setType(e, literalType(e.Lit))
	case eIdent:
		if t, r := c.lookupIdent(e.Name); t != nil {
			c.setType(e, t)
			c.refs[e.ID] = r
			return
		}
		c.setType(e, ErrorType)
		c.errorAt(e.ID, "undeclared reference to '%s' (in container '')", e.Name)
	case eSelect:
		c.checkSelect(e)
	case eCall:
		c.checkCall(e)
	case eList:
		c.checkList(e)
	case eMap:
		c.checkMap(e)
	case eStruct:
		for _, en := range e.Entries {
			c.check(en.Value)
		}
		if c.env.isStruct(e.Name) {
			c.setType(e, ObjectType(e.Name, nil))
			return
		}
		if t, _ := c.lookupIdent(e.Name); t == nil {
			c.errorAt(e.ID, "undeclared reference to '%s' (in container '')", e.Name)
		} else {
			c.errorAt(e.ID, "'%s' is not a message type", e.Name)
		}
		c.setType(e, ErrorType)
	case eComprehension:
		c.checkComprehension(e)
	}
}

func literalType(v Value) *Type {
	switch v.(type) {
	case int64:
		return IntType
	case uint64:
		return UintType
	case float64:
		return DoubleType
	case bool:
		return BoolType
	case string:
		return StringType
	case Bytes:
		return BytesType
	}
	return NullType
}

// qualifiedName returns the dotted name an ident or select chain spells, if it is one.
func qualifiedName(e *Expr) (string, bool) {
	switch e.Kind {
	case eIdent:
		return e.Name, true
	case eSelect:
		if e.TestOnly {
			return "", false
		}
		if p, ok := qualifiedName(e.Target); ok {
			return p + "." + e.Name, true
		}
	}
	return "", false
}

func (c *checker) checkSelect(e *Expr) {
	if q, ok := qualifiedName(e); ok {
		if t, r := c.lookupIdent(q); t != nil {
			// A dotted name that is itself declared: turn the select into an ident.
			e.Kind, e.Name, e.Target = eIdent, q, nil
			c.setType(e, t)
			c.refs[e.ID] = r
			return
		}
	}
	t := c.selectField(e, e.Target, e.Name, false)
	if e.TestOnly {
		t = BoolType
	}
	c.setType(e, substitute(c.m, t, false))
}

func (c *checker) selectField(e, operand *Expr, field string, optional bool) *Type {
	c.check(operand)
	ot := substitute(c.m, c.types[operand.ID], false)
	isOpt := false
	if ot.isOptional() {
		ot, isOpt = ot.elem(), true
	}
	result := ErrorType
	switch ot.Kind {
	case MapKind:
		result = ot.val()
	case ObjectKind:
		if ft, ok := ot.Fields[field]; ok {
			result = ft
		} else {
			c.errorAt(e.ID, "undefined field '%s'", field)
		}
	case ParamKind:
		c.isAssignable(DynType, ot)
		result = DynType
	default:
		if !isDyn(ot) && ot.Kind != ErrorKind {
			c.errorAt(e.ID, "type '%s' does not support field selection", formatType(ot))
		}
		result = DynType
	}
	if isOpt || optional {
		return OptionalType(result)
	}
	return result
}

func (c *checker) isAssignable(t1, t2 *Type) bool {
	m := c.m.copy()
	if assignable(m, t1, t2) {
		c.m = m
		return true
	}
	return false
}

func (c *checker) newTypeVar() *Type {
	t := paramType(fmt.Sprintf("_var%d", c.nvar))
	c.nvar++
	return t
}

func (c *checker) checkCall(e *Expr) {
	if e.Name == opOptSelect {
		field := e.Args[1]
		name, ok := field.Lit.(string)
		if field.Kind != eLiteral || !ok {
			c.errorAt(field.ID, "unsupported optional field selection: %v", field)
			return
		}
		t := c.selectField(e, e.Args[0], name, true)
		c.setType(e, substitute(c.m, t, false))
		return
	}
	for _, a := range e.Args {
		c.check(a)
	}
	if e.Target == nil {
		fn := c.env.funcs[e.Name]
		if fn == nil {
			c.errorAt(e.ID, "undeclared reference to '%s' (in container '')", e.Name)
			c.setType(e, ErrorType)
			return
		}
		c.resolve(e, fn, nil)
		return
	}
	if q, ok := qualifiedName(e.Target); ok {
		if fn := c.env.funcs[q+"."+e.Name]; fn != nil {
			// A namespaced function such as strings.quote: the target was its name.
			e.Name, e.Target = fn.name, nil
			c.resolve(e, fn, nil)
			return
		}
	}
	c.check(e.Target)
	fn := c.env.funcs[e.Name]
	if fn == nil {
		c.setType(e, ErrorType)
		c.errorAt(e.ID, "undeclared reference to '%s' (in container '')", e.Name)
		return
	}
	c.resolve(e, fn, e.Target)
}

func (c *checker) resolve(e *Expr, fn *function, target *Expr) {
	var argTypes []*Type
	if target != nil {
		argTypes = append(argTypes, c.types[target.ID])
	}
	for _, a := range e.Args {
		argTypes = append(argTypes, c.types[a.ID])
	}
	if fn.name == opLogicalAnd || fn.name == opLogicalOr {
		failed := false
		for i, at := range argTypes {
			if !c.isAssignable(at, BoolType) {
				c.errorAt(e.Args[i].ID, "expected type 'bool' but found '%s'", formatType(at))
				failed = true
			}
		}
		if failed {
			c.setType(e, ErrorType)
			return
		}
		c.setType(e, BoolType)
		c.refs[e.ID] = &reference{fn: fn, overloads: fn.overloads}
		return
	}
	var result *Type
	var matched []*overload
	for _, o := range fn.overloads {
		if (target == nil) == o.member {
			continue
		}
		if len(o.args) != len(argTypes) {
			continue
		}
		params, res := o.args, o.result
		if o.params {
			fresh := mapping{}
			for _, p := range collectParams(append([]*Type{o.result}, o.args...), nil) {
				fresh[p] = c.newTypeVar()
			}
			params = make([]*Type, len(o.args))
			for i, a := range o.args {
				params[i] = substitute(fresh, a, false)
			}
			res = substitute(fresh, o.result, false)
		}
		m := c.m.copy()
		ok := true
		for i := range params {
			if !assignable(m, argTypes[i], params[i]) {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		c.m = m
		matched = append(matched, o)
		rt := substitute(c.m, res, false)
		if result == nil {
			result = rt
		} else if !isDyn(result) && !exactType(rt, result) {
			result = DynType
		}
	}
	if result == nil {
		for i, at := range argTypes {
			argTypes[i] = substitute(c.m, at, true)
		}
		c.errorAt(e.ID, "found no matching overload for '%s' applied to '%s'", fn.name, formatSignature(argTypes, target != nil))
		c.setType(e, ErrorType)
		return
	}
	c.setType(e, result)
	c.refs[e.ID] = &reference{fn: fn, overloads: matched}
}

func collectParams(ts []*Type, out []string) []string {
	for _, t := range ts {
		if t.Kind == ParamKind {
			seen := false
			for _, o := range out {
				seen = seen || o == t.Name
			}
			if !seen {
				out = append(out, t.Name)
			}
		}
		out = collectParams(t.Params, out)
	}
	return out
}

func (c *checker) joinTypes(e *Expr, prev, cur *Type) *Type {
	if prev == nil {
		return cur
	}
	if c.isAssignable(prev, cur) {
		if isEqualOrLessSpecific(prev, cur) {
			return prev
		}
		return cur
	}
	return DynType
}

func (c *checker) checkList(e *Expr) {
	var elem *Type
	for i, a := range e.Args {
		c.check(a)
		t := c.types[a.ID]
		if e.Optional != nil && e.Optional[i] {
			if t.isOptional() {
				t = t.elem()
			} else if !isDyn(t) {
				c.errorAt(a.ID, "expected type '%s' but found '%s'", formatType(OptionalType(t)), formatType(t))
			}
		}
		elem = c.joinTypes(a, elem, t)
	}
	if elem == nil {
		elem = c.newTypeVar()
	}
	c.setType(e, ListType(elem))
}

func (c *checker) checkMap(e *Expr) {
	var kt, vt *Type
	for _, en := range e.Entries {
		c.check(en.Key)
		kt = c.joinTypes(en.Key, kt, c.types[en.Key.ID])
		c.check(en.Value)
		t := c.types[en.Value.ID]
		if en.Optional {
			if t.isOptional() {
				t = t.elem()
			} else if !isDyn(t) {
				c.errorAt(en.Value.ID, "expected type '%s' but found '%s'", formatType(OptionalType(t)), formatType(t))
			}
		}
		vt = c.joinTypes(en.Value, vt, t)
	}
	if kt == nil {
		kt, vt = c.newTypeVar(), c.newTypeVar()
	}
	c.setType(e, MapType(kt, vt))
}

func (c *checker) checkComprehension(e *Expr) {
	c.check(e.IterRange)
	c.check(e.AccuInit)
	rt := substitute(c.m, c.types[e.IterRange.ID], false)
	accuType := c.types[e.AccuInit.ID]
	c.scopes = append(c.scopes, map[string]*Type{e.AccuVar: accuType})
	var vt, vt2 *Type
	switch rt.Kind {
	case ListKind:
		vt = rt.elem()
		if e.IterVar2 != "" {
			vt, vt2 = IntType, vt
		}
	case MapKind:
		vt, vt2 = rt.key(), rt.val()
	case DynKind, ErrorKind, ParamKind, AnyKind:
		c.isAssignable(DynType, rt)
		vt, vt2 = DynType, DynType
	default:
		c.errorAt(e.IterRange.ID, "expression of type '%s' cannot be range of a comprehension (must be list, map, or dynamic)", formatType(rt))
		vt, vt2 = ErrorType, ErrorType
	}
	scope := map[string]*Type{e.IterVar: vt}
	if e.IterVar2 != "" {
		scope[e.IterVar2] = vt2
	}
	c.scopes = append(c.scopes, scope)
	c.check(e.LoopCond)
	c.assertType(e.LoopCond, BoolType)
	c.check(e.LoopStep)
	c.assertType(e.LoopStep, accuType)
	c.scopes = c.scopes[:len(c.scopes)-1]
	c.check(e.Res)
	c.scopes = c.scopes[:len(c.scopes)-1]
	c.setType(e, substitute(c.m, c.types[e.Res.ID], false))
}

func (c *checker) assertType(e *Expr, t *Type) {
	if !c.isAssignable(t, c.types[e.ID]) {
		c.errorAt(e.ID, "expected type '%s' but found '%s'", formatType(t), formatType(c.types[e.ID]))
	}
}

// typeIdents are the type names usable as values (int, list, google.protobuf.Duration, …).
var typeIdents = map[string]*Type{
	"int": IntType, "uint": UintType, "double": DoubleType, "bool": BoolType,
	"string": StringType, "bytes": BytesType, "null_type": NullType, "type": TypeType,
	"list": ListType(DynType), "map": MapType(DynType, DynType),
	"google.protobuf.Duration": DurationType, "google.protobuf.Timestamp": TimestampType,
	"optional_type": OptionalType(DynType),
}
