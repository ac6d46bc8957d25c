package protobuf

import (
	"fmt"
	"reflect"
	"time"
	"unsafe"

	"github.com/informer-lab/informer-lab/api"
)

// tdecoder fills typed structs from protobuf bytes. Every string it sets is a substring of
// one copy of the input (src), and a typed object's kept message (api.Unmodeled) a read-only
// slice of it; []byte values are copied, as the caller may change them.
type tdecoder struct {
	src   []byte // the input copy; read-only, it backs strings
	depth int
	// filled counts fields missing from the wire that an honest encoding holds, as the tree
	// decoder's fill does; budget the bytes of Go memory elements and entries may still take.
	filled int
	budget int
}

// typedBudgetFactor bounds the Go memory a typed decode allocates for list elements, map
// entries and pointers to this many times the input's length (plus fillSlack KiB): a real
// object's Go form is smaller than that, while empty elements two bytes long would make a
// whole struct each.
const typedBudgetFactor = 32

func newTDecoder(data []byte) *tdecoder {
	s := string(data)
	return &tdecoder{src: unsafe.Slice(unsafe.StringData(s), len(s)), budget: typedBudgetFactor*len(data) + fillSlack<<10}
}

// str returns b, a slice of d.src, as a string sharing its memory.
func (d *tdecoder) str(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

func (d *tdecoder) charge(p *plan, n int) error {
	d.budget -= n
	if d.budget < 0 {
		return fmt.Errorf("protobuf: %s: %d bytes declare more elements than they can hold (Go memory budget spent)", p.m.name, len(d.src))
	}
	return nil
}

// sliceHeader is the layout of a Go slice.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// message reads data, one message of p's kind, into the struct at ptr. Unknown and unmodeled
// field numbers are skipped, as the generated code skips unknown ones; the struct keeps
// the whole message when it has an api.Unmodeled field.
func (d *tdecoder) message(p *plan, data []byte, ptr unsafe.Pointer) error {
	d.depth++
	defer func() { d.depth-- }()
	if d.depth > maxDepth {
		return fmt.Errorf("protobuf: %s: nested too deeply", p.m.name)
	}
	var seen [4]uint64 // field numbers below 256 seen, for the honest-fields count
	missing := p.honestTotal
	r := reader{b: data}
	for !r.done() {
		num, wt, err := r.tag()
		if err != nil {
			return err
		}
		if num < len(p.honest) && p.honest[num] > 0 && (num >= 256 || seen[num>>6]&(1<<(num&63)) == 0) {
			if num < 256 {
				seen[num>>6] |= 1 << (num & 63)
			}
			missing -= int(p.honest[num])
		}
		idx := -1
		if num < len(p.byNum) {
			idx = int(p.byNum[num])
		}
		if idx < 0 {
			if num < len(p.m.byNum) {
				if f := p.m.byNum[num]; f != nil && wt != f.wire && !(f.repeated && wt == wireBytes) {
					return fmt.Errorf("protobuf: %s.%s: wrong wire type %d", p.m.name, f.json, wt)
				}
			}
			if err := r.skip(wt); err != nil {
				return err
			}
			continue
		}
		tf := &p.fields[idx]
		if wt != tf.f.wire {
			return fmt.Errorf("protobuf: %s.%s: wrong wire type %d", p.m.name, tf.f.json, wt)
		}
		if err := d.field(p, tf, &r, unsafe.Add(ptr, tf.off)); err != nil {
			return err
		}
	}
	if missing > 0 {
		d.filled += missing
		if d.filled > len(d.src)+fillSlack {
			return fmt.Errorf("protobuf: %s: %d bytes declare more elements than they can hold (%d fields missing)", p.m.name, len(d.src), d.filled)
		}
	}
	if p.hasUnmodeled {
		*(*api.Unmodeled)(unsafe.Add(ptr, p.unmodeled)) = api.UnmodeledProtobuf(data[:len(data):len(data)], p.toJSON)
	}
	return nil
}

func (d *tdecoder) field(p *plan, tf *tfield, r *reader, fp unsafe.Pointer) error {
	switch tf.op {
	case opString, opPtrString:
		v, err := r.bytes()
		if err != nil {
			return err
		}
		if tf.op == opString {
			*(*string)(fp) = d.str(v)
			return nil
		}
		if err := d.charge(p, 16); err != nil {
			return err
		}
		s := d.str(v)
		*(**string)(fp) = &s
	case opBool, opInt64, opInt32, opPtrBool, opPtrInt64, opPtrInt32:
		v, err := r.varint()
		if err != nil {
			return err
		}
		return d.scalar(p, tf.op, v, fp)
	case opBytes:
		v, err := r.bytes()
		if err != nil {
			return err
		}
		*(*[]byte)(fp) = append([]byte{}, v...)
	case opTime, opPtrTime:
		v, err := r.bytes()
		if err != nil {
			return err
		}
		t, err := readTimestamp(tf.f.msg, v)
		if err != nil {
			return err
		}
		if tf.op == opTime {
			*(*api.Time)(fp) = t
			return nil
		}
		if err := d.charge(p, 24); err != nil {
			return err
		}
		tp := new(api.Time) // not &t: t would then live on the heap for opTime too
		*tp = t
		*(**api.Time)(fp) = tp
	case opStruct:
		v, err := r.bytes()
		if err != nil {
			return err
		}
		return d.message(tf.sub, v, fp)
	case opPtrStruct:
		v, err := r.bytes()
		if err != nil {
			return err
		}
		sp := (*unsafe.Pointer)(fp)
		if *sp == nil {
			if err := d.charge(p, int(tf.sub.typ.Size())); err != nil {
				return err
			}
			*sp = reflect.New(tf.sub.typ).UnsafePointer()
		}
		return d.message(tf.sub, v, *sp)
	case opStructSlice:
		v, err := r.bytes()
		if err != nil {
			return err
		}
		sh := (*sliceHeader)(fp)
		if sh.len == sh.cap {
			if err := d.grow(p, tf, r, sh); err != nil {
				return err
			}
		}
		el := unsafe.Add(sh.data, uintptr(sh.len)*tf.size)
		sh.len++
		return d.message(tf.sub, v, el)
	case opStringSlice:
		v, err := r.bytes()
		if err != nil {
			return err
		}
		s := (*[]string)(fp)
		if len(*s) == cap(*s) {
			n := len(*s) + 1 + countField(r, tf.f.num)
			if err := d.charge(p, 16*n); err != nil {
				return err
			}
			*s = append(make([]string, 0, n), *s...)
		}
		*s = append(*s, d.str(v))
	case opMapStringString, opMapStringBytes:
		v, err := r.bytes()
		if err != nil {
			return err
		}
		if err := d.charge(p, 48); err != nil {
			return err
		}
		return d.mapEntry(p, tf, v, fp)
	}
	return nil
}

func (d *tdecoder) scalar(p *plan, o op, v uint64, fp unsafe.Pointer) error {
	switch o {
	case opBool:
		*(*bool)(fp) = v != 0
	case opInt64:
		*(*int64)(fp) = int64(v)
	case opInt32:
		*(*int32)(fp) = int32(v)
	default:
		if err := d.charge(p, 8); err != nil {
			return err
		}
		switch o {
		case opPtrBool:
			b := v != 0
			*(**bool)(fp) = &b
		case opPtrInt64:
			i := int64(v)
			*(**int64)(fp) = &i
		case opPtrInt32:
			i := int32(v)
			*(**int32)(fp) = &i
		}
	}
	return nil
}

// grow makes room for the elements of a repeated message still ahead in r, counted first,
// so a list of n is allocated once.
func (d *tdecoder) grow(p *plan, tf *tfield, r *reader, sh *sliceHeader) error {
	n := sh.len + 1 + countField(r, tf.f.num)
	if err := d.charge(p, n*int(tf.size)); err != nil {
		return err
	}
	ns := reflect.MakeSlice(tf.typ, sh.len, n)
	if sh.len > 0 {
		old := reflect.NewAt(tf.typ, unsafe.Pointer(sh)).Elem()
		reflect.Copy(ns, old)
	}
	reflect.NewAt(tf.typ, unsafe.Pointer(sh)).Elem().Set(ns)
	return nil
}

// countField counts the fields numbered num in the rest of r, stopping at the first error
// (which the decoding proper then reports).
func countField(r *reader, num int) int {
	c := reader{b: r.b, i: r.i}
	n := 0
	for !c.done() {
		k, wt, err := c.tag()
		if err != nil {
			return n
		}
		if k == num {
			n++
		}
		if c.skip(wt) != nil {
			return n
		}
	}
	return n
}

// mapEntry reads one entry of a map field: key 1, value 2, both length-delimited.
func (d *tdecoder) mapEntry(p *plan, tf *tfield, data []byte, fp unsafe.Pointer) error {
	var key, val []byte
	r := reader{b: data}
	for !r.done() {
		num, wt, err := r.tag()
		if err != nil {
			return err
		}
		if num > 2 {
			if err := r.skip(wt); err != nil {
				return err
			}
			continue
		}
		if wt != wireBytes {
			return fmt.Errorf("protobuf: %s.%s: wrong wire type %d in a map entry", p.m.name, tf.f.json, wt)
		}
		v, err := r.bytes()
		if err != nil {
			return err
		}
		if num == 1 {
			key = v
		} else {
			val = v
		}
	}
	if tf.op == opMapStringString {
		m := (*map[string]string)(fp)
		if *m == nil {
			*m = map[string]string{}
		}
		(*m)[d.str(key)] = d.str(val)
		return nil
	}
	m := (*map[string][]byte)(fp)
	if *m == nil {
		*m = map[string][]byte{}
	}
	(*m)[d.str(key)] = append([]byte{}, val...)
	return nil
}

// readTimestamp reads a Time as the generated Unmarshal does: whole seconds, zero for an
// empty message. It is UTC, as the JSON decoder leaves it.
func readTimestamp(m *message, data []byte) (api.Time, error) {
	if len(data) == 0 {
		return api.Time{}, nil
	}
	var secs int64
	r := reader{b: data}
	for !r.done() {
		num, wt, err := r.tag()
		if err != nil {
			return api.Time{}, err
		}
		if (num == 1 || num == 2) && wt != wireVarint {
			return api.Time{}, fmt.Errorf("protobuf: %s: wrong wire type %d", m.name, wt)
		}
		if num != 1 {
			if err := r.skip(wt); err != nil {
				return api.Time{}, err
			}
			continue
		}
		v, err := r.varint()
		if err != nil {
			return api.Time{}, err
		}
		secs = int64(v)
	}
	return api.Time{Time: time.Unix(secs, 0).UTC()}, nil
}
