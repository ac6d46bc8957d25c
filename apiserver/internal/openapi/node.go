package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Node is a JSON value that remembers the order of its members and the text of its
// numbers. OpenAPI documents need both: kube-openapi writes a schema's keywords in the
// order of its Go struct, and gnostic's protobuf form keeps members in document order.
type Node struct {
	Kind Kind
	// Text is a string's value, a number's text as written, "true" or "false".
	Text string
	// Keys and Values are an object's members in order; Values alone an array's items.
	Keys   []string
	Values []*Node
}

// Kind is the JSON type of a Node.
type Kind uint8

// The JSON types.
const (
	Null Kind = iota
	Bool
	Number
	String
	Object
	Array
)

// Str, Num, Boolean, Obj and Arr build nodes.
func Str(s string) *Node { return &Node{Kind: String, Text: s} }

// Num is a number node from its JSON text.
func Num(text string) *Node { return &Node{Kind: Number, Text: text} }

// Boolean is true or false.
func Boolean(b bool) *Node { return &Node{Kind: Bool, Text: strconv.FormatBool(b)} }

// Obj is an empty object.
func Obj() *Node { return &Node{Kind: Object} }

// Arr is an array of the items.
func Arr(items ...*Node) *Node { return &Node{Kind: Array, Values: items} }

// Strs is an array of strings.
func Strs(items ...string) *Node {
	n := &Node{Kind: Array}
	for _, s := range items {
		n.Values = append(n.Values, Str(s))
	}
	return n
}

// Get returns the member key of an object, nil when absent.
func (n *Node) Get(key string) *Node {
	if n == nil || n.Kind != Object {
		return nil
	}
	for i, k := range n.Keys {
		if k == key {
			return n.Values[i]
		}
	}
	return nil
}

// Set replaces member key or appends it, and returns n.
func (n *Node) Set(key string, v *Node) *Node {
	for i, k := range n.Keys {
		if k == key {
			n.Values[i] = v
			return n
		}
	}
	n.Keys = append(n.Keys, key)
	n.Values = append(n.Values, v)
	return n
}

// Delete removes member key.
func (n *Node) Delete(key string) {
	for i, k := range n.Keys {
		if k == key {
			n.Keys = slices.Delete(n.Keys, i, i+1)
			n.Values = slices.Delete(n.Values, i, i+1)
			return
		}
	}
}

// Copy is a deep copy of n.
func (n *Node) Copy() *Node {
	if n == nil {
		return nil
	}
	c := &Node{Kind: n.Kind, Text: n.Text, Keys: slices.Clone(n.Keys)}
	if n.Values != nil {
		c.Values = make([]*Node, len(n.Values))
		for i, v := range n.Values {
			c.Values[i] = v.Copy()
		}
	}
	return c
}

// Parse reads one JSON value, keeping member order and number text.
func Parse(data []byte) (*Node, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := parseValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("openapi: trailing data after the JSON value")
	}
	return n, nil
}

func parseValue(dec *json.Decoder) (*Node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			n := &Node{Kind: Object}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := parseValue(dec)
				if err != nil {
					return nil, err
				}
				n.Keys = append(n.Keys, kt.(string))
				n.Values = append(n.Values, v)
			}
			_, err := dec.Token() // '}'
			return n, err
		}
		n := &Node{Kind: Array, Values: []*Node{}}
		for dec.More() {
			v, err := parseValue(dec)
			if err != nil {
				return nil, err
			}
			n.Values = append(n.Values, v)
		}
		_, err := dec.Token() // ']'
		return n, err
	case string:
		return Str(t), nil
	case json.Number:
		return Num(string(t)), nil
	case bool:
		return Boolean(t), nil
	default:
		return &Node{Kind: Null, Text: "null"}, nil
	}
}

// FromValue turns a decoded JSON value (map[string]any, []any, string, float64, bool,
// json.Number, nil) into a Node with object members in sorted order, as Go writes a map.
func FromValue(v any) *Node {
	switch t := v.(type) {
	case map[string]any:
		n := &Node{Kind: Object}
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			n.Keys = append(n.Keys, k)
			n.Values = append(n.Values, FromValue(t[k]))
		}
		return n
	case []any:
		n := &Node{Kind: Array, Values: make([]*Node, len(t))}
		for i, item := range t {
			n.Values[i] = FromValue(item)
		}
		return n
	case string:
		return Str(t)
	case json.Number:
		return Num(t.String())
	case float64:
		return Num(formatFloat(t))
	case int64:
		return Num(strconv.FormatInt(t, 10))
	case int:
		return Num(strconv.Itoa(t))
	case bool:
		return Boolean(t)
	default:
		return &Node{Kind: Null, Text: "null"}
	}
}

// formatFloat writes a float64 as encoding/json does.
func formatFloat(f float64) string {
	b, err := json.Marshal(f)
	if err != nil {
		return "0"
	}
	return string(b)
}

// JSON writes n compactly, members in their order, strings without HTML escaping, as
// kube-openapi writes /openapi/v2.
func (n *Node) JSON() []byte {
	var b bytes.Buffer
	n.write(&b, false)
	return b.Bytes()
}

// JSONHTMLEscaped is JSON with <, > and & escaped as encoding/json escapes them, as
// kube-openapi writes the /openapi/v3 documents.
func (n *Node) JSONHTMLEscaped() []byte {
	var b bytes.Buffer
	n.write(&b, true)
	return b.Bytes()
}

func (n *Node) write(b *bytes.Buffer, html bool) {
	switch n.Kind {
	case Object:
		b.WriteByte('{')
		for i, k := range n.Keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, k, html)
			b.WriteByte(':')
			n.Values[i].write(b, html)
		}
		b.WriteByte('}')
	case Array:
		b.WriteByte('[')
		for i, v := range n.Values {
			if i > 0 {
				b.WriteByte(',')
			}
			v.write(b, html)
		}
		b.WriteByte(']')
	case String:
		writeString(b, n.Text, html)
	case Null:
		b.WriteString("null")
	default:
		b.WriteString(n.Text)
	}
}

const hexDigits = "0123456789abcdef"

// writeString quotes s as JSON: control characters, the quote and the backslash escaped,
// and with html also <, >, &, U+2028 and U+2029; everything else written as it is.
func writeString(b *bytes.Buffer, s string, html bool) {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case html && (c == '<' || c == '>' || c == '&'):
				b.WriteString(`\u00`)
				b.WriteByte(hexDigits[c>>4])
				b.WriteByte(hexDigits[c&0xf])
			case c == '"' || c == '\\':
				b.WriteByte('\\')
				b.WriteByte(c)
			case c == '\n':
				b.WriteString(`\n`)
			case c == '\r':
				b.WriteString(`\r`)
			case c == '\t':
				b.WriteString(`\t`)
			case c == '\b':
				b.WriteString(`\b`)
			case c == '\f':
				b.WriteString(`\f`)
			case c < 0x20:
				b.WriteString(`\u00`)
				b.WriteByte(hexDigits[c>>4])
				b.WriteByte(hexDigits[c&0xf])
			default:
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\ufffd`)
		case html && (r == '\u2028' || r == '\u2029'):
			b.WriteString(`\u202`)
			b.WriteByte(hexDigits[r&0xf])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
}
