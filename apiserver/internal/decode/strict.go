package decode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// The strict-decoding scan: what sigs.k8s.io/json's strict mode finds (unknown and duplicate
// members), found without decoding twice.

// pathSegment is one step of a field path: a member name, or an index when isIndex.
type pathSegment struct {
	name    string
	index   int
	isIndex bool
}

// strictProblem is one unknown or duplicate member found by findStrictProblems.
type strictProblem struct {
	text     string // `unknown field "spec.bogus"` or `duplicate field "metadata.name"`
	segments []pathSegment
	caseFold bool // unknown, but encoding/json would match it to a field ignoring case
}

// fieldPath prints segments as the real decoder does: "spec.containers[0].name".
func fieldPath(segs []pathSegment) string {
	var b strings.Builder
	for i, s := range segs {
		if s.isIndex {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.index))
			b.WriteByte(']')
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s.name)
	}
	return b.String()
}

// findStrictProblems walks the JSON text of data beside the Go type typ and reports, in
// document order, members typ has no field for and members that appear twice in one object
// (what sigs.k8s.io/json's strict mode reports). typ nil means free-form: duplicates only.
// It is a small hand-written scanner rather than json.Decoder.Token, which allocates for
// every token; it allocates only for the problems it finds. data has already been checked
// to be valid JSON; should the scan meet anything else it stops, and the decode that
// follows reports the error.
func findStrictProblems(data []byte, typ reflect.Type) []strictProblem {
	s := strictScanner{data: data}
	// The root is the kind's own struct, to be looked inside even when it decodes itself
	// (a typed view that keeps the JSON it came from).
	if t := indirectType(typ); t != nil && t.Kind() == reflect.Struct && s.peek() == '{' {
		s.object(t, true)
	} else {
		s.value(typ, true)
	}
	return s.problems
}

// strictScanner holds the scan position and the path of the value being scanned.
type strictScanner struct {
	data     []byte
	pos      int
	path     []scanSegment
	problems []strictProblem
	failed   bool
}

// scanSegment is one path step, pointing into data to avoid copying member names.
type scanSegment struct {
	key     []byte // raw, still escaped, without quotes
	escaped bool
	index   int
	isIndex bool
}

func (s *strictScanner) add(kind string) {
	segs := make([]pathSegment, len(s.path))
	for i, p := range s.path {
		if p.isIndex {
			segs[i] = pathSegment{index: p.index, isIndex: true}
		} else {
			segs[i] = pathSegment{name: memberName(p.key, p.escaped)}
		}
	}
	s.problems = append(s.problems, strictProblem{text: fmt.Sprintf("%s field %q", kind, fieldPath(segs)), segments: segs})
}

// memberName unescapes a raw member name.
func memberName(raw []byte, escaped bool) string {
	if !escaped {
		return string(raw)
	}
	var out string
	quoted := make([]byte, 0, len(raw)+2)
	quoted = append(append(append(quoted, '"'), raw...), '"')
	if err := json.Unmarshal(quoted, &out); err != nil {
		return string(raw)
	}
	return out
}

func (s *strictScanner) skipSpace() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// peek returns the next non-space byte, or 0 at the end.
func (s *strictScanner) peek() byte {
	s.skipSpace()
	if s.pos >= len(s.data) {
		s.failed = true
		return 0
	}
	return s.data[s.pos]
}

// str scans a string starting at its opening quote and returns its raw content.
func (s *strictScanner) str() (raw []byte, escaped bool) {
	start := s.pos + 1
	for i := start; i < len(s.data); i++ {
		switch s.data[i] {
		case '\\':
			escaped = true
			i++
		case '"':
			s.pos = i + 1
			return s.data[start:i], escaped
		}
	}
	s.failed = true
	s.pos = len(s.data)
	return nil, false
}

// value scans one JSON value. check false means the value belongs to an unknown member:
// it is skipped without looking inside, as the real decoder skips it.
func (s *strictScanner) value(t reflect.Type, check bool) {
	if s.failed {
		return
	}
	t = indirectType(t)
	if isOpaqueType(t) {
		check = false
	}
	switch s.peek() {
	case '{':
		s.object(t, check)
	case '[':
		s.array(t, check)
	case '"':
		s.str()
	case 0:
	default: // number, true, false, null
		for s.pos < len(s.data) {
			switch s.data[s.pos] {
			case ',', ']', '}', ' ', '\t', '\n', '\r':
				return
			}
			s.pos++
		}
	}
}

func (s *strictScanner) array(t reflect.Type, check bool) {
	s.pos++ // '['
	var elem reflect.Type
	if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
		elem = t.Elem()
	} else if t != nil && t.Kind() != reflect.Interface {
		check = false // the decode will fail on the type mismatch
	}
	if s.peek() == ']' {
		s.pos++
		return
	}
	for i := 0; !s.failed; i++ {
		s.path = append(s.path, scanSegment{index: i, isIndex: true})
		s.value(elem, check)
		s.path = s.path[:len(s.path)-1]
		switch s.peek() {
		case ',':
			s.pos++
		case ']':
			s.pos++
			return
		default:
			s.failed = true
		}
	}
}

func (s *strictScanner) object(t reflect.Type, check bool) {
	s.pos++ // '{'
	var fields map[string]reflect.Type
	var elem reflect.Type
	structured := false
	if t != nil {
		switch t.Kind() {
		case reflect.Struct:
			fields, structured = structFields(t), true
		case reflect.Map:
			elem = t.Elem()
		case reflect.Interface:
		default:
			check = false // the decode will fail on the type mismatch
		}
	}
	if s.peek() == '}' {
		s.pos++
		return
	}
	var seen seenKeys
	for !s.failed {
		if s.peek() != '"' {
			s.failed = true
			return
		}
		raw, escaped := s.str()
		if s.peek() != ':' {
			s.failed = true
			return
		}
		s.pos++
		s.path = append(s.path, scanSegment{key: raw, escaped: escaped})
		childType, childCheck := elem, check
		if check {
			name := raw
			if escaped {
				name = []byte(memberName(raw, true))
			}
			if seen.addOrFind(name) {
				s.add("duplicate")
			}
			if structured {
				ft, known := fields[string(name)]
				if !known {
					s.add("unknown")
					s.problems[len(s.problems)-1].caseFold = foldMatches(fields, string(name))
				}
				childType, childCheck = ft, known
			}
		}
		s.value(childType, childCheck)
		s.path = s.path[:len(s.path)-1]
		switch s.peek() {
		case ',':
			s.pos++
		case '}':
			s.pos++
			return
		default:
			s.failed = true
		}
	}
}

// seenKeys is the set of member names met in one object: an inline array (no allocation
// for the usual handful of members), then a map once the object is large.
type seenKeys struct {
	small [16][]byte
	n     int
	set   map[string]struct{}
}

// addOrFind records name and reports whether it was already there.
func (k *seenKeys) addOrFind(name []byte) bool {
	if k.set != nil {
		if _, ok := k.set[string(name)]; ok {
			return true
		}
		k.set[string(name)] = struct{}{}
		return false
	}
	for _, n := range k.small[:k.n] {
		if bytes.Equal(n, name) {
			return true
		}
	}
	if k.n < len(k.small) {
		k.small[k.n] = name
		k.n++
		return false
	}
	k.set = make(map[string]struct{}, 2*len(k.small))
	for _, n := range k.small {
		k.set[string(n)] = struct{}{}
	}
	k.set[string(name)] = struct{}{}
	return false
}
