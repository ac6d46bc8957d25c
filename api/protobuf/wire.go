package protobuf

import (
	"errors"
	"fmt"
	"math/bits"
)

// The protobuf wire types this codec reads and writes.
const (
	wireVarint  = 0
	wireFixed64 = 1
	wireBytes   = 2
	wireStart   = 3 // deprecated groups: only ever skipped, never written
	wireEnd     = 4
	wireFixed32 = 5
)

var (
	// ErrTruncated is returned when the data ends inside a field.
	ErrTruncated = errors.New("protobuf: unexpected end of data")
	// ErrVarintOverflow is returned for a varint longer than ten bytes.
	ErrVarintOverflow = errors.New("protobuf: varint overflows 64 bits")
)

// sizeVarint is the number of bytes the varint encoding of v takes.
func sizeVarint(v uint64) int { return (bits.Len64(v|1) + 6) / 7 }

// appendVarint writes v as a base-128 varint, low group first.
func appendVarint(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

// appendTag writes the key of a field: its number and wire type.
func appendTag(b []byte, num int, wt int) []byte {
	return appendVarint(b, uint64(num)<<3|uint64(wt))
}

// appendBytesField writes a length-delimited field.
func appendBytesField(b []byte, num int, v []byte) []byte {
	b = appendTag(b, num, wireBytes)
	b = appendVarint(b, uint64(len(v)))
	return append(b, v...)
}

// appendStringField writes a string field; it avoids converting the string to a slice.
func appendStringField(b []byte, num int, v string) []byte {
	b = appendTag(b, num, wireBytes)
	b = appendVarint(b, uint64(len(v)))
	return append(b, v...)
}

// beginNested reserves one byte for the length of a nested message and returns where its
// content starts. Most nested messages are shorter than 128 bytes, so one byte is usually
// enough; endNested moves the content when it is not.
func beginNested(b []byte, num int) ([]byte, int) {
	b = appendTag(b, num, wireBytes)
	b = append(b, 0)
	return b, len(b)
}

// endNested writes the length of the content started at start, shifting it if the length
// needs more than the one reserved byte.
func endNested(b []byte, start int) []byte {
	n := len(b) - start
	sz := sizeVarint(uint64(n))
	if sz == 1 {
		b[start-1] = byte(n)
		return b
	}
	for i := 1; i < sz; i++ {
		b = append(b, 0)
	}
	copy(b[start-1+sz:], b[start:start+n])
	var tmp [10]byte
	copy(b[start-1:], appendVarint(tmp[:0], uint64(n)))
	return b
}

// reader walks a protobuf message; every method checks bounds and never panics.
type reader struct {
	b []byte
	i int
}

func (r *reader) done() bool { return r.i >= len(r.b) }

func (r *reader) varint() (uint64, error) {
	var v uint64
	for shift := uint(0); ; shift += 7 {
		if shift >= 70 {
			return 0, ErrVarintOverflow
		}
		if r.i >= len(r.b) {
			return 0, ErrTruncated
		}
		c := r.b[r.i]
		r.i++
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v, nil
		}
	}
}

// tag reads a field key and checks the field number is valid.
func (r *reader) tag() (num int, wt int, err error) {
	k, err := r.varint()
	if err != nil {
		return 0, 0, err
	}
	num64 := k >> 3
	if num64 == 0 || num64 > 1<<29-1 {
		return 0, 0, fmt.Errorf("protobuf: illegal field number %d", num64)
	}
	return int(num64), int(k & 7), nil
}

// bytes reads a length-delimited value; the result aliases the input.
func (r *reader) bytes() ([]byte, error) {
	n, err := r.varint()
	if err != nil {
		return nil, err
	}
	if n > uint64(len(r.b)-r.i) {
		return nil, ErrTruncated
	}
	v := r.b[r.i : r.i+int(n)]
	r.i += int(n)
	return v, nil
}

func (r *reader) fixed(n int) ([]byte, error) {
	if len(r.b)-r.i < n {
		return nil, ErrTruncated
	}
	v := r.b[r.i : r.i+n]
	r.i += n
	return v, nil
}

// skip passes over one value of the given wire type, as generated code does for field
// numbers it does not know. Groups are skipped to their matching end.
func (r *reader) skip(wt int) error {
	switch wt {
	case wireVarint:
		_, err := r.varint()
		return err
	case wireFixed64:
		_, err := r.fixed(8)
		return err
	case wireBytes:
		_, err := r.bytes()
		return err
	case wireFixed32:
		_, err := r.fixed(4)
		return err
	case wireStart:
		// Iterative, so nested groups in hostile input cannot grow the stack.
		depth := 1
		for depth > 0 {
			if r.done() {
				return ErrTruncated
			}
			_, w, err := r.tag()
			if err != nil {
				return err
			}
			switch w {
			case wireStart:
				depth++
			case wireEnd:
				depth--
			default:
				if err := r.skip(w); err != nil {
					return err
				}
			}
		}
		return nil
	default:
		return fmt.Errorf("protobuf: illegal wire type %d", wt)
	}
}
