package schema

import (
	"strings"

	"github.com/informer-lab/informer-lab/api"
)

// Kind says how a JSON value is decoded against a schema node.
type Kind uint8

const (
	// KindAny accepts any JSON value and keeps it whole (RawExtension, FieldsV1, a schema
	// without a type).
	KindAny Kind = iota
	// KindObject is a struct: known properties, and unknown members pruned unless the node
	// preserves unknown fields.
	KindObject
	// KindMap is an object whose members all follow Values (additionalProperties).
	KindMap
	// KindFreeObject is an object without properties: any members, kept.
	KindFreeObject
	// KindArray is a list of Items.
	KindArray
	// KindString is a string; Format may be byte or date-time.
	KindString
	// KindInteger is an integer; Format int32 bounds it.
	KindInteger
	// KindNumber is a floating-point number.
	KindNumber
	// KindBoolean is true or false.
	KindBoolean
	// KindIntOrString is intstr.IntOrString: an int32 or a string.
	KindIntOrString
	// KindQuantity is resource.Quantity: a string in the quantity grammar, or a number.
	KindQuantity
)

// Schema is one resolved node of an OpenAPI v3 schema: $refs are followed, so a node's
// children are Schemas themselves. A Schema is immutable once returned.
type Schema struct {
	Kind Kind
	// Name is the definition name (io.k8s.api.core.v1.Container) of a node that is a
	// definition of components.schemas, else "".
	Name string
	// Format is the OpenAPI format: int32, int64, double, byte, date-time.
	Format string
	// Properties of a KindObject, by member name.
	Properties map[string]*Property
	// Required lists the members of a KindObject that must be present, in schema order.
	Required []string
	// Items is the element schema of a KindArray.
	Items *Schema
	// Values is the value schema of a KindMap, or of a KindObject's other members.
	Values *Schema
	// PreserveUnknownFields keeps members a KindObject does not know
	// (x-kubernetes-preserve-unknown-fields).
	PreserveUnknownFields bool
	// GVKs lists x-kubernetes-group-version-kind.
	GVKs []api.GroupVersionKind

	resourceList bool // a core/v1 map of quantities: Go type v1.ResourceList
}

// Property is one member of an object schema. Name is the member name, shared by every
// decoded object so that known keys cost no allocation.
type Property struct {
	Name   string
	Schema *Schema
	// Via is the Go field of an inline embedded struct the member comes through
	// (VolumeSource for a Volume's configMap), which a type error's path names; else "".
	Via string
}

// Property finds the member name in a KindObject. The []byte lookup does not allocate.
func (s *Schema) Property(name []byte) (*Property, bool) {
	p, ok := s.Properties[string(name)]
	return p, ok
}

// Well-known definitions whose Go types decode themselves.
const (
	quantityName  = "io.k8s.apimachinery.pkg.api.resource.Quantity"
	microTimeName = "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime"
)

// StructName is the Go type name, without package, of a named definition ("Container"):
// what encoding/json prints before a field path in a type error.
func (s *Schema) StructName() string {
	if s == nil || s.Name == "" {
		return ""
	}
	return s.Name[strings.LastIndexByte(s.Name, '.')+1:]
}

// GoType is the Go type a value of s decodes into upstream, as reflect prints it:
// "int32", "[]v1.Container", "map[string]string", "v1.DeploymentSpec". Named definitions
// print as package.Name, the package being the definition name's second-to-last label.
func (s *Schema) GoType() string {
	if s == nil {
		return "interface {}"
	}
	if s.Name != "" {
		n := s.Name
		i := strings.LastIndexByte(n, '.')
		j := strings.LastIndexByte(n[:max(i, 0)], '.')
		return n[j+1:]
	}
	switch s.Kind {
	case KindObject, KindFreeObject, KindAny:
		if s.Kind == KindAny {
			return "interface {}"
		}
		return "map[string]interface {}"
	case KindMap:
		if s.resourceList {
			return "v1.ResourceList"
		}
		return "map[string]" + s.Values.GoType()
	case KindArray:
		return "[]" + s.Items.GoType()
	case KindString:
		if s.Format == "byte" {
			return "[]uint8"
		}
		return "string"
	case KindInteger:
		if s.Format == "int32" {
			return "int32"
		}
		return "int64"
	case KindNumber:
		if s.Format == "float" {
			return "float32"
		}
		return "float64"
	case KindBoolean:
		return "bool"
	case KindIntOrString:
		return "intstr.IntOrString"
	case KindQuantity:
		return "resource.Quantity"
	}
	return "interface {}"
}

// Member finds the schema of member name of an object node: a property, else the values
// of a map (or an object's additionalProperties), else KindAny when the node keeps
// unknown members. known is false for a member the node would prune.
func (s *Schema) Member(name string) (child *Schema, known bool) {
	if s == nil {
		return nil, true
	}
	if p, ok := s.Properties[name]; ok {
		return p.Schema, true
	}
	if s.Values != nil {
		return s.Values, true
	}
	if s.PreservesUnknown() {
		return nil, true
	}
	return nil, false
}

// PreservesUnknown reports whether members an object node does not know are kept.
func (s *Schema) PreservesUnknown() bool {
	return s == nil || s.PreserveUnknownFields || s.Kind == KindAny || s.Kind == KindFreeObject
}

// Missing lists the required members of s that m lacks, in schema order.
func (s *Schema) Missing(m map[string]any) []string {
	var out []string
	for _, name := range s.Required {
		if _, ok := m[name]; !ok {
			out = append(out, name)
		}
	}
	return out
}

// Zero is what a JSON null decodes to where it cannot be dropped (an array element, a map
// value): the Go zero value as it encodes, nil when that is null.
func (s *Schema) Zero() any {
	if s == nil {
		return nil
	}
	switch s.Kind {
	case KindObject:
		return map[string]any{}
	case KindString:
		if s.Format == "" {
			return ""
		}
	case KindInteger, KindIntOrString:
		return int64(0)
	case KindNumber:
		return float64(0)
	case KindBoolean:
		return false
	case KindQuantity:
		return "0"
	}
	return nil
}
