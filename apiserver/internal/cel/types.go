package cel

import "strings"

// Kind is the kind of a CEL type.
type Kind uint8

// The kinds of CEL types the checker knows.
const (
	DynKind Kind = iota
	IntKind
	UintKind
	DoubleKind
	BoolKind
	StringKind
	BytesKind
	NullKind
	DurationKind
	TimestampKind
	ListKind
	MapKind
	TypeKind
	ErrorKind
	OpaqueKind // optional_type and the Kubernetes library types
	ObjectKind // a structural schema's object with declared properties
	ParamKind  // a type parameter of an overload
	AnyKind
)

// Type is a CEL type, as the checker sees it; type values at run time are *Type too.
// Object types carry their fields; MaxElements bounds the size of strings, bytes, lists
// and maps for the cost estimator (from maxLength, maxItems, maxProperties).
type Type struct {
	Kind   Kind
	Name   string
	Params []*Type
	Fields map[string]*Type
	// MaxElements is the declared or estimated bound on size(); 0 when unknown.
	MaxElements int64
	// MinSerializedSize is the smallest JSON encoding of a value of the type, for the
	// cardinality estimates of the schema conversion.
	MinSerializedSize int64
}

// The simple types.
var (
	DynType       = &Type{Kind: DynKind, Name: "dyn"}
	IntType       = &Type{Kind: IntKind, Name: "int"}
	UintType      = &Type{Kind: UintKind, Name: "uint"}
	DoubleType    = &Type{Kind: DoubleKind, Name: "double"}
	BoolType      = &Type{Kind: BoolKind, Name: "bool"}
	StringType    = &Type{Kind: StringKind, Name: "string"}
	BytesType     = &Type{Kind: BytesKind, Name: "bytes"}
	NullType      = &Type{Kind: NullKind, Name: "null_type"}
	DurationType  = &Type{Kind: DurationKind, Name: "google.protobuf.Duration"}
	TimestampType = &Type{Kind: TimestampKind, Name: "google.protobuf.Timestamp"}
	ErrorType     = &Type{Kind: ErrorKind, Name: "*error*"}
	AnyType       = &Type{Kind: AnyKind, Name: "google.protobuf.Any"}
	TypeType      = &Type{Kind: TypeKind, Name: "type"}
	// runtime type values of list, map and optional_type, whatever their parameters.
	listTypeValue = &Type{Kind: ListKind, Name: "list"}
	mapTypeValue  = &Type{Kind: MapKind, Name: "map"}
	optTypeValue  = &Type{Kind: OpaqueKind, Name: "optional_type"}
)

// ListType is list(elem).
func ListType(elem *Type) *Type { return &Type{Kind: ListKind, Name: "list", Params: []*Type{elem}} }

// MapType is map(key, val).
func MapType(key, val *Type) *Type {
	return &Type{Kind: MapKind, Name: "map", Params: []*Type{key, val}}
}

// TypeOf is type(t), the type of a type value.
func TypeOf(t *Type) *Type { return &Type{Kind: TypeKind, Name: "type", Params: []*Type{t}} }

// OptionalType is optional_type(t).
func OptionalType(t *Type) *Type {
	return &Type{Kind: OpaqueKind, Name: "optional_type", Params: []*Type{t}}
}

// OpaqueType is a library's named type, such as kubernetes.Quantity.
func OpaqueType(name string, params ...*Type) *Type {
	return &Type{Kind: OpaqueKind, Name: name, Params: params}
}

// ObjectType is a named record type with the given fields.
func ObjectType(name string, fields map[string]*Type) *Type {
	return &Type{Kind: ObjectKind, Name: name, Fields: fields}
}

func paramType(name string) *Type { return &Type{Kind: ParamKind, Name: name} }

func (t *Type) elem() *Type {
	if len(t.Params) > 0 {
		return t.Params[0]
	}
	return DynType
}

func (t *Type) key() *Type { return t.elem() }

func (t *Type) val() *Type {
	if len(t.Params) > 1 {
		return t.Params[1]
	}
	return DynType
}

func (t *Type) isOptional() bool { return t.Kind == OpaqueKind && t.Name == "optional_type" }

// String formats a type the way cel-go's checker prints it in messages.
func (t *Type) String() string {
	switch t.Kind {
	case ListKind:
		return "list(" + t.elem().String() + ")"
	case MapKind:
		return "map(" + t.key().String() + ", " + t.val().String() + ")"
	case TypeKind:
		if len(t.Params) == 0 {
			return "type"
		}
		return "type(" + t.Params[0].String() + ")"
	case OpaqueKind:
		if len(t.Params) == 0 {
			return t.Name
		}
		var ps []string
		for _, p := range t.Params {
			ps = append(ps, p.String())
		}
		return t.Name + "(" + strings.Join(ps, ", ") + ")"
	}
	return t.Name
}

// equalTypes reports whether a and b are the same type, parameters included.
func equalTypes(a, b *Type) bool {
	if a == b {
		return true
	}
	if a.Kind != b.Kind || a.Name != b.Name || len(a.Params) != len(b.Params) {
		return false
	}
	for i := range a.Params {
		if !equalTypes(a.Params[i], b.Params[i]) {
			return false
		}
	}
	return true
}
