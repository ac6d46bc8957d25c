package typed

// Relationship mirrors schema.ElementRelationship.
type Relationship uint8

// The relationships: a granular (separable) map owns each member apart; an atomic list or
// map is owned whole; an associative list is a set or a map-list.
const (
	Granular Relationship = iota
	Atomic
	Associative
)

// Scalar mirrors schema.Scalar.
type Scalar uint8

// The scalar kinds; NoScalar means the node is not a scalar.
const (
	NoScalar Scalar = iota
	Numeric
	String
	Boolean
	Untyped
)

// Atom mirrors schema.Atom: what a node may be. More than one part set means the value's
// own type chooses (deduceAtom upstream).
type Atom struct {
	Scalar Scalar
	List   *List
	Map    *Map
}

// List mirrors schema.List.
type List struct {
	Elem *Atom
	Rel  Relationship
	Keys []string
}

// Map mirrors schema.Map: a struct when Fields is set, a map when Elem is, both for a
// struct keeping unknown members. Elem nil means no other member is allowed.
type Map struct {
	Fields   map[string]*Atom
	Defaults map[string]any // the default of each field that has one (map-list key defaults)
	Elem     *Atom
	Rel      Relationship
}

// Field mirrors Map.FindField falling back to ElementType: the type of member name: its field, else the element type.
func (m *Map) Field(name string) (*Atom, bool) {
	if a, ok := m.Fields[name]; ok {
		return a, true
	}
	return m.Elem, false
}

var (
	// untypedAtomic mirrors schemaconv's __untyped_atomic_: any value, owned whole.
	untypedAtomic = &Atom{Scalar: Untyped}
	// deduced mirrors __untyped_deduced_: maps granular all the way down, lists atomic.
	deduced = &Atom{Scalar: Untyped}
)

func init() {
	untypedAtomic.List = &List{Elem: untypedAtomic, Rel: Atomic}
	untypedAtomic.Map = &Map{Elem: untypedAtomic, Rel: Atomic}
	deduced.List = &List{Elem: untypedAtomic, Rel: Atomic}
	deduced.Map = &Map{Elem: deduced, Rel: Granular}
}

// Deduced mirrors the deduced type of managedfields.NewDeducedTypeConverter: the type of an object nothing is known about: what upstream's deduced type
// converter gives a custom resource that keeps unknown fields at its root.
func Deduced() *Atom { return deduced }

// valueKind classifies a JSON value for deduction.
type valueKind uint8

const (
	vNull valueKind = iota
	vScalar
	vList
	vMap
)

func kindOf(v any) valueKind {
	switch v.(type) {
	case nil:
		return vNull
	case []any:
		return vList
	case map[string]any:
		return vMap
	}
	return vScalar
}

// deduce mirrors deduceAtom: a value of one kind picks that part of an untyped atom.
func deduce(a *Atom, v any, has bool) Atom {
	if !has {
		return *a
	}
	switch kindOf(v) {
	case vScalar:
		if a.Scalar != NoScalar {
			return Atom{Scalar: a.Scalar}
		}
	case vList:
		if a.List != nil {
			return Atom{List: a.List}
		}
	case vMap:
		if a.Map != nil {
			return Atom{Map: a.Map}
		}
	}
	return *a
}

// equalAtoms mirrors Atom.Equals as the walks use it: the same parts.
func equalAtoms(a, b Atom) bool {
	return a.Scalar == b.Scalar && a.List == b.List && a.Map == b.Map
}
