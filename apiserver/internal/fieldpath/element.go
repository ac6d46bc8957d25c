package fieldpath

import (
	"fmt"
	"strings"
)

// ElementKind mirrors which of PathElement's four pointers upstream sets: which of the four kinds a PathElement is.
type ElementKind uint8

// The kinds, in the order upstream sorts them.
const (
	FieldKind ElementKind = iota + 1 // a struct field or map key: f:name
	KeyKind                          // the key of a map-list item: k:{"name":"a"}
	ValueKind                        // the value of a set item: v:"a"
	IndexKind                        // an index into an atomic-list walk: i:3
)

// KeyField is one field of a map-list item's key. It mirrors value.Field.
type KeyField struct {
	Name  string
	Value any
}

// PathElement mirrors fieldpath.PathElement: one step into an object.
type PathElement struct {
	Kind  ElementKind
	Name  string     // FieldKind
	Key   []KeyField // KeyKind, sorted by Name
	Value any        // ValueKind
	Index int        // IndexKind
}

// Field mirrors fieldpath.FieldNameElement.
func Field(name string) PathElement { return PathElement{Kind: FieldKind, Name: name} }

// Key mirrors fieldpath.KeyByFields: name/value pairs, sorted by name.
func Key(nameValues ...any) PathElement {
	if len(nameValues)%2 != 0 {
		panic("fieldpath.Key: a value for every name")
	}
	fields := make([]KeyField, 0, len(nameValues)/2)
	for i := 0; i < len(nameValues); i += 2 {
		fields = append(fields, KeyField{Name: nameValues[i].(string), Value: nameValues[i+1]})
	}
	return KeyOf(fields)
}

// KeyOf mirrors fieldpath.KeyElement: the fields are sorted by name (stably, as upstream).
func KeyOf(fields []KeyField) PathElement {
	for i := 1; i < len(fields); i++ { // insertion sort: stable, and keys have one or two fields
		for j := i; j > 0 && fields[j].Name < fields[j-1].Name; j-- {
			fields[j], fields[j-1] = fields[j-1], fields[j]
		}
	}
	return PathElement{Kind: KeyKind, Key: fields}
}

// Value mirrors fieldpath.ValueElement.
func Value(v any) PathElement { return PathElement{Kind: ValueKind, Value: v} }

// Index mirrors fieldpath.IndexElement.
func Index(i int) PathElement { return PathElement{Kind: IndexKind, Index: i} }

// Compare mirrors PathElement.Compare.
func (e PathElement) Compare(o PathElement) int {
	if e.Kind != o.Kind {
		if e.Kind < o.Kind {
			return -1
		}
		return 1
	}
	switch e.Kind {
	case FieldKind:
		return strings.Compare(e.Name, o.Name)
	case KeyKind:
		return compareKeys(e.Key, o.Key)
	case ValueKind:
		return CompareValues(e.Value, o.Value)
	case IndexKind:
		return cmp3(int64(e.Index), int64(o.Index))
	}
	return 0
}

// compareKeys mirrors value.FieldList.Compare.
func compareKeys(a, b []KeyField) int {
	for i := 0; ; i++ {
		switch {
		case i >= len(a) && i >= len(b):
			return 0
		case i >= len(a):
			return -1
		case i >= len(b):
			return 1
		}
		if c := strings.Compare(a[i].Name, b[i].Name); c != 0 {
			return c
		}
		if c := CompareValues(a[i].Value, b[i].Value); c != 0 {
			return c
		}
	}
}

// Less mirrors PathElement.Less.
func (e PathElement) Less(o PathElement) bool { return e.Compare(o) < 0 }

// Equals mirrors PathElement.Equals (values equal as value.Equals says).
func (e PathElement) Equals(o PathElement) bool {
	if e.Kind != o.Kind {
		return false
	}
	switch e.Kind {
	case FieldKind:
		return e.Name == o.Name
	case KeyKind:
		if len(e.Key) != len(o.Key) {
			return false
		}
		for i := range e.Key {
			if e.Key[i].Name != o.Key[i].Name || !EqualValues(e.Key[i].Value, o.Key[i].Value) {
				return false
			}
		}
		return true
	case ValueKind:
		return EqualValues(e.Value, o.Value)
	case IndexKind:
		return e.Index == o.Index
	}
	return true
}

// String mirrors PathElement.String: .name, [k=v,...], [=v], [i].
func (e PathElement) String() string {
	switch e.Kind {
	case FieldKind:
		return "." + e.Name
	case KeyKind:
		parts := make([]string, len(e.Key))
		for i, k := range e.Key {
			parts[i] = fmt.Sprintf("%v=%v", k.Name, valueString(k.Value))
		}
		return "[" + strings.Join(parts, ",") + "]"
	case ValueKind:
		return fmt.Sprintf("[=%v]", valueString(e.Value))
	case IndexKind:
		return fmt.Sprintf("[%v]", e.Index)
	}
	return "{{invalid path element}}"
}

// Path mirrors fieldpath.Path: a sequence of elements from the root.
type Path []PathElement

// MakePath mirrors fieldpath.MakePathOrDie for the common case: strings are field names,
// ints indexes, PathElements themselves.
func MakePath(parts ...any) Path {
	p := make(Path, 0, len(parts))
	for _, part := range parts {
		switch t := part.(type) {
		case string:
			p = append(p, Field(t))
		case int:
			p = append(p, Index(t))
		case PathElement:
			p = append(p, t)
		default:
			panic(fmt.Sprintf("fieldpath.MakePath: unsupported part %T", part))
		}
	}
	return p
}

// String mirrors Path.String: the elements' strings joined.
func (p Path) String() string {
	var b strings.Builder
	for _, e := range p {
		b.WriteString(e.String())
	}
	return b.String()
}

// Compare mirrors Path.Compare: element by element, a prefix first.
func (p Path) Compare(o Path) int {
	for i := 0; i < len(p) && i < len(o); i++ {
		if c := p[i].Compare(o[i]); c != 0 {
			return c
		}
	}
	return cmp3(int64(len(p)), int64(len(o)))
}

// Equals mirrors Path.Equals.
func (p Path) Equals(o Path) bool {
	if len(p) != len(o) {
		return false
	}
	for i := range p {
		if !p[i].Equals(o[i]) {
			return false
		}
	}
	return true
}

// Copy mirrors Path.Copy: a path that shares no backing array with p.
func (p Path) Copy() Path { return append(Path(nil), p...) }
