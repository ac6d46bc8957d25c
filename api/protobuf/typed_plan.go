package protobuf

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"unsafe"

	"github.com/informer-lab/informer-lab/api"
)

// The typed path: a Go struct (api.Pod, api.ConfigMapList, …) is read and written directly,
// with no JSON tree between. Each pair of a Go type and a message gets a plan once: for
// every Go field, the message field its json name names, its offset in the struct and the
// operation that reads or writes it. The generated Marshal and Unmarshal of k8s.io/api do
// the same work from code; here the descriptors drive it.

// ErrNotTyped is returned by the typed entry points for a Go type the typed path cannot
// serve: a field with no counterpart in the message or of a Go type it does not handle, or
// an object that keeps the JSON it was decoded from (its unmodeled members are JSON, which
// only the tree path merges). Callers fall back to the tree path.
var ErrNotTyped = errors.New("protobuf: no typed plan for this Go type")

// op is what a planned field does.
type op uint8

const (
	opString op = iota + 1 // a string kind
	opBool
	opInt64
	opInt32
	opPtrString
	opPtrBool
	opPtrInt64
	opPtrInt32
	opBytes // []byte
	opTime  // api.Time
	opPtrTime
	opStruct // a nested message held by value
	opPtrStruct
	opStructSlice // a repeated message
	opStringSlice // a repeated string
	opMapStringString
	opMapStringBytes
)

// tfield is one planned Go field.
type tfield struct {
	f    *field
	op   op
	off  uintptr
	sub  *plan        // the plan of a nested struct (opStruct, opPtrStruct, opStructSlice)
	typ  reflect.Type // the Go type of the field
	size uintptr      // the size of one element (opStructSlice)
}

// plan binds a Go struct type to a message.
type plan struct {
	m      *message
	typ    reflect.Type
	fields []tfield // in field-number order
	byNum  []int16  // field number → index in fields, -1 when the Go type does not model it
	// typeMeta and unmodeled are the offsets of an embedded api.TypeMeta and an
	// api.Unmodeled field, when hasTypeMeta and hasUnmodeled.
	typeMeta, unmodeled       uintptr
	hasTypeMeta, hasUnmodeled bool
	// name is the index in fields of the "name" string field, -1 without one: the key that
	// matches list elements to the kept message's (preserve.go's rule 3).
	name int
	// honest[num] is what a missing field number costs (fill): 1 plus its nested honest
	// fields for a field the generated Marshal always writes, 0 otherwise.
	honest      []int32
	honestTotal int
	// zeroRaw holds the zero values of the fields the generated Marshal always writes and
	// the Go type does not model: what a struct built in Go, with no kept message, merges.
	zeroRaw []byte
	toJSON  *api.ProtobufToJSON
}

type planKey struct {
	t reflect.Type
	m *message
}

type planResult struct {
	p   *plan
	err error
}

var (
	typeMetaType  = reflect.TypeFor[api.TypeMeta]()
	unmodeledType = reflect.TypeFor[api.Unmodeled]()
	timeType      = reflect.TypeFor[api.Time]()
)

// typedPlans caches the plans of a Codec, keyed by Go type and message.
type typedPlans struct {
	mu    sync.Mutex
	plans sync.Map // planKey → planResult
}

// planFor returns the plan of t (a struct type) against m, building it on first use.
func (c *Codec) planFor(t reflect.Type, m *message) (*plan, error) {
	k := planKey{t, m}
	if v, ok := c.typed.plans.Load(k); ok {
		r := v.(planResult)
		return r.p, r.err
	}
	c.typed.mu.Lock()
	defer c.typed.mu.Unlock()
	building := map[planKey]*plan{}
	p, err := c.buildPlan(t, m, building, 0)
	c.typed.plans.Store(k, planResult{p, err})
	return p, err
}

func (c *Codec) buildPlan(t reflect.Type, m *message, building map[planKey]*plan, depth int) (*plan, error) {
	k := planKey{t, m}
	if v, ok := c.typed.plans.Load(k); ok {
		r := v.(planResult)
		return r.p, r.err
	}
	if p, ok := building[k]; ok {
		return p, nil
	}
	if depth > maxDepth || t.Kind() != reflect.Struct || m.special != plain {
		return nil, fmt.Errorf("%w: %s against %s", ErrNotTyped, t, m.name)
	}
	p := &plan{m: m, typ: t, name: -1}
	building[k] = p
	byJSON := map[string]*field{}
	for _, f := range m.fields {
		if f.inline {
			return nil, fmt.Errorf("%w: %s has an inline field", ErrNotTyped, m.name)
		}
		byJSON[f.json] = f
	}
	for i := range t.NumField() {
		sf := t.Field(i)
		switch {
		case sf.Type == typeMetaType && sf.Anonymous:
			p.typeMeta, p.hasTypeMeta = sf.Offset, true
			continue
		case sf.Type == unmodeledType:
			p.unmodeled, p.hasUnmodeled = sf.Offset, true
			continue
		}
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name == "-" || !sf.IsExported() {
			continue
		}
		f := byJSON[name]
		if f == nil {
			return nil, fmt.Errorf("%w: %s.%s has no field %q in %s", ErrNotTyped, t, sf.Name, name, m.name)
		}
		tf, err := c.planField(sf.Type, f, building, depth)
		if err != nil {
			return nil, fmt.Errorf("%s.%s: %w", t, sf.Name, err)
		}
		tf.off = sf.Offset
		p.fields = append(p.fields, tf)
	}
	// number order, as the generated code writes
	for i := 1; i < len(p.fields); i++ {
		for j := i; j > 0 && p.fields[j].f.num < p.fields[j-1].f.num; j-- {
			p.fields[j], p.fields[j-1] = p.fields[j-1], p.fields[j]
		}
	}
	maxNum := 0
	for _, f := range m.fields {
		maxNum = max(maxNum, f.num)
	}
	p.byNum = make([]int16, maxNum+1)
	p.honest = make([]int32, maxNum+1)
	for i := range p.byNum {
		p.byNum[i] = -1
	}
	for i, tf := range p.fields {
		p.byNum[tf.f.num] = int16(i)
		if tf.f.json == "name" && tf.op == opString {
			p.name = i
		}
	}
	for _, f := range m.fields {
		if f.nullable {
			continue
		}
		n := 1
		if f.kind == kMessage {
			n += honestFields(f.msg, 0)
		}
		p.honest[f.num] = int32(n)
		p.honestTotal += n
	}
	e := encoder{c: c}
	for _, f := range m.fields {
		if f.nullable || f.repeated || f.kind == kMap || p.byNum[f.num] >= 0 {
			continue
		}
		var zero any
		if f.kind == kMessage {
			zero = zeroValue(f.msg)
		} else {
			zero = zeroScalar(f.kind)
		}
		var err error
		if p.zeroRaw, err = e.field(p.zeroRaw, m, f, zero); err != nil {
			return nil, fmt.Errorf("protobuf: the zero value of %s.%s: %w", m.name, f.json, err)
		}
	}
	if p.hasUnmodeled {
		p.toJSON = api.NewProtobufToJSON(func(msg []byte) ([]byte, error) {
			tree, err := c.unmarshalMessage(m, msg)
			if err != nil {
				return nil, err
			}
			return json.Marshal(tree)
		})
	}
	return p, nil
}

// planField picks the operation for a Go field of type t holding message field f.
func (c *Codec) planField(t reflect.Type, f *field, building map[planKey]*plan, depth int) (tfield, error) {
	tf := tfield{f: f, typ: t}
	bad := fmt.Errorf("%w: Go type %s for %s field %q", ErrNotTyped, t, kindName(f), f.json)
	scalar := func(k reflect.Kind) (op, bool) {
		switch {
		case k == reflect.String && f.kind == kString:
			return opString, true
		case k == reflect.Bool && f.kind == kBool:
			return opBool, true
		case k == reflect.Int64 && f.kind == kInt64:
			return opInt64, true
		case k == reflect.Int32 && f.kind == kInt32:
			return opInt32, true
		}
		return 0, false
	}
	if f.kind == kMap {
		if t.Kind() != reflect.Map || t.Key().Kind() != reflect.String || f.key != kString {
			return tf, bad
		}
		switch {
		case t.Elem().Kind() == reflect.String && f.value == kString:
			tf.op = opMapStringString
		case t.Elem().Kind() == reflect.Slice && t.Elem().Elem().Kind() == reflect.Uint8 && f.value == kBytes:
			tf.op = opMapStringBytes
		default:
			return tf, bad
		}
		if t != reflect.TypeFor[map[string]string]() && t != reflect.TypeFor[map[string][]byte]() {
			return tf, bad // named map types would need their own map operations
		}
		return tf, nil
	}
	if f.repeated {
		if t.Kind() != reflect.Slice {
			return tf, bad
		}
		el := t.Elem()
		switch {
		case el.Kind() == reflect.String && f.kind == kString:
			tf.op = opStringSlice
			return tf, nil
		case el.Kind() == reflect.Struct && f.kind == kMessage:
			sub, err := c.buildPlan(el, f.msg, building, depth+1)
			if err != nil {
				return tf, err
			}
			tf.op, tf.sub, tf.size = opStructSlice, sub, el.Size()
			return tf, nil
		}
		return tf, bad
	}
	switch t.Kind() {
	case reflect.Pointer:
		el := t.Elem()
		if o, ok := scalar(el.Kind()); ok {
			tf.op = o + (opPtrString - opString)
			return tf, nil
		}
		if el == timeType && f.kind == kMessage && f.msg.special == spTime {
			tf.op = opPtrTime
			return tf, nil
		}
		if el.Kind() == reflect.Struct && f.kind == kMessage {
			sub, err := c.buildPlan(el, f.msg, building, depth+1)
			if err != nil {
				return tf, err
			}
			tf.op, tf.sub = opPtrStruct, sub
			return tf, nil
		}
	case reflect.Struct:
		if t == timeType && f.kind == kMessage && f.msg.special == spTime {
			tf.op = opTime
			return tf, nil
		}
		if f.kind == kMessage {
			sub, err := c.buildPlan(t, f.msg, building, depth+1)
			if err != nil {
				return tf, err
			}
			tf.op, tf.sub = opStruct, sub
			return tf, nil
		}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 && f.kind == kBytes {
			tf.op = opBytes
			return tf, nil
		}
	default:
		if o, ok := scalar(t.Kind()); ok {
			tf.op = o
			return tf, nil
		}
	}
	return tf, bad
}

func kindName(f *field) string {
	for n, k := range kindNames {
		if k == f.kind {
			return n
		}
	}
	return "?"
}

// typedTarget checks that obj is a non-nil pointer to a struct and returns its type and
// address.
func typedTarget(obj any) (reflect.Type, unsafe.Pointer, error) {
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return nil, nil, fmt.Errorf("%w: want a non-nil pointer to a struct, got %T", ErrNotTyped, obj)
	}
	return v.Elem().Type(), v.UnsafePointer(), nil
}

func addr(p unsafe.Pointer, off uintptr) unsafe.Pointer { return unsafe.Add(p, off) }
