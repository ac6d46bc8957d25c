package protobuf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// decodeTime reads a Timestamp. Time keeps whole seconds (the generated code drops the
// nanoseconds); MicroTime keeps microseconds. A zero time is JSON null.
func decodeTime(m *message, data []byte) (any, error) {
	if len(data) == 0 {
		return nil, nil
	}
	var secs, nanos int64
	r := reader{b: data}
	for !r.done() {
		num, wt, err := r.tag()
		if err != nil {
			return nil, err
		}
		if (num == 1 || num == 2) && wt != wireVarint {
			return nil, fmt.Errorf("protobuf: %s: wrong wire type %d", m.name, wt)
		}
		switch num {
		case 1, 2:
			v, err := r.varint()
			if err != nil {
				return nil, err
			}
			if num == 1 {
				secs = int64(v)
			} else {
				nanos = int64(int32(v))
			}
		default:
			if err := r.skip(wt); err != nil {
				return nil, err
			}
		}
	}
	if m.special == spTime {
		t := time.Unix(secs, 0)
		if t.IsZero() {
			return nil, nil
		}
		return t.UTC().Format(time.RFC3339), nil
	}
	t := time.Unix(secs, nanos)
	if t.IsZero() {
		return nil, nil
	}
	return t.UTC().Format(rfc3339Micro), nil
}

// specialValue reads the one-or-three-field specials: Duration, Quantity, IntOrString,
// RawExtension and FieldsV1.
func (d *decoder) specialValue(m *message, data []byte) (any, error) {
	var ints [4]int64
	var strs [4][]byte
	r := reader{b: data}
	for !r.done() {
		num, wt, err := r.tag()
		if err != nil {
			return nil, err
		}
		want := -1
		switch {
		case m.special == spDuration && num == 1, m.special == spIntOrString && num <= 2:
			want = wireVarint
		case m.special == spIntOrString && num == 3, num == 1:
			want = wireBytes
		}
		if want < 0 {
			if err := r.skip(wt); err != nil {
				return nil, err
			}
			continue
		}
		if wt != want {
			return nil, fmt.Errorf("protobuf: %s: wrong wire type %d", m.name, wt)
		}
		if want == wireVarint {
			v, err := r.varint()
			if err != nil {
				return nil, err
			}
			ints[num] = int64(v)
		} else {
			if strs[num], err = r.bytes(); err != nil {
				return nil, err
			}
			if strs[num] == nil {
				strs[num] = []byte{}
			}
		}
	}
	switch m.special {
	case spDuration:
		return time.Duration(ints[1]).String(), nil
	case spQuantity:
		if len(strs[1]) == 0 {
			return "0", nil
		}
		return d.str(strs[1]), nil
	case spIntOrString:
		switch ints[1] {
		case 0:
			return int64(int32(ints[2])), nil
		case 1:
			return d.str(strs[3]), nil
		}
		return nil, fmt.Errorf("protobuf: IntOrString: impossible type %d", ints[1])
	}
	raw := strs[1]
	if raw == nil {
		return nil, nil
	}
	if m.special == spRawExtension && bytes.HasPrefix(raw, magic) {
		_, obj, err := d.envelope(raw)
		return obj, err
	}
	return parseJSON(raw)
}

// parseJSON decodes embedded JSON with integers as int64 and other numbers as float64, the
// convention of the rest of the tree.
func parseJSON(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("protobuf: embedded JSON: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("protobuf: embedded JSON: trailing data")
	}
	return convertNumbers(v), nil
}

func convertNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return i
		}
		f, _ := strconv.ParseFloat(string(x), 64)
		return f
	case map[string]any:
		for k, e := range x {
			x[k] = convertNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = convertNumbers(e)
		}
	}
	return v
}

// stringList reads a named []string's message: every items (field 1) appended, as the
// generated Unmarshal appends; no items is a nil slice, JSON null.
func (d *decoder) stringList(m *message, data []byte, prev any) (any, error) {
	out, _ := prev.([]any)
	r := reader{b: data}
	for !r.done() {
		num, wt, err := r.tag()
		if err != nil {
			return nil, err
		}
		if num != 1 {
			if err := r.skip(wt); err != nil {
				return nil, err
			}
			continue
		}
		if wt != wireBytes {
			return nil, fmt.Errorf("protobuf: %s: wrong wire type %d", m.name, wt)
		}
		b, err := r.bytes()
		if err != nil {
			return nil, err
		}
		out = append(out, d.str(b))
	}
	if out == nil {
		return nil, nil
	}
	return out, nil
}
