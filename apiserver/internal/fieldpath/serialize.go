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
		return PathElement{}, errors.New("key must be 2 characters long:")
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
		dec := json.NewDecoder(strings.NewReader(rest))
		t, err := dec.Token()
		if err != nil {
			return PathElement{}, err
		}
		if d, ok := t.(json.Delim); !ok || d != '{' {
			return PathElement{}, fmt.Errorf("key must be a JSON object: %v", s)
		}
		var fields []KeyField
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return PathElement{}, err
			}
			name, _ := kt.(string)
			var v any
			if err := dec.Decode(&v); err != nil {
				return PathElement{}, err
			}
			fields = append(fields, KeyField{Name: name, Value: v})
		}
		if _, err := dec.Token(); err != nil {
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
	if err := json.NewDecoder(strings.NewReader(s)).Decode(&v); err != nil && err != io.EOF {
		return nil, err
	}
	return v, nil
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
// panic; keys of an unknown element type are skipped.
func FromJSON(data []byte) (*Set, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	s, _, err := readLevel(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		if err == nil {
			err = errors.New("trailing data after FieldsV1 object")
		}
		return nil, err
	}
	if s == nil {
		s = &Set{}
	}
	return s, nil
}

const maxDepth = 10000

// readLevel reads one object (or null); it returns the children it held (nil when none)
// and whether the path leading here is a member ("." seen, or no children at all).
func readLevel(dec *json.Decoder, depth int) (*Set, bool, error) {
	if depth > maxDepth {
		return nil, false, errors.New("FieldsV1 nested too deeply")
	}
	t, err := dec.Token()
	if err != nil {
		return nil, false, err
	}
	if t == nil {
		return nil, true, nil
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return nil, false, fmt.Errorf("FieldsV1: expected an object, found %v", t)
	}
	var children *Set
	isMember := false
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, false, err
		}
		k, _ := kt.(string)
		if k == "." {
			isMember = true
			if err := skipValue(dec); err != nil {
				return nil, false, err
			}
			continue
		}
		pe, err := DeserializeElement(k)
		if err == ErrUnknownElementType {
			if err := skipValue(dec); err != nil {
				return nil, false, err
			}
			continue
		} else if err != nil {
			return nil, false, fmt.Errorf("parsing key as path element: %v", err)
		}
		grand, childIsMember, err := readLevel(dec, depth+1)
		if err != nil {
			return nil, false, err
		}
		if childIsMember {
			if children == nil {
				children = &Set{}
			}
			children.insertMember(pe)
		}
		if grand != nil {
			if children == nil {
				children = &Set{}
			}
			*children.Descend(pe) = *grand
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, false, err
	}
	if children == nil {
		isMember = true
	}
	return children, isMember, nil
}

func skipValue(dec *json.Decoder) error {
	var raw json.RawMessage
	return dec.Decode(&raw)
}
