package decode

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// The lexical side of Object's reader: JSON's grammar, checked as it is read, without
// allocating except for strings that need unescaping.

func (d *objectDecoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

// next skips spaces and returns the next byte, 0 at the end.
func (d *objectDecoder) next() byte {
	d.skipSpace()
	if d.pos >= len(d.data) {
		return 0
	}
	return d.data[d.pos]
}

// literal consumes word (true, false, null) if it is next.
func (d *objectDecoder) literal(word string) bool {
	if len(d.data)-d.pos >= len(word) && string(d.data[d.pos:d.pos+len(word)]) == word {
		d.pos += len(word)
		return true
	}
	return false
}

// enter counts one level of nesting, marking the body invalid beyond encoding/json's limit.
func (d *objectDecoder) enter() bool {
	d.depth++
	if d.depth > maxDepth {
		d.bad()
		return false
	}
	return true
}

// number reads a number literal in JSON's grammar and returns it as int64 when it is an
// integer that fits, else as float64; lit is its text.
func (d *objectDecoder) number() (v any, lit []byte) {
	start := d.pos
	p := d.pos
	if p < len(d.data) && d.data[p] == '-' {
		p++
	}
	switch {
	case p < len(d.data) && d.data[p] == '0':
		p++
	case p < len(d.data) && d.data[p] >= '1' && d.data[p] <= '9':
		p = skipDigits(d.data, p)
	default:
		d.bad()
		return nil, nil
	}
	isInt := true
	if p < len(d.data) && d.data[p] == '.' {
		isInt = false
		q := skipDigits(d.data, p+1)
		if q == p+1 {
			d.bad()
			return nil, nil
		}
		p = q
	}
	if p < len(d.data) && (d.data[p] == 'e' || d.data[p] == 'E') {
		isInt = false
		p++
		if p < len(d.data) && (d.data[p] == '+' || d.data[p] == '-') {
			p++
		}
		q := skipDigits(d.data, p)
		if q == p {
			d.bad()
			return nil, nil
		}
		p = q
	}
	d.pos = p
	lit = d.data[start:p]
	if isInt {
		if n, fits := parseInt(lit); fits {
			return n, lit
		}
	}
	f, err := strconv.ParseFloat(string(lit), 64)
	if err != nil {
		return nil, lit // beyond float64: the schema check reports it
	}
	return f, lit
}

func skipDigits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

// parseInt parses an integer literal without allocating; fits is false beyond int64.
func parseInt(lit []byte) (n int64, fits bool) {
	neg := len(lit) > 0 && lit[0] == '-'
	if neg {
		lit = lit[1:]
	}
	if len(lit) == 0 || len(lit) > 19 {
		return 0, false
	}
	var u uint64
	for _, c := range lit {
		u = u*10 + uint64(c-'0')
	}
	switch {
	case neg && u <= 1<<63:
		return -int64(u), true
	case !neg && u < 1<<63:
		return int64(u), true
	}
	return 0, false
}

// str reads a string at its opening quote. Plain strings are sliced straight out of data;
// ones with escapes or invalid UTF-8 go through encoding/json, which replaces invalid
// UTF-8 with U+FFFD as the real decoder does.
func (d *objectDecoder) str() string {
	raw, plain := d.strRaw()
	if plain {
		return d.cut(raw)
	}
	return d.unescape(raw)
}

// cut returns the part of text that raw, a slice of data, covers.
func (d *objectDecoder) cut(raw []byte) string {
	if len(raw) == 0 {
		return ""
	}
	start := cap(d.data) - cap(raw)
	return d.text[start : start+len(raw)]
}

// strRaw reads and checks a string at its opening quote without allocating: its content
// between the quotes, and whether that content is the string itself (no escapes, valid
// UTF-8).
func (d *objectDecoder) strRaw() (raw []byte, plain bool) {
	start := d.pos + 1
	plain = true
	ascii := true
	for i := start; i < len(d.data); i++ {
		switch c := d.data[i]; {
		case c == '"':
			d.pos = i + 1
			raw = d.data[start:i]
			return raw, plain && (ascii || utf8.Valid(raw))
		case c == '\\':
			plain = false
			if i+1 >= len(d.data) {
				d.bad()
				return nil, true
			}
			i++
			switch d.data[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(d.data) || !isHex4(d.data[i+1:i+5]) {
					d.bad()
					return nil, true
				}
				i += 4
			default:
				d.bad()
				return nil, true
			}
		case c < 0x20:
			d.bad()
			return nil, true
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	d.bad()
	return nil, true
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// unescape decodes the content raw of a string that is not plain.
func (d *objectDecoder) unescape(raw []byte) string {
	quoted := make([]byte, 0, len(raw)+2)
	quoted = append(append(append(quoted, '"'), raw...), '"')
	var s string
	if err := json.Unmarshal(quoted, &s); err != nil {
		return string(raw)
	}
	return s
}

// skip passes over one value, checking its grammar but not looking at its members, as
// the real decoder passes over the value of an unknown member.
func (d *objectDecoder) skip() {
	switch c := d.next(); {
	case c == '{' || c == '[':
		if !d.enter() {
			return
		}
		d.pos++
		end := byte('}')
		if c == '[' {
			end = ']'
		}
		if d.next() == end {
			d.pos++
			d.depth--
			return
		}
		for !d.invalid {
			if c == '{' {
				if d.next() != '"' {
					d.bad()
					return
				}
				d.strRaw()
				if d.next() != ':' {
					d.bad()
					return
				}
				d.pos++
			}
			d.skip()
			switch d.next() {
			case ',':
				d.pos++
			case end:
				d.pos++
				d.depth--
				return
			default:
				d.bad()
			}
		}
	case c == '"':
		d.strRaw()
	case c == 't':
		d.expect("true")
	case c == 'f':
		d.expect("false")
	case c == 'n':
		d.expect("null")
	default:
		d.number()
	}
}

func (d *objectDecoder) expect(word string) {
	if !d.literal(word) {
		d.bad()
	}
}
