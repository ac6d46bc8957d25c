package protobuf

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"strconv"
)

// rfc3339Micro is the layout MicroTime's JSON uses.
const rfc3339Micro = "2006-01-02T15:04:05.000000Z07:00"

// decoder turns protobuf bytes into the JSON tree encoding/json would write for the Go
// object the generated Unmarshal would fill.
type decoder struct {
	c     *Codec
	depth int
	// src is one string copy of the whole input, made on first need: every decoded string
	// is a substring of it, which saves an allocation per string. top is the input itself;
	// a value's offset in it is cap(top)-cap(value), as every value is a reslice of it.
	src string
	top []byte
	// filled counts the members filled in for fields missing from the wire (fill).
	filled int
}

func newDecoder(c *Codec, data []byte) *decoder {
	return &decoder{c: c, top: data}
}

// str returns b, a reslice of the input, as a string sharing the input's one copy.
func (d *decoder) str(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	off := cap(d.top) - cap(b)
	if d.top == nil || off < 0 || off+len(b) > len(d.top) {
		return string(b)
	}
	if d.src == "" {
		d.src = string(d.top)
	}
	return d.src[off : off+len(b)]
}

// message reads the fields of m from data into out. Unknown field numbers are skipped, as
// the generated code skips them; a known field with the wrong wire type is an error.
func (d *decoder) message(m *message, data []byte, out map[string]any) error {
	d.depth++
	defer func() { d.depth-- }()
	if d.depth > maxDepth {
		return fmt.Errorf("protobuf: %s: nested too deeply", m.name)
	}
	r := reader{b: data}
	for !r.done() {
		num, wt, err := r.tag()
		if err != nil {
			return err
		}
		var f *field
		if num < len(m.byNum) {
			f = m.byNum[num]
		}
		if f == nil {
			if err := r.skip(wt); err != nil {
				return err
			}
			continue
		}
		if err := d.field(m, f, wt, &r, out); err != nil {
			return err
		}
	}
	n := missing(m, out)
	zeroFill(m, out)
	return d.fill(m.name, n)
}

// fillSlack is how many members the decoder fills in beyond one per input byte.
const fillSlack = 4096

// fill charges n fields missing from the wire that an honest encoding holds. The generated
// Marshal writes every field that is not a pointer, list, map or []byte, zero or not, in at
// least two bytes; an empty element of a repeated message (two bytes) is still one element
// to default, validate and store (a 3 MB pod of 1.5M empty containers took 19.5 s and
// 1.9 GB). Beyond one missing field per input byte, plus fillSlack, the data declares more
// elements than its length can hold, and it is refused.
func (d *decoder) fill(name string, n int) error {
	d.filled += n
	if d.filled > len(d.top)+fillSlack {
		return fmt.Errorf("protobuf: %s: %d bytes declare more elements than they can hold (%d fields missing)", name, len(d.top), d.filled)
	}
	return nil
}

func (d *decoder) field(m *message, f *field, wt int, r *reader, out map[string]any) error {
	packed := f.repeated && wt == wireBytes && f.wire != wireBytes
	if wt != f.wire && !packed {
		return fmt.Errorf("protobuf: %s.%s: wrong wire type %d", m.name, f.json, wt)
	}
	switch {
	case f.inline:
		data, err := r.bytes()
		if err != nil {
			return err
		}
		return d.message(f.msg, data, out)
	case f.kind == kMap:
		data, err := r.bytes()
		if err != nil {
			return err
		}
		mv, _ := out[f.json].(map[string]any)
		if mv == nil {
			mv = map[string]any{}
			out[f.json] = mv
		}
		return d.mapEntry(m, f, data, mv)
	case packed:
		data, err := r.bytes()
		if err != nil {
			return err
		}
		pr := reader{b: data}
		for !pr.done() {
			v, err := d.scalar(m, f, f.kind, &pr)
			if err != nil {
				return err
			}
			list, _ := out[f.json].([]any)
			out[f.json] = append(list, v)
		}
		return nil
	case f.kind == kMessage:
		data, err := r.bytes()
		if err != nil {
			return err
		}
		var prev any
		if !f.repeated {
			prev = out[f.json]
		}
		v, err := d.value(f.msg, data, prev)
		if err != nil {
			return err
		}
		switch {
		case f.repeated:
			list, _ := out[f.json].([]any)
			out[f.json] = append(list, v)
		case f.omitZero && isZeroValue(f.msg, v):
			delete(out, f.json)
		default:
			out[f.json] = v
		}
		return nil
	}
	v, err := d.scalar(m, f, f.kind, r)
	if err != nil {
		return err
	}
	switch {
	case f.repeated:
		list, _ := out[f.json].([]any)
		out[f.json] = append(list, v)
	case f.omitEmpty && isEmpty(v):
		// encoding/json leaves out an empty value of an omitempty field; a pointer is never
		// empty, only nil
		if !f.nullable || f.kind == kBytes {
			delete(out, f.json)
			return nil
		}
		out[f.json] = v
	default:
		out[f.json] = v
	}
	return nil
}

func isEmpty(v any) bool {
	switch x := v.(type) {
	case string:
		return x == ""
	case bool:
		return !x
	case int64:
		return x == 0
	case float64:
		return x == 0
	}
	return false
}

// mapEntry reads one key/value entry. A missing key or value is the zero value, as the
// generated code leaves it.
func (d *decoder) mapEntry(m *message, f *field, data []byte, mv map[string]any) error {
	r := reader{b: data}
	var key any = ""
	if f.key != kString {
		key = int64(0)
	}
	var val any
	haveVal := false
	for !r.done() {
		num, wt, err := r.tag()
		if err != nil {
			return err
		}
		switch num {
		case 1:
			if wt != wireOf(f.key) {
				return fmt.Errorf("protobuf: %s.%s: wrong wire type %d for a map key", m.name, f.json, wt)
			}
			if key, err = d.scalar(m, f, f.key, &r); err != nil {
				return err
			}
		case 2:
			if wt != wireOf(f.value) {
				return fmt.Errorf("protobuf: %s.%s: wrong wire type %d for a map value", m.name, f.json, wt)
			}
			if f.value == kMessage {
				data, err := r.bytes()
				if err != nil {
					return err
				}
				if val, err = d.value(f.msg, data, nil); err != nil {
					return err
				}
			} else if val, err = d.scalar(m, f, f.value, &r); err != nil {
				return err
			}
			haveVal = true
		default:
			if err := r.skip(wt); err != nil {
				return err
			}
		}
	}
	if !haveVal {
		switch f.value {
		case kMessage:
			val = zeroValue(f.msg)
			if err := d.fill(f.msg.name, 1+honestFields(f.msg, 0)); err != nil {
				return err
			}
		default:
			// a missing []byte value decodes as empty, not nil, in the generated code
			val = zeroScalar(f.value)
		}
	}
	ks, ok := key.(string)
	if !ok {
		ks = fmt.Sprint(key)
	}
	mv[ks] = val
	return nil
}

// value decodes a message's content; prev is what an earlier occurrence of the same field
// left, into which a plain message merges as protobuf merges repeated occurrences.
func (d *decoder) value(m *message, data []byte, prev any) (any, error) {
	switch m.special {
	case spTime, spMicroTime:
		return decodeTime(m, data)
	case spDuration, spQuantity, spIntOrString, spRawExtension, spFieldsV1, spJSON:
		return d.specialValue(m, data)
	case spStringList:
		return d.stringList(m, data, prev)
	case spSchemaOrArray, spSchemaOrBool, spSchemaOrStringArray:
		return d.schemaOr(m, data)
	}
	out, _ := prev.(map[string]any)
	if out == nil {
		out = make(map[string]any, m.sizeHint)
	}
	if m.name == metaWatchEvent {
		return out, d.watchEvent(data, out)
	}
	return out, d.message(m, data, out)
}

// scalar reads one scalar of kind k and returns its JSON tree value.
func (d *decoder) scalar(m *message, f *field, k kind, r *reader) (any, error) {
	switch k {
	case kString:
		b, err := r.bytes()
		return d.str(b), err
	case kBytes:
		b, err := r.bytes()
		return base64.StdEncoding.EncodeToString(b), err
	case kDouble:
		b, err := r.fixed(8)
		if err != nil {
			return nil, err
		}
		return jsonFloat(math.Float64frombits(binary.LittleEndian.Uint64(b)), 64), nil
	case kFloat:
		b, err := r.fixed(4)
		if err != nil {
			return nil, err
		}
		return jsonFloat(float64(math.Float32frombits(binary.LittleEndian.Uint32(b))), 32), nil
	}
	v, err := r.varint()
	if err != nil {
		return nil, err
	}
	switch k {
	case kBool:
		return v != 0, nil
	case kInt32:
		return int64(int32(v)), nil
	case kUint32:
		return int64(uint32(v)), nil
	case kUint64:
		if v > math.MaxInt64 {
			return float64(v), nil
		}
	}
	return int64(v), nil
}

// jsonFloat gives the tree value JSON text of f would decode to: an integer when
// encoding/json would print it without a fraction or exponent.
func jsonFloat(f float64, bitSize int) any {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return f
	}
	if bitSize == 32 {
		f, _ = strconv.ParseFloat(strconv.FormatFloat(f, 'g', -1, 32), 64)
	}
	if f == math.Trunc(f) && math.Abs(f) < 9.2e18 {
		return int64(f)
	}
	return f
}

// missing counts the fields of m absent from out (as read from the wire) that an honest
// encoding always holds, with the fields of the absent messages.
func missing(m *message, out map[string]any) int {
	n := 0
	for _, f := range m.fields {
		switch {
		case f.inline:
			n += missing(f.msg, out)
		case f.nullable:
		default:
			if _, ok := out[f.json]; !ok {
				n++
				if f.kind == kMessage {
					n += honestFields(f.msg, 0)
				}
			}
		}
	}
	return n
}

// honestFields counts the fields the generated Marshal writes for m's zero value, nested
// ones included.
func honestFields(m *message, depth int) int {
	if m.special != plain || depth > maxDepth {
		return 0
	}
	n := 0
	for _, f := range m.fields {
		switch {
		case f.inline:
			n += honestFields(f.msg, depth+1)
		case f.nullable:
		case f.kind == kMessage:
			n += 1 + honestFields(f.msg, depth+1)
		default:
			n++
		}
	}
	return n
}

// zeroFill adds the members encoding/json writes for fields that were not on the wire.
func zeroFill(m *message, out map[string]any) {
	for _, f := range m.fields {
		if f.inline {
			zeroFill(f.msg, out)
			continue
		}
		if _, ok := out[f.json]; ok {
			continue
		}
		switch {
		case f.kind == kMessage && !f.nullable:
			if !f.omitZero {
				out[f.json] = zeroValue(f.msg)
			}
		case f.omitEmpty:
		case f.nullable:
			out[f.json] = nil
		default:
			out[f.json] = zeroScalar(f.kind)
		}
	}
}

// isZeroValue reports whether v is the JSON of m's Go zero value, which an omitzero field
// leaves out (Time's IsZero agrees: its zero is null).
func isZeroValue(m *message, v any) bool {
	z := zeroValue(m)
	if zm, ok := z.(map[string]any); ok {
		vm, ok := v.(map[string]any)
		return ok && reflect.DeepEqual(zm, vm)
	}
	return v == z
}

// zeroValue is the JSON of a message's Go zero value.
func zeroValue(m *message) any {
	switch m.special {
	case spTime, spMicroTime, spRawExtension, spFieldsV1, spStringList:
		return nil
	case spDuration:
		return "0s"
	case spQuantity:
		return "0"
	case spIntOrString:
		return int64(0)
	}
	out := map[string]any{}
	zeroFill(m, out)
	return out
}

func zeroScalar(k kind) any {
	switch k {
	case kString, kBytes:
		return ""
	case kBool:
		return false
	}
	return int64(0)
}
