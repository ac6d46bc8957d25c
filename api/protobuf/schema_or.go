package protobuf

import "fmt"

// apiextensions' JSONSchemaPropsOrArray, JSONSchemaPropsOrBool and
// JSONSchemaPropsOrStringArray (k8s.io/apiextensions-apiserver pkg/apis/apiextensions/v1,
// marshal.go): in protobuf two fields, a schema and another value; in JSON one of them.
//
//	OrArray        schema = 1, jSONSchemas = 2 (repeated)  JSON: the list when it has items, else the schema (or null)
//	OrBool         allows = 1 (always written), schema = 2  JSON: the schema, else the bool
//	OrStringArray  schema = 1, property = 2 (repeated)      JSON: the list when it has items, else the schema (or null)

// schemaOr writes the message of one JSON value.
func (e *encoder) schemaOr(b []byte, m *message, v any) ([]byte, error) {
	schema := m.byNum[1]
	if m.special == spSchemaOrBool {
		schema = m.byNum[2]
	}
	nested := func(b []byte, num int, v any) ([]byte, error) {
		var start int
		b, start = beginNested(b, num)
		b, err := e.value(b, schema.msg, v)
		if err != nil {
			return b, err
		}
		return endNested(b, start), nil
	}
	switch x := v.(type) {
	case nil:
		if m.special == spSchemaOrBool {
			return append(b, 0x08, 0x00), nil
		}
		return b, nil
	case map[string]any:
		if m.special == spSchemaOrBool {
			return nested(append(b, 0x08, 0x01), 2, x)
		}
		return nested(b, 1, x)
	case bool:
		if m.special != spSchemaOrBool {
			break
		}
		if x {
			return append(b, 0x08, 0x01), nil
		}
		return append(b, 0x08, 0x00), nil
	case []any:
		var err error
		for _, item := range x {
			switch m.special {
			case spSchemaOrArray:
				if b, err = nested(b, 2, item); err != nil {
					return b, err
				}
			case spSchemaOrStringArray:
				s, ok := item.(string)
				if !ok {
					return b, fmt.Errorf("protobuf: %s: want a string, got %T", m.name, item)
				}
				b = appendStringField(b, 2, s)
			default:
				return b, fmt.Errorf("protobuf: %s: want a schema or a bool, got a list", m.name)
			}
		}
		return b, nil
	}
	return b, fmt.Errorf("protobuf: %s: unexpected %T", m.name, v)
}

// schemaOr reads the message back into the JSON value its MarshalJSON writes.
func (d *decoder) schemaOr(m *message, data []byte) (any, error) {
	var schema map[string]any
	var list []any
	var allows bool
	schemaNum := 1
	if m.special == spSchemaOrBool {
		schemaNum = 2
	}
	r := reader{b: data}
	for !r.done() {
		num, wt, err := r.tag()
		if err != nil {
			return nil, err
		}
		switch {
		case m.special == spSchemaOrBool && num == 1 && wt == wireVarint:
			v, err := r.varint()
			if err != nil {
				return nil, err
			}
			allows = v != 0
		case (num == schemaNum || (num == 2 && m.special == spSchemaOrArray)) && wt == wireBytes:
			b, err := r.bytes()
			if err != nil {
				return nil, err
			}
			f := m.byNum[num]
			var prev any
			if num == schemaNum {
				prev = schema
			}
			v, err := d.value(f.msg, b, prev)
			if err != nil {
				return nil, err
			}
			if num == schemaNum {
				schema, _ = v.(map[string]any)
			} else {
				list = append(list, v)
			}
		case m.special == spSchemaOrStringArray && num == 2 && wt == wireBytes:
			b, err := r.bytes()
			if err != nil {
				return nil, err
			}
			list = append(list, d.str(b))
		default:
			if err := r.skip(wt); err != nil {
				return nil, err
			}
		}
	}
	switch {
	case len(list) > 0:
		return list, nil
	case schema != nil:
		return schema, nil
	case m.special == spSchemaOrBool:
		return allows, nil
	}
	return nil, nil
}
