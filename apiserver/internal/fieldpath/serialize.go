package fieldpath

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// FieldsV1: a JSON object per level whose keys are serialized path elements ("f:name",
// "k:{...}", "v:...", "i:3") and "." for a path that is a member and has children too.

// ErrUnknownElementType mirrors ErrUnknownPathElementType: a key whose prefix is none of
// f, k, v, i. Decoding skips such keys, as upstream does.
var ErrUnknownElementType = errors.New("unknown path element type")

// SerializeElement mirrors SerializePathElement.
func SerializeElement(pe PathElement) (string, error) {
	var b bytes.Buffer
	if err := writeElement(&b, pe); err != nil {
		return "", err
	}
	return b.String(), nil
}

func writeElement(b *bytes.Buffer, pe PathElement) error {
	switch pe.Kind {
	case FieldKind:
		b.WriteString("f:")
		b.WriteString(pe.Name)
	case KeyKind:
		b.WriteString("k:{")
		for i, f := range pe.Key {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSONString(b, f.Name)
			b.WriteByte(':')
			v, err := marshalValue(f.Value)
			if err != nil {
				return err
			}
			b.Write(v)
		}
		b.WriteByte('}')
	case ValueKind:
		b.WriteString("v:")
		v, err := marshalValue(pe.Value)
		if err != nil {
			return err
		}
		b.Write(v)
	case IndexKind:
		b.WriteString("i:")
		b.WriteString(strconv.Itoa(pe.Index))
	default:
		return errors.New("invalid PathElement")
	}
	return nil
}

// writeJSONString writes s as encoding/json does with HTML escaping: plain ASCII directly,
// anything else through the encoder.
func writeJSONString(b *bytes.Buffer, s string) {
	plain := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			plain = false
			break
		}
	}
	if plain {
		b.WriteByte('"')
		b.WriteString(s)
		b.WriteByte('"')
		return
	}
	q, _ := json.Marshal(s)
	b.Write(q)
}

// DeserializeElement mirrors DeserializePathElement.
func DeserializeElement(s string) (PathElement, error) {
	if len(s) < 2 {
		return PathElement{}, errors.New("key must be 2 characters long")
	}
	if s[1] != ':' {
		return PathElement{}, fmt.Errorf("missing colon: %v", s)
	}
	rest := s[2:]
	switch s[0] {
	case 'f':
		return Field(rest), nil
	case 'v':
		v, err := readOneValue(rest)
		if err != nil {
			return PathElement{}, err
		}
		return Value(v), nil
	case 'k':
		fields, err := readKey(rest)
		if err != nil {
			return PathElement{}, err
		}
		return KeyOf(fields), nil
	case 'i':
		i, err := strconv.Atoi(rest)
		if err != nil {
			return PathElement{}, err
		}
		return Index(i), nil
	}
	return PathElement{}, ErrUnknownElementType
}

// readOneValue reads the first JSON value of s; an empty s is null, as json-iterator's
// reader treats the end of input upstream.
func readOneValue(s string) (any, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var v any
	if json.Unmarshal([]byte(s), &v) == nil {
		return v, nil
	}
	if err := json.NewDecoder(strings.NewReader(s)).Decode(&v); err != nil && err != io.EOF {
		return nil, err
	}
	return v, nil
}

// readKey reads the object of a k: element: its members in order (a name may repeat, as
// upstream keeps them); what follows the object is ignored, as upstream's reader stops there.
func readKey(s string) ([]KeyField, error) {
	p := &parser{data: []byte(s)}
	p.ws()
	if p.i >= len(p.data) || p.data[p.i] != '{' {
		return nil, fmt.Errorf("key must be a JSON object: %v", s)
	}
	p.i++
	p.ws()
	var fields []KeyField
	if p.i < len(p.data) && p.data[p.i] == '}' {
		return fields, nil
	}
	for {
		p.ws()
		name, err := p.str()
		if err != nil {
			return nil, err
		}
		p.ws()
		if p.i >= len(p.data) || p.data[p.i] != ':' {
			return nil, p.errorf("expected ':'")
		}
		p.i++
		p.ws()
		start := p.i
		if err := p.skip(); err != nil {
			return nil, err
		}
		var v any
		if err := json.Unmarshal(p.data[start:p.i], &v); err != nil {
			return nil, err
		}
		fields = append(fields, KeyField{Name: name, Value: v})
		p.ws()
		if p.i >= len(p.data) {
			return nil, p.errorf("unexpected end")
		}
		if p.data[p.i] == ',' {
			p.i++
			continue
		}
		if p.data[p.i] == '}' {
			return fields, nil
		}
		return nil, p.errorf("expected ',' or '}'")
	}
}

// ToJSON mirrors Set.ToJSON: the FieldsV1 bytes of s.
func (s *Set) ToJSON() ([]byte, error) {
	var b bytes.Buffer
	b.Grow(256)
	b.WriteByte('{')
	if err := s.emit(&b, false, new(bytes.Buffer)); err != nil {
		return nil, err
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func (s *Set) emit(b *bytes.Buffer, includeSelf bool, scratch *bytes.Buffer) error {
	first := true
	sep := func() {
		if !first {
			b.WriteByte(',')
		}
		first = false
	}
	key := func(pe PathElement) error {
		scratch.Reset()
		if err := writeElement(scratch, pe); err != nil {
			return err
		}
		sep()
		writeJSONString(b, scratch.String())
		b.WriteByte(':')
		return nil
	}
	if includeSelf && (len(s.members) > 0 || len(s.children) > 0) {
		sep()
		b.WriteString(`".":{}`)
	}
	mi, ci := 0, 0
	for mi < len(s.members) || ci < len(s.children) {
		c := 0
		switch {
		case mi == len(s.members):
			c = 1
		case ci == len(s.children):
			c = -1
		default:
			c = s.members[mi].Compare(s.children[ci].pe)
		}
		if c < 0 {
			if err := key(s.members[mi]); err != nil {
				return err
			}
			b.WriteString("{}")
			mi++
			continue
		}
		if err := key(s.children[ci].pe); err != nil {
			return err
		}
		b.WriteByte('{')
		if err := s.children[ci].set.emit(b, c == 0, scratch); err != nil {
			return err
		}
		b.WriteByte('}')
		if c == 0 {
			mi++
		}
		ci++
	}
	return nil
}

// FromJSON mirrors Set.FromJSON: it reads FieldsV1. Malformed input is an error, never a
// panic; keys of an unknown element type are skipped (their value only checked to be JSON).
func FromJSON(data []byte) (*Set, error) {
	p := &parser{data: data}
	p.ws()
	s, _, err := p.level(0)
	if err != nil {
		return nil, err
	}
	p.ws()
	if p.i != len(p.data) {
		return nil, errors.New("trailing data after FieldsV1 object")
	}
	if s == nil {
		s = &Set{}
	}
	return s.Normalize(), nil
}

const maxDepth = 10000

// parser reads FieldsV1 bytes: objects of objects, keys read as they are unless escaped.
type parser struct {
	data []byte
	i    int
}

func (p *parser) ws() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("FieldsV1 at offset %d: %s", p.i, fmt.Sprintf(format, args...))
}

// level reads one object (or null); it returns the children it held (nil when none) and
// whether the path leading here is a member ("." seen, or no children at all).
func (p *parser) level(depth int) (*Set, bool, error) {
	if depth > maxDepth {
		return nil, false, errors.New("FieldsV1 nested too deeply")
	}
	if p.i+4 <= len(p.data) && string(p.data[p.i:p.i+4]) == "null" {
		p.i += 4
		return nil, true, nil
	}
	if p.i >= len(p.data) || p.data[p.i] != '{' {
		return nil, false, p.errorf("expected an object")
	}
	p.i++
	var children *Set
	isMember := false
	p.ws()
	if p.i < len(p.data) && p.data[p.i] == '}' {
		p.i++
		return nil, true, nil
	}
	for {
		p.ws()
		k, err := p.str()
		if err != nil {
			return nil, false, err
		}
		p.ws()
		if p.i >= len(p.data) || p.data[p.i] != ':' {
			return nil, false, p.errorf("expected ':'")
		}
		p.i++
		p.ws()
		var pe PathElement
		skip := k == "."
		if skip {
			isMember = true
		} else {
			pe, err = DeserializeElement(k)
			if err == ErrUnknownElementType {
				skip = true
			} else if err != nil {
				return nil, false, fmt.Errorf("parsing key as path element: %v", err)
			}
		}
		if skip {
			if err := p.skip(); err != nil {
				return nil, false, err
			}
		} else {
			grand, childIsMember, err := p.level(depth + 1)
			if err != nil {
				return nil, false, err
			}
			if children == nil && (childIsMember || grand != nil) {
				children = &Set{}
			}
			if childIsMember {
				children.AppendMember(pe)
			}
			if grand != nil {
				// A key repeated in the same object replaces what came before, as upstream's
				// reader does.
				replaced := false
				for j := range children.children {
					if children.children[j].pe.Equals(pe) {
						children.children[j].set = grand
						replaced = true
					}
				}
				if !replaced {
					children.children = append(children.children, setNode{pe: pe, set: grand})
				}
			}
		}
		p.ws()
		if p.i >= len(p.data) {
			return nil, false, p.errorf("unexpected end")
		}
		if p.data[p.i] == ',' {
			p.i++
			continue
		}
		if p.data[p.i] == '}' {
			p.i++
			break
		}
		return nil, false, p.errorf("expected ',' or '}'")
	}
	if children == nil {
		isMember = true
	}
	return children, isMember, nil
}

// str reads a JSON string; one with escapes or bytes beyond ASCII goes through
// encoding/json (which turns invalid UTF-8 into U+FFFD).
func (p *parser) str() (string, error) {
	if p.i >= len(p.data) || p.data[p.i] != '"' {
		return "", p.errorf("expected a string")
	}
	start := p.i
	escaped := false
	for j := p.i + 1; j < len(p.data); j++ {
		switch c := p.data[j]; {
		case c >= 0x80:
			escaped = true
		case c == '\\':
			escaped = true
			j++
		case c == '"':
			p.i = j + 1
			if !escaped {
				return string(p.data[start+1 : j]), nil
			}
			var s string
			if err := json.Unmarshal(p.data[start:j+1], &s); err != nil {
				return "", err
			}
			return s, nil
		case c < 0x20:
			return "", p.errorf("control character in string")
		}
	}
	return "", p.errorf("unterminated string")
}

// skip passes over one JSON value of any kind, checking that it is JSON.
func (p *parser) skip() error {
	start := p.i
	depth := 0
	for p.i < len(p.data) {
		switch c := p.data[p.i]; c {
		case '"':
			if _, err := p.str(); err != nil {
				return err
			}
			if depth == 0 {
				return p.check(start)
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return p.check(start)
			}
			depth--
			if depth == 0 {
				p.i++
				return p.check(start)
			}
		case ',':
			if depth == 0 {
				return p.check(start)
			}
		}
		p.i++
	}
	return p.check(start)
}

func (p *parser) check(start int) error {
	if !json.Valid(p.data[start:p.i]) {
		return p.errorf("invalid JSON value")
	}
	return nil
}
