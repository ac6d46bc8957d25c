package openapi

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// The protobuf form of /openapi/v2 (application/com.github.proto-openapi.spec.v2.v1.0+protobuf):
// gnostic's openapi_v2.Document message, which kube-openapi's handler builds with
// openapi_v2.ParseDocument from the JSON document and marshals (k8s.io/kube-openapi
// pkg/handler/handler.go, ToProtoBinary). ToProto reads the same JSON tree the way gnostic's
// compiler reads it (github.com/google/gnostic-models openapiv2/OpenAPIv2.go) and writes the
// message as google.golang.org/protobuf does: fields in number order, a scalar only when it
// is not its zero value, a message whenever the document has it. Named maps become repeated
// name/value pairs in document order, and every vendor extension, default, example and enum
// value an Any carrying its YAML text.

// ToProto mirrors ToProtoBinary of k8s.io/kube-openapi pkg/handler/handler.go: the
// openapi_v2.Document message of a Swagger 2.0 document. It fails where gnostic's compiler
// fails (an unknown keyword, a missing required one, a value of the wrong type), which
// makes kube-apiserver answer 503.
func ToProto(doc *Node) ([]byte, error) {
	specsOnce.Do(buildSpecs)
	e := &encoder{yaml: map[string]string{}}
	return e.message(documentSpec, doc, "$root")
}

type encoder struct {
	yaml map[string]string // Any texts by the JSON they were written from
}

// Wire helpers: every field is a tag (number << 3 | wire type) then its payload.

func appendTag(b []byte, num int, wire byte) []byte {
	return binary.AppendUvarint(b, uint64(num)<<3|uint64(wire))
}

func appendLen(b []byte, num int, payload []byte) []byte {
	b = appendTag(b, num, 2)
	b = binary.AppendUvarint(b, uint64(len(payload)))
	return append(b, payload...)
}

func appendString(b []byte, num int, s string) []byte { return appendLen(b, num, []byte(s)) }

// fieldKind says how a member of a JSON object becomes a field.
type fieldKind uint8

const (
	kString  fieldKind = iota // string, written when not empty
	kBool                     // bool, written when true
	kDouble                   // double, written when not 0
	kInt64                    // int64, written when not 0
	kStrings                  // repeated string from a list
	kMessage                  // a message of spec msg
	kList                     // repeated message of spec msg, one per list item
	kAny                      // an Any
	kAnys                     // repeated Any, one per list item
)

type fieldSpec struct {
	key  string
	num  int
	kind fieldKind
	msg  *msgSpec
}

// msgSpec describes one gnostic message read from a JSON object. A message that is no plain
// object of keywords (a named map, a oneof) has encode instead of fields.
type msgSpec struct {
	name     string
	required []string
	allowed  []string
	enums    map[string][]string
	fields   []fieldSpec // in field-number order
	vendor   int         // the vendor_extension field, 0 when the message has none
	encode   func(e *encoder, n *Node, path string) ([]byte, error)
}

func (e *encoder) message(spec *msgSpec, n *Node, path string) ([]byte, error) {
	if spec.encode != nil {
		return spec.encode(e, n, path)
	}
	if n.Kind != Object {
		// gnostic reads a value that is no map as a map without members.
		return []byte{}, nil
	}
	if err := checkKeys(spec, n, path); err != nil {
		return nil, err
	}
	var b []byte
	for _, f := range spec.fields {
		v := n.Get(f.key)
		if v == nil {
			continue
		}
		var err error
		if b, err = e.field(b, f, v, path+"."+f.key); err != nil {
			return nil, err
		}
	}
	if spec.vendor > 0 {
		var err error
		if b, err = e.vendorExtensions(b, spec.vendor, n, path); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// checkKeys fails as gnostic does on a missing required keyword, a keyword the message does
// not allow (x- extensions aside) and a value outside a keyword's enum.
func checkKeys(spec *msgSpec, n *Node, path string) error {
	for _, k := range spec.required {
		if n.Get(k) == nil {
			return fmt.Errorf("%s is missing required property: %s", path, k)
		}
	}
	for _, k := range n.Keys {
		if !slices.Contains(spec.allowed, k) && !(spec.vendor > 0 && strings.HasPrefix(k, "x-")) {
			return fmt.Errorf("%s has invalid property: %s", path, k)
		}
	}
	for k, values := range spec.enums {
		if v := n.Get(k); v != nil && (v.Kind == String || v.Kind == Number) && !slices.Contains(values, v.Text) {
			return fmt.Errorf("%s has unexpected value for %s: %s", path, k, v.Text)
		}
	}
	return nil
}

func (e *encoder) field(b []byte, f fieldSpec, v *Node, path string) ([]byte, error) {
	switch f.kind {
	case kString:
		s, ok := scalarString(v)
		if !ok {
			return nil, fmt.Errorf("%s: has unexpected value", path)
		}
		if s != "" {
			b = appendString(b, f.num, s)
		}
	case kBool:
		if v.Kind != Bool {
			return nil, fmt.Errorf("%s: has unexpected value", path)
		}
		if v.Text == "true" {
			b = appendTag(b, f.num, 0)
			b = append(b, 1)
		}
	case kDouble:
		if v.Kind != Number {
			return nil, fmt.Errorf("%s: has unexpected value", path)
		}
		d, err := strconv.ParseFloat(v.Text, 64)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if math.Float64bits(d) != 0 {
			b = appendTag(b, f.num, 1)
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(d))
		}
	case kInt64:
		i, err := strconv.ParseInt(v.Text, 10, 64)
		if v.Kind != Number || err != nil {
			return nil, fmt.Errorf("%s: has unexpected value", path)
		}
		if i != 0 {
			b = appendTag(b, f.num, 0)
			b = binary.AppendUvarint(b, uint64(i))
		}
	case kStrings:
		if v.Kind != Array {
			return nil, fmt.Errorf("%s: has unexpected value", path)
		}
		for _, item := range v.Values {
			if s, ok := scalarString(item); ok {
				b = appendString(b, f.num, s)
			}
		}
	case kMessage:
		m, err := e.message(f.msg, v, path)
		if err != nil {
			return nil, err
		}
		b = appendLen(b, f.num, m)
	case kList:
		if v.Kind != Array {
			return nil, fmt.Errorf("%s: has unexpected value", path)
		}
		for i, item := range v.Values {
			m, err := e.message(f.msg, item, fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				return nil, err
			}
			b = appendLen(b, f.num, m)
		}
	case kAny:
		a, err := e.any(v)
		if err != nil {
			return nil, err
		}
		b = appendLen(b, f.num, a)
	case kAnys:
		if v.Kind != Array {
			return nil, fmt.Errorf("%s: has unexpected value", path)
		}
		for _, item := range v.Values {
			a, err := e.any(item)
			if err != nil {
				return nil, err
			}
			b = appendLen(b, f.num, a)
		}
	}
	return b, nil
}

// scalarString mirrors compiler.StringForScalarNode: a string, an integer's text, "" for
// null; a bool or a float is no string.
func scalarString(v *Node) (string, bool) {
	switch v.Kind {
	case String:
		return v.Text, true
	case Null:
		return "", true
	case Number:
		if _, err := strconv.ParseInt(v.Text, 10, 64); err == nil {
			return v.Text, true
		}
	}
	return "", false
}

// vendorExtensions writes every x- member of n as a NamedAny, in document order.
func (e *encoder) vendorExtensions(b []byte, num int, n *Node, path string) ([]byte, error) {
	for i, k := range n.Keys {
		if !strings.HasPrefix(k, "x-") {
			continue
		}
		named, err := e.namedAny(k, n.Values[i])
		if err != nil {
			return nil, fmt.Errorf("%s.%s: %w", path, k, err)
		}
		b = appendLen(b, num, named)
	}
	return b, nil
}

func (e *encoder) namedAny(name string, v *Node) ([]byte, error) {
	var b []byte
	if name != "" {
		b = appendString(b, 1, name)
	}
	a, err := e.any(v)
	if err != nil {
		return nil, err
	}
	return appendLen(b, 2, a), nil
}

// any is an openapi_v2.Any: the value as YAML (field 2), as gnostic's NewAny writes it with
// compiler.Marshal: the node parsed from the JSON, its styles cleared, marshalled by yaml.v3.
func (e *encoder) any(v *Node) ([]byte, error) {
	text := string(v.JSON())
	out, ok := e.yaml[text]
	if !ok {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
			return nil, err
		}
		node := &doc
		if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
			node = doc.Content[0]
		}
		clearStyle(node)
		data, err := yaml.Marshal(node)
		if err != nil {
			return nil, err
		}
		out = string(data)
		e.yaml[text] = out
	}
	return appendString(nil, 2, out), nil
}

func clearStyle(n *yaml.Node) {
	n.Style = 0
	for _, c := range n.Content {
		clearStyle(c)
	}
}
