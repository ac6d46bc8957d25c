package protobuf

import (
	"fmt"
	"slices"
	"unsafe"

	"github.com/informer-lab/informer-lab/api"
)

// tencoder writes typed structs as the generated Marshal does: fields in number order,
// scalars and structs held by value always, pointers, slices and maps when set, map
// entries sorted by key. A struct that keeps the message it was decoded from
// (api.Unmodeled) gets the fields its Go type does not model back from it, level by level,
// by preserve.go's rules: a modeled field comes from the Go value, an unmodeled one from the
// kept message, and elements of a repeated message are matched to the kept ones by name,
// else by position when the counts agree.
type tencoder struct {
	depth int
	keys  []string
}

// message writes the content of the struct at ptr; raw is the kept message of the same
// level, or nil.
func (e *tencoder) message(b []byte, p *plan, ptr unsafe.Pointer, raw []byte) ([]byte, error) {
	e.depth++
	defer func() { e.depth-- }()
	if e.depth > maxDepth {
		return b, fmt.Errorf("protobuf: %s: nested too deeply", p.m.name)
	}
	if p.hasUnmodeled {
		u := (*api.Unmodeled)(unsafe.Add(ptr, p.unmodeled))
		if u.IsJSON() {
			return b, fmt.Errorf("%w: %s keeps the JSON it was decoded from", ErrNotTyped, p.typ)
		}
		raw, _ = u.Protobuf()
	}
	if raw == nil {
		raw = p.zeroRaw
	}
	var err error
	next := 0 // the next Go field to write
	r := reader{b: raw}
	for !r.done() {
		start := r.i
		num, wt, terr := r.tag()
		if terr == nil {
			terr = r.skip(wt)
		}
		if terr != nil {
			break // a kept message we cannot read adds nothing more
		}
		for next < len(p.fields) && p.fields[next].f.num < num {
			if b, err = e.field(b, p, &p.fields[next], ptr, raw); err != nil {
				return b, err
			}
			next++
		}
		if num < len(p.byNum) && p.byNum[num] >= 0 {
			continue // modeled: the Go value is written instead
		}
		b = append(b, raw[start:r.i]...)
	}
	for ; next < len(p.fields); next++ {
		if b, err = e.field(b, p, &p.fields[next], ptr, raw); err != nil {
			return b, err
		}
	}
	return b, nil
}

func (e *tencoder) field(b []byte, p *plan, tf *tfield, base unsafe.Pointer, raw []byte) ([]byte, error) {
	fp := unsafe.Add(base, tf.off)
	num := tf.f.num
	var err error
	switch tf.op {
	case opString:
		return appendStringField(b, num, *(*string)(fp)), nil
	case opBool:
		return appendBool(b, num, *(*bool)(fp)), nil
	case opInt64:
		return appendVarint(appendTag(b, num, wireVarint), uint64(*(*int64)(fp))), nil
	case opInt32:
		return appendVarint(appendTag(b, num, wireVarint), uint64(int64(*(*int32)(fp)))), nil
	case opPtrString:
		if s := *(**string)(fp); s != nil {
			return appendStringField(b, num, *s), nil
		}
	case opPtrBool:
		if v := *(**bool)(fp); v != nil {
			return appendBool(b, num, *v), nil
		}
	case opPtrInt64:
		if v := *(**int64)(fp); v != nil {
			return appendVarint(appendTag(b, num, wireVarint), uint64(*v)), nil
		}
	case opPtrInt32:
		if v := *(**int32)(fp); v != nil {
			return appendVarint(appendTag(b, num, wireVarint), uint64(int64(*v))), nil
		}
	case opBytes:
		if v := *(*[]byte)(fp); v != nil {
			return appendBytesField(b, num, v), nil
		}
	case opTime:
		return appendTime(b, num, (*api.Time)(fp)), nil
	case opPtrTime:
		if t := *(**api.Time)(fp); t != nil {
			return appendTime(b, num, t), nil
		}
	case opStruct:
		return e.nested(b, tf, fp, findField(raw, num))
	case opPtrStruct:
		if sp := *(*unsafe.Pointer)(fp); sp != nil {
			return e.nested(b, tf, sp, findField(raw, num))
		}
	case opStructSlice:
		sh := (*sliceHeader)(fp)
		counted := -1
		for i := range sh.len {
			el := unsafe.Add(sh.data, uintptr(i)*tf.size)
			var elRaw []byte
			if raw != nil {
				elRaw, counted = e.partner(tf, el, i, sh.len, raw, counted)
			}
			if b, err = e.nested(b, tf, el, elRaw); err != nil {
				return b, err
			}
		}
	case opStringSlice:
		for _, s := range *(*[]string)(fp) {
			b = appendStringField(b, num, s)
		}
	case opMapStringString:
		return e.mapStringString(b, num, *(*map[string]string)(fp)), nil
	case opMapStringBytes:
		return e.mapStringBytes(b, num, *(*map[string][]byte)(fp)), nil
	}
	return b, nil
}

// nested writes a nested message with its tag and length. The kept message's length is a
// good guess at the new one, so the length's room is reserved from it and the content
// rarely moves.
func (e *tencoder) nested(b []byte, tf *tfield, ptr unsafe.Pointer, raw []byte) ([]byte, error) {
	b = appendTag(b, tf.f.num, wireBytes)
	guess := sizeVarint(uint64(len(raw)))
	for range guess {
		b = append(b, 0)
	}
	start := len(b)
	b, err := e.message(b, tf.sub, ptr, raw)
	if err != nil {
		return b, err
	}
	n := len(b) - start
	switch sz := sizeVarint(uint64(n)); {
	case sz > guess:
		b = slices.Insert(b, start, make([]byte, sz-guess)...)
		start += sz - guess
		guess = sz
	case sz < guess:
		b = slices.Delete(b, start-guess+sz, start)
		start -= guess - sz
		guess = sz
	}
	putVarint(b[start-guess:start], uint64(n))
	return b, nil
}

// partner finds the kept element of a repeated message that Go element el (index i of n)
// came from: the one with the same name when the element type has a name, else the one at
// the same position when the counts agree. counted caches the number of kept elements (-1:
// not yet counted).
func (e *tencoder) partner(tf *tfield, el unsafe.Pointer, i, n int, raw []byte, counted int) ([]byte, int) {
	num := tf.f.num
	if ni := tf.sub.name; ni >= 0 {
		nf := &tf.sub.fields[ni]
		name := *(*string)(unsafe.Add(el, nf.off))
		if name != "" {
			return findElement(raw, num, func(msg []byte) bool {
				v := findField(msg, nf.f.num)
				return v != nil && string(v) == name
			}), counted
		}
	}
	if counted < 0 {
		counted = countField(&reader{b: raw}, num)
	}
	if counted != n {
		return nil, counted
	}
	k := 0
	return findElement(raw, num, func([]byte) bool { k++; return k == i+1 }), counted
}

// findField returns the value of the first length-delimited field numbered num in msg, or
// nil.
func findField(msg []byte, num int) []byte {
	return findElement(msg, num, func([]byte) bool { return true })
}

// findElement returns the first length-delimited field numbered num in msg that match
// accepts, or nil.
func findElement(msg []byte, num int, match func([]byte) bool) []byte {
	r := reader{b: msg}
	for !r.done() {
		k, wt, err := r.tag()
		if err != nil {
			return nil
		}
		if k == num && wt == wireBytes {
			v, err := r.bytes()
			if err != nil {
				return nil
			}
			if match(v) {
				return v
			}
			continue
		}
		if r.skip(wt) != nil {
			return nil
		}
	}
	return nil
}

func (e *tencoder) mapStringString(b []byte, num int, m map[string]string) []byte {
	if m == nil {
		return b
	}
	base := len(e.keys)
	for k := range m {
		e.keys = append(e.keys, k)
	}
	keys := e.keys[base:]
	slices.Sort(keys)
	for _, k := range keys {
		v := m[k]
		n := 1 + sizeVarint(uint64(len(k))) + len(k) + 1 + sizeVarint(uint64(len(v))) + len(v)
		b = appendVarint(appendTag(b, num, wireBytes), uint64(n))
		b = appendStringField(b, 1, k)
		b = appendStringField(b, 2, v)
	}
	e.keys = e.keys[:base]
	return b
}

func (e *tencoder) mapStringBytes(b []byte, num int, m map[string][]byte) []byte {
	if m == nil {
		return b
	}
	base := len(e.keys)
	for k := range m {
		e.keys = append(e.keys, k)
	}
	keys := e.keys[base:]
	slices.Sort(keys)
	for _, k := range keys {
		v := m[k]
		n := 1 + sizeVarint(uint64(len(k))) + len(k)
		if v != nil {
			n += 1 + sizeVarint(uint64(len(v))) + len(v)
		}
		b = appendVarint(appendTag(b, num, wireBytes), uint64(n))
		b = appendStringField(b, 1, k)
		if v != nil { // a nil value is left out of the entry, as the generated code does
			b = appendBytesField(b, 2, v)
		}
	}
	e.keys = e.keys[:base]
	return b
}

func appendBool(b []byte, num int, v bool) []byte {
	b = appendTag(b, num, wireVarint)
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

// appendTime writes a Time as the generated code does: nothing inside for the zero time,
// else whole seconds and a zero nanos.
func appendTime(b []byte, num int, t *api.Time) []byte {
	b = appendTag(b, num, wireBytes)
	if t.Time.IsZero() {
		return append(b, 0)
	}
	secs := uint64(t.Unix())
	b = appendVarint(b, uint64(1+sizeVarint(secs)+2))
	b = appendVarint(append(b, 0x08), secs)
	return append(b, 0x10, 0x00)
}

// putVarint writes v into dst, which has exactly its size.
func putVarint(dst []byte, v uint64) {
	for i := range dst {
		if i == len(dst)-1 {
			dst[i] = byte(v)
			return
		}
		dst[i] = byte(v) | 0x80
		v >>= 7
	}
}
