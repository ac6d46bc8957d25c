package protobuf

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"
)

// maxDepth bounds the nesting of messages, so hostile input (an envelope inside a
// RawExtension inside an envelope, …) cannot exhaust the stack.
const maxDepth = 64

// encoder turns a JSON tree into protobuf bytes, field by field in number order, as the
// generated Marshal methods of k8s.io/api do.
type encoder struct {
	c     *Codec
	depth int
	keys  []string // a stack of map keys being sorted, reused across maps
}

// message writes the fields of m found in obj. A field the tree lacks is the Go zero value:
// written if the Go field is not a pointer, slice or map, skipped otherwise.
func (e *encoder) message(b []byte, m *message, obj map[string]any) ([]byte, error) {
	e.depth++
	defer func() { e.depth-- }()
	if e.depth > maxDepth {
		return b, fmt.Errorf("protobuf: %s: nested too deeply", m.name)
	}
	var err error
	for _, f := range m.fields {
		if f.inline {
			var start int
			b, start = beginNested(b, f.num)
			if b, err = e.value(b, f.msg, obj); err != nil {
				return b, err
			}
			b = endNested(b, start)
			continue
		}
		v := obj[f.json]
		if b, err = e.field(b, m, f, v); err != nil {
			return b, err
		}
	}
	return b, nil
}

func (e *encoder) field(b []byte, m *message, f *field, v any) ([]byte, error) {
	var err error
	switch {
	case f.kind == kMap:
		if v == nil {
			return b, nil
		}
		mv, ok := v.(map[string]any)
		if !ok {
			return b, typeError(m, f, "an object", v)
		}
		return e.mapField(b, m, f, mv)
	case f.repeated:
		if v == nil {
			return b, nil
		}
		list, ok := v.([]any)
		if !ok {
			return b, typeError(m, f, "an array", v)
		}
		for _, el := range list {
			if f.kind == kMessage {
				var start int
				b, start = beginNested(b, f.num)
				if b, err = e.value(b, f.msg, el); err != nil {
					return b, err
				}
				b = endNested(b, start)
				continue
			}
			if el == nil && f.kind == kBytes {
				el = ""
			}
			if b, err = e.scalar(b, m, f, f.kind, f.num, el); err != nil {
				return b, err
			}
		}
		return b, nil
	case v == nil && f.nullable:
		return b, nil
	case f.kind == kMessage:
		var start int
		b, start = beginNested(b, f.num)
		if b, err = e.value(b, f.msg, v); err != nil {
			return b, err
		}
		return endNested(b, start), nil
	default:
		return e.scalar(b, m, f, f.kind, f.num, v)
	}
}

// mapField writes one entry message per key, keys sorted bytewise as the generated code
// sorts them; the key is field 1 and the value field 2 of each entry.
func (e *encoder) mapField(b []byte, m *message, f *field, mv map[string]any) ([]byte, error) {
	// the keys go on the encoder's stack: a value may hold maps of its own
	base := len(e.keys)
	for k := range mv {
		e.keys = append(e.keys, k)
	}
	slices.Sort(e.keys[base:])
	defer func() { e.keys = e.keys[:base] }()
	var err error
	for i := range len(mv) {
		k := e.keys[base+i]
		v := mv[k]
		var start int
		b, start = beginNested(b, f.num)
		if f.key == kString {
			b = appendStringField(b, 1, k)
		} else {
			if b, err = e.scalar(b, m, f, f.key, 1, k); err != nil {
				return b, err
			}
		}
		switch {
		case f.value == kMessage:
			var vs int
			b, vs = beginNested(b, 2)
			if b, err = e.value(b, f.msg, v); err != nil {
				return b, err
			}
			b = endNested(b, vs)
		case f.value == kBytes && v == nil:
			// a nil []byte value is left out of the entry
		default:
			if b, err = e.scalar(b, m, f, f.value, 2, v); err != nil {
				return b, err
			}
		}
		b = endNested(b, start)
	}
	return b, nil
}

// value writes the content of a message (without its tag and length).
func (e *encoder) value(b []byte, m *message, v any) ([]byte, error) {
	switch m.special {
	case spTime, spMicroTime:
		return encodeTime(b, m, v)
	case spDuration:
		if v == nil {
			return appendVarint(append(b, 0x08), 0), nil
		}
		s, ok := v.(string)
		if !ok {
			return b, fmt.Errorf("protobuf: Duration: want a string, got %T", v)
		}
		d, err := time.ParseDuration(s)
		if err != nil {
			return b, fmt.Errorf("protobuf: Duration: %w", err)
		}
		return appendVarint(append(b, 0x08), uint64(d)), nil
	case spQuantity:
		s, err := quantityString(v)
		if err != nil {
			return b, err
		}
		return appendStringField(b, 1, s), nil
	case spIntOrString:
		switch x := v.(type) {
		case string:
			b = append(b, 0x08, 0x01, 0x10, 0x00)
			return appendStringField(b, 3, x), nil
		case nil:
			return append(b, 0x08, 0x00, 0x10, 0x00, 0x1a, 0x00), nil
		default:
			i, err := toInt(x)
			if err != nil || i != int64(int32(i)) {
				return b, fmt.Errorf("protobuf: IntOrString: want a string or an int32, got %v", v)
			}
			b = append(b, 0x08, 0x00, 0x10)
			b = appendVarint(b, uint64(i))
			return append(b, 0x1a, 0x00), nil
		}
	case spStringList:
		items, ok := v.([]any)
		if !ok && v != nil {
			return b, fmt.Errorf("protobuf: %s: want a list, got %T", m.name, v)
		}
		for _, it := range items {
			s, ok := it.(string)
			if !ok {
				return b, fmt.Errorf("protobuf: %s: want a string, got %T", m.name, it)
			}
			b = appendStringField(b, 1, s)
		}
		return b, nil
	case spSchemaOrArray, spSchemaOrBool, spSchemaOrStringArray:
		return e.schemaOr(b, m, v)
	case spRawExtension, spFieldsV1, spJSON:
		if v == nil {
			return b, nil
		}
		// the document is written in place, after a one-byte length shifted if need be
		var start int
		b, start = beginNested(b, 1)
		b, err := appendJSON(b, v)
		if err != nil {
			return b, fmt.Errorf("protobuf: %s: %w", m.name, err)
		}
		return endNested(b, start), nil
	}
	if v == nil {
		v = map[string]any(nil)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return b, fmt.Errorf("protobuf: %s: want an object, got %T", m.name, v)
	}
	if m.name == metaWatchEvent {
		return e.watchEvent(b, obj)
	}
	return e.message(b, m, obj)
}

// encodeTime writes a Timestamp: seconds always, and nanoseconds that are zero for Time
// (its JSON keeps whole seconds) and whole microseconds for MicroTime. A zero time writes
// nothing, so the field is present with length zero.
func encodeTime(b []byte, m *message, v any) ([]byte, error) {
	if v == nil {
		return b, nil
	}
	s, ok := v.(string)
	if !ok {
		return b, fmt.Errorf("protobuf: %s: want a string, got %T", m.name, v)
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return b, fmt.Errorf("protobuf: %s: %w", m.name, err)
	}
	if t.IsZero() {
		return b, nil
	}
	var nanos int64
	if m.special == spMicroTime {
		nanos = int64(time.Duration(t.Nanosecond()).Truncate(time.Microsecond))
	}
	b = appendVarint(append(b, 0x08), uint64(t.Unix()))
	return appendVarint(append(b, 0x10), uint64(nanos)), nil
}

// quantityString accepts what Quantity's JSON decoder accepts: a string, a bare number, or
// null for zero. The string is sent as it is; canonicalising it is the caller's business.
func quantityString(v any) (string, error) {
	switch x := v.(type) {
	case nil:
		return "0", nil
	case string:
		return x, nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), nil
	case int:
		return strconv.Itoa(x), nil
	case json.Number:
		return string(x), nil
	}
	return "", fmt.Errorf("protobuf: Quantity: want a string, got %T", v)
}

// scalar writes one scalar field. A nil value is the zero value.
func (e *encoder) scalar(b []byte, m *message, f *field, k kind, num int, v any) ([]byte, error) {
	switch k {
	case kString:
		s, ok := v.(string)
		if !ok && v != nil {
			return b, typeError(m, f, "a string", v)
		}
		return appendStringField(b, num, s), nil
	case kBytes:
		s, ok := v.(string)
		if !ok && v != nil {
			return b, typeError(m, f, "a base64 string", v)
		}
		raw, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return b, fmt.Errorf("protobuf: %s.%s: %w", m.name, f.json, err)
		}
		return appendBytesField(b, num, raw), nil
	case kBool:
		x, ok := v.(bool)
		if !ok && v != nil {
			return b, typeError(m, f, "a boolean", v)
		}
		b = appendTag(b, num, wireVarint)
		if x {
			return append(b, 1), nil
		}
		return append(b, 0), nil
	case kDouble, kFloat:
		x, err := toFloat(v)
		if err != nil {
			return b, typeError(m, f, "a number", v)
		}
		if k == kFloat {
			b = appendTag(b, num, wireFixed32)
			return binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(x))), nil
		}
		b = appendTag(b, num, wireFixed64)
		return binary.LittleEndian.AppendUint64(b, math.Float64bits(x)), nil
	}
	var i int64
	if s, ok := v.(string); ok && num == 1 && f.kind == kMap {
		// an integer map key arrives as the JSON object's member name
		var err error
		if i, err = strconv.ParseInt(s, 10, 64); err != nil {
			return b, typeError(m, f, "an integer key", v)
		}
	} else if v != nil {
		var err error
		if i, err = toInt(v); err != nil {
			return b, typeError(m, f, "an integer", v)
		}
	}
	switch k {
	case kInt32:
		if i != int64(int32(i)) {
			return b, fmt.Errorf("protobuf: %s.%s: %d overflows int32", m.name, f.json, i)
		}
	case kUint32:
		if i < 0 || i > math.MaxUint32 {
			return b, fmt.Errorf("protobuf: %s.%s: %d overflows uint32", m.name, f.json, i)
		}
	}
	b = appendTag(b, num, wireVarint)
	return appendVarint(b, uint64(i)), nil
}

func toInt(v any) (int64, error) {
	switch x := v.(type) {
	case int64:
		return x, nil
	case int:
		return int64(x), nil
	case int32:
		return int64(x), nil
	case float64:
		if x != math.Trunc(x) || x < math.MinInt64 || x >= math.MaxInt64 {
			return 0, fmt.Errorf("not an integer: %v", x)
		}
		return int64(x), nil
	case json.Number:
		return x.Int64()
	}
	return 0, fmt.Errorf("not an integer: %T", v)
}

func toFloat(v any) (float64, error) {
	switch x := v.(type) {
	case nil:
		return 0, nil
	case float64:
		return x, nil
	case int64:
		return float64(x), nil
	case int:
		return float64(x), nil
	case json.Number:
		return x.Float64()
	}
	return 0, fmt.Errorf("not a number: %T", v)
}

func typeError(m *message, f *field, want string, got any) error {
	return fmt.Errorf("protobuf: %s.%s: want %s, got %T", m.name, f.json, want, got)
}
