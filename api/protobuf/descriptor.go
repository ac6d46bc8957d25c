package protobuf

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// fileDescriptor is one descriptor file: the messages of one proto package. The format is
// the one written by tools/cmd/proto-gen into internal/builtinproto/descriptors.
type fileDescriptor struct {
	Package  string                       `json:"package"`
	Messages map[string]messageDescriptor `json:"messages"`
}

type messageDescriptor struct {
	Fields  []fieldDescriptor `json:"fields"`
	Special string            `json:"special"`
}

type fieldDescriptor struct {
	JSON      string `json:"json"`
	Number    int    `json:"number"`
	Kind      string `json:"kind"`
	Type      string `json:"type"`
	Repeated  bool   `json:"repeated"`
	OmitEmpty bool   `json:"omitEmpty"`
	OmitZero  bool   `json:"omitZero"`
	Nullable  bool   `json:"nullable"`
	Inline    bool   `json:"inline"`
	Key       string `json:"key"`
	Value     string `json:"value"`
	ValueType string `json:"valueType"`
}

// kind is a field's value type, resolved once when the codec is built.
type kind uint8

const (
	kString kind = iota + 1
	kBytes
	kBool
	kInt32
	kInt64
	kUint32
	kUint64
	kDouble
	kFloat
	kMessage
	kMap
)

var kindNames = map[string]kind{
	"string": kString, "bytes": kBytes, "bool": kBool, "int32": kInt32, "int64": kInt64,
	"uint32": kUint32, "uint64": kUint64, "double": kDouble, "float": kFloat,
	"message": kMessage, "map": kMap,
}

// special names the Go types whose protobuf and JSON forms are written by hand upstream
// rather than derived from their fields.
type special uint8

const (
	plain special = iota
	spTime
	spMicroTime
	spDuration
	spQuantity
	spIntOrString
	spRawExtension
	spFieldsV1
	// spStringList is a named []string (the reviews' and CSRs' ExtraValue): a message of one
	// repeated string, items = 1, whose JSON is the list itself.
	spStringList
	// spJSON is apiextensions' JSON: the embedded document (raw = 1), as FieldsV1.
	spJSON
	// spSchemaOrArray, spSchemaOrBool and spSchemaOrStringArray are apiextensions'
	// JSONSchemaPropsOr*: a schema, or a list of schemas, a bool or a list of strings
	// (schema_or.go).
	spSchemaOrArray
	spSchemaOrBool
	spSchemaOrStringArray
)

var specials = map[string]special{
	"k8s.io.apimachinery.pkg.apis.meta.v1.Time":       spTime,
	"k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime":  spMicroTime,
	"k8s.io.apimachinery.pkg.apis.meta.v1.Duration":   spDuration,
	"k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1":   spFieldsV1,
	"k8s.io.apimachinery.pkg.api.resource.Quantity":   spQuantity,
	"k8s.io.apimachinery.pkg.util.intstr.IntOrString": spIntOrString,
	"k8s.io.apimachinery.pkg.runtime.RawExtension":    spRawExtension,
}

// specialNames maps the descriptor's "special" member to the same kinds, for a special
// message under another name; "Unknown" is an ordinary message here.
var specialNames = map[string]special{
	"Time": spTime, "MicroTime": spMicroTime, "Duration": spDuration, "FieldsV1": spFieldsV1,
	"Quantity": spQuantity, "IntOrString": spIntOrString, "RawExtension": spRawExtension,
	"StringList": spStringList, "JSON": spJSON, "SchemaOrArray": spSchemaOrArray,
	"SchemaOrBool": spSchemaOrBool, "SchemaOrStringArray": spSchemaOrStringArray,
}

type message struct {
	name    string
	special special
	fields  []*field // in field-number order
	byNum   []*field // indexed by field number; nil where the number is unused
	// sizeHint sizes a decoded object's map: the members always present, plus a few
	sizeHint int
}

type field struct {
	json      string
	num       int
	kind      kind
	repeated  bool
	omitEmpty bool
	omitZero  bool
	nullable  bool
	inline    bool
	msg       *message // kind message, or a map whose values are messages
	key       kind     // maps only
	value     kind     // maps only
	wire      int      // the wire type of one element
}

// compile parses the descriptor files and links every message reference.
func compile(files map[string][]byte) (map[string]*message, error) {
	msgs := map[string]*message{}
	type pending struct {
		f        *field
		typeName string
	}
	var links []pending
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		var fd fileDescriptor
		if err := json.Unmarshal(files[n], &fd); err != nil {
			return nil, fmt.Errorf("protobuf: descriptor %s: %w", n, err)
		}
		if fd.Package == "" {
			return nil, fmt.Errorf("protobuf: descriptor %s has no package", n)
		}
		for mn, md := range fd.Messages {
			full := fd.Package + "." + mn
			m := &message{name: full, special: specials[full]}
			if md.Special != "" && m.special == plain {
				m.special = specialNames[md.Special]
			}
			for _, d := range md.Fields {
				k, ok := kindNames[d.Kind]
				if !ok {
					return nil, fmt.Errorf("protobuf: %s.%s: unknown kind %q", full, d.JSON, d.Kind)
				}
				if d.Number <= 0 || d.Number > 1<<16 {
					return nil, fmt.Errorf("protobuf: %s.%s: bad field number %d", full, d.JSON, d.Number)
				}
				f := &field{json: d.JSON, num: d.Number, kind: k, repeated: d.Repeated,
					omitEmpty: d.OmitEmpty, omitZero: d.OmitZero, nullable: d.Nullable || d.Repeated,
					inline: d.Inline || (d.JSON == "" && k == kMessage)}
				switch k {
				case kMessage:
					links = append(links, pending{f, d.Type})
				case kMap:
					f.nullable = true
					if f.key, ok = kindNames[d.Key]; !ok || f.key == kMessage || f.key == kMap {
						return nil, fmt.Errorf("protobuf: %s.%s: bad map key %q", full, d.JSON, d.Key)
					}
					if f.value, ok = kindNames[d.Value]; !ok || f.value == kMap {
						return nil, fmt.Errorf("protobuf: %s.%s: bad map value %q", full, d.JSON, d.Value)
					}
					if f.value == kMessage {
						links = append(links, pending{f, d.ValueType})
					}
				case kBytes:
					f.nullable = true // a nil slice is not written
				}
				f.wire = wireOf(k)
				m.fields = append(m.fields, f)
			}
			sort.SliceStable(m.fields, func(i, j int) bool { return m.fields[i].num < m.fields[j].num })
			if n := len(m.fields); n > 0 {
				m.byNum = make([]*field, m.fields[n-1].num+1)
				for _, f := range m.fields {
					if m.byNum[f.num] != nil {
						return nil, fmt.Errorf("protobuf: %s: field number %d used twice", full, f.num)
					}
					m.byNum[f.num] = f
				}
			}
			for _, f := range m.fields {
				if !f.omitEmpty || (f.kind == kMessage && !f.nullable) {
					m.sizeHint++
				}
			}
			m.sizeHint = min(m.sizeHint+4, len(m.fields))
			msgs[full] = m
		}
	}
	for _, l := range links {
		t := strings.TrimPrefix(l.typeName, ".")
		m, ok := msgs[t]
		if !ok {
			return nil, fmt.Errorf("protobuf: field %s refers to unknown message %q", l.f.json, t)
		}
		l.f.msg = m
	}
	return msgs, nil
}

func wireOf(k kind) int {
	switch k {
	case kDouble:
		return wireFixed64
	case kFloat:
		return wireFixed32
	case kString, kBytes, kMessage, kMap:
		return wireBytes
	default:
		return wireVarint
	}
}
