package cel

// Struct construction, as the mutating admission policies use it: Object{spec:
// Object.spec{...}} and JSONPatch{op: ..., path: ...}. cel-go declares these message types
// from the resource's schema; here a declared root name admits any field, typed dyn, and
// every name under it (Object.spec, Object.spec.template, ...).

// WithStructs returns a copy of env in which the struct types named by roots, and every
// name under them, may be constructed (cel.Types of the mutating policies' environment).
func (env *Env) WithStructs(roots ...string) *Env {
	e := *env
	e.structs = append(append([]string(nil), env.structs...), roots...)
	return &e
}

// isStruct reports whether name is a constructible struct type.
func (env *Env) isStruct(name string) bool {
	for _, r := range env.structs {
		if name == r || (len(name) > len(r) && name[:len(r)] == r && name[len(r)] == '.') {
			return true
		}
	}
	return false
}

// Struct is a constructed struct value: its type name and fields, in the order written.
// It reads as a map of its fields.
type Struct struct {
	TypeName string
	fields   *mapOf
}

// Len implements Map.
func (s *Struct) Len() int { return s.fields.Len() }

// Get implements Map.
func (s *Struct) Get(k Value) (Value, bool) { return s.fields.Get(k) }

// Range implements Map.
func (s *Struct) Range(f func(k, v Value) bool) { s.fields.Range(f) }

// ToNative converts a value to decoded JSON data: maps and structs to map[string]any,
// lists to []any, scalars as they are.
func ToNative(v Value) any { return nativeOf(v) }

type structNode struct {
	name   string
	fields []string
	vals   []node
	opt    []bool
}

func (n *structNode) eval(f *frame) Value {
	m := newMapOf(len(n.fields))
	for i, name := range n.fields {
		v := n.vals[i].eval(f)
		if err, ok := v.(*Err); ok {
			return err
		}
		if n.opt[i] {
			o, ok := v.(Optional)
			if !ok {
				return errorf("cannot initialize optional entry '%s' from non-optional value %v", name, formatValue(v))
			}
			if !o.Ok {
				continue
			}
			v = o.V
		}
		m.put(name, v)
	}
	return &Struct{TypeName: n.name, fields: m}
}

func (p *planner) planStruct(e *Expr) node {
	if p.env == nil || !p.env.isStruct(e.Name) {
		// Unchecked programs reach here too: a message type the environment does not
		// declare is as unsupported as before struct construction existed.
		return &constNode{v: errorf("unsupported expression")}
	}
	n := &structNode{name: e.Name}
	for _, en := range e.Entries {
		n.fields = append(n.fields, en.Field)
		n.vals = append(n.vals, p.plan(en.Value))
		n.opt = append(n.opt, en.Optional)
	}
	return n
}
