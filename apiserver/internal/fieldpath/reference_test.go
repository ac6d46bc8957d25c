package fieldpath

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"testing"
)

// referenceFromJSON is FieldsV1 decoding token by token with encoding/json, the first
// implementation: the fuzz target checks the scanner of FromJSON against it.
func referenceFromJSON(data []byte) (*Set, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	s, _, err := refReadLevel(dec, 0)
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

// readLevel reads one object (or null); it returns the children it held (nil when none)
// and whether the path leading here is a member ("." seen, or no children at all).
func refReadLevel(dec *json.Decoder, depth int) (*Set, bool, error) {
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
			if err := refSkipValue(dec); err != nil {
				return nil, false, err
			}
			continue
		}
		pe, err := DeserializeElement(k)
		if err == ErrUnknownElementType {
			if err := refSkipValue(dec); err != nil {
				return nil, false, err
			}
			continue
		} else if err != nil {
			return nil, false, fmt.Errorf("parsing key as path element: %v", err)
		}
		grand, childIsMember, err := refReadLevel(dec, depth+1)
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

func refSkipValue(dec *json.Decoder) error {
	var raw json.RawMessage
	return dec.Decode(&raw)
}

// FuzzCh01_SSA_FieldsV1Scanner: FromJSON's scanner accepts what the token-by-token reader
// accepts and reads the same set.
func FuzzCh01_SSA_FieldsV1Scanner(f *testing.F) {
	for _, s := range []string{`{}`, `{"f:a":{".":{},"f:b":{}}}`, `{"k:{\"name\":\"x\",\"port\":80}":{".":{},"f:image":{}}}`,
		`{"v:\"a\"":{},"v:1.5":{},"v:true":{},"v:null":{},"i:0":{}}`, `{"f:a\u003cb":{}}`, `null`, `{"x:y":[1,{"a":"}"}]}`,
		`{"f:a":{},"f:a":{"f:b":{}}}`, ` { "f:a" : { } } `, `{"f:a":{}}x`, `{".":"x","f:b":null}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := FromJSON(data)
		want, werr := referenceFromJSON(data)
		if (err == nil) != (werr == nil) {
			t.Fatalf("scanner error %v, reference error %v, for %q", err, werr, data)
		}
		if err == nil && got.String() != want.String() {
			t.Fatalf("scanner read\n%v\nreference read\n%v", got, want)
		}
	})
}
