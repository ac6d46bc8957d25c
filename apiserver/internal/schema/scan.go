package schema

import (
	"bytes"
	"encoding/json"
	"errors"
)

// A small reader of JSON text that is already known to be valid (the embedded documents,
// pinned by SHA256SUMS and checked whole by their test; ParseDefinitions checks other input
// with json.Valid first). It finds where values begin and end without building them: most
// of a document is descriptions, which it passes over with bytes.IndexByte, where
// encoding/json steps through every byte of them twice (checkValid, then the decode).
// On text that is not valid it stops with errSyntax rather than looping or panicking.

var errSyntax = errors.New("openapi document: malformed JSON")

// isSpace is JSON's whitespace.
func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }

// skipSpace returns the index of the first non-whitespace byte at or after i.
func skipSpace(d []byte, i int) int {
	for i < len(d) && isSpace(d[i]) {
		i++
	}
	return i
}

// stringEnd returns the index just past the closing quote of the string whose opening
// quote is at i.
func stringEnd(d []byte, i int) (int, error) {
	j := i + 1
	for {
		k := bytes.IndexByte(d[j:], '"')
		if k < 0 {
			return 0, errSyntax
		}
		j += k
		n := 0 // backslashes right before the quote: an odd number escapes it
		for p := j - 1; p > i && d[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return j + 1, nil
		}
		j++
	}
}

// readString reads the string at i (its opening quote) and returns its value and the index
// past it. The value shares d's bytes unless the string holds an escape: encoding/json
// decodes those, so that every escape means what it means there.
func readString(d []byte, i int) ([]byte, int, error) {
	if i >= len(d) || d[i] != '"' {
		return nil, 0, errSyntax
	}
	end, err := stringEnd(d, i)
	if err != nil {
		return nil, 0, err
	}
	if bytes.IndexByte(d[i+1:end-1], '\\') < 0 {
		return d[i+1 : end-1], end, nil
	}
	var s string
	if err := json.Unmarshal(d[i:end], &s); err != nil {
		return nil, 0, err
	}
	return []byte(s), end, nil
}

// skipValue returns the index just past the value that begins at or after i.
func skipValue(d []byte, i int) (int, error) {
	i = skipSpace(d, i)
	if i >= len(d) {
		return 0, errSyntax
	}
	switch d[i] {
	case '"':
		return stringEnd(d, i)
	case '{', '[':
		depth := 0
		for i < len(d) {
			switch d[i] {
			case '"':
				end, err := stringEnd(d, i)
				if err != nil {
					return 0, err
				}
				i = end
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, nil
				}
			}
			i++
		}
		return 0, errSyntax
	default: // a number, true, false or null
		j := i
		for j < len(d) && !isSpace(d[j]) && d[j] != ',' && d[j] != '}' && d[j] != ']' {
			j++
		}
		if j == i {
			return 0, errSyntax
		}
		return j, nil
	}
}

// eachMember calls fn with the key of every member of the object that begins at or after
// i and the index where the member's value begins; fn returns the index past the value
// (skipValue when it does not read it). It returns the index past the object.
// The key shares d's bytes: fn copies it to keep it.
func eachMember(d []byte, i int, fn func(key []byte, v int) (int, error)) (int, error) {
	i = skipSpace(d, i)
	if i >= len(d) || d[i] != '{' {
		return 0, errSyntax
	}
	i = skipSpace(d, i+1)
	if i < len(d) && d[i] == '}' {
		return i + 1, nil
	}
	for {
		key, j, err := readString(d, skipSpace(d, i))
		if err != nil {
			return 0, err
		}
		j = skipSpace(d, j)
		if j >= len(d) || d[j] != ':' {
			return 0, errSyntax
		}
		if i, err = fn(key, skipSpace(d, j+1)); err != nil {
			return 0, err
		}
		i = skipSpace(d, i)
		if i >= len(d) {
			return 0, errSyntax
		}
		switch d[i] {
		case ',':
			i++
		case '}':
			return i + 1, nil
		default:
			return 0, errSyntax
		}
	}
}

// eachElement is eachMember for the elements of an array.
func eachElement(d []byte, i int, fn func(v int) (int, error)) (int, error) {
	i = skipSpace(d, i)
	if i >= len(d) || d[i] != '[' {
		return 0, errSyntax
	}
	i = skipSpace(d, i+1)
	if i < len(d) && d[i] == ']' {
		return i + 1, nil
	}
	for {
		var err error
		if i, err = fn(skipSpace(d, i)); err != nil {
			return 0, err
		}
		i = skipSpace(d, i)
		if i >= len(d) {
			return 0, errSyntax
		}
		switch d[i] {
		case ',':
			i++
		case ']':
			return i + 1, nil
		default:
			return 0, errSyntax
		}
	}
}

// isNull reports whether the value at i is the literal null.
func isNull(d []byte, i int) bool { return bytes.HasPrefix(d[i:], []byte("null")) }
