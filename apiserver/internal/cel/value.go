package cel

import (
	"fmt"
	"time"
)

// Value is a CEL runtime value. CEL's types map onto Go types: int → int64, uint → uint64,
// double → float64, bool, string, bytes → Bytes, null_type → NullValue, duration → Duration,
// timestamp → Timestamp, list → List, map → Map, type → *Type, optional → Optional, and an
// evaluation error → *Err. Library types (quantity, url, ip, cidr, semver, format) are
// their own Go types.
type Value = any

// Bytes is CEL's bytes, kept as an immutable string of raw bytes.
type Bytes string

// NullValue is the type of CEL's null.
type NullValue struct{}

// Null is CEL's null.
var Null = NullValue{}

// Duration is CEL's google.protobuf.Duration.
type Duration struct{ D time.Duration }

// Timestamp is CEL's google.protobuf.Timestamp, always held in UTC.
type Timestamp struct{ T time.Time }

// Err is an evaluation error as a value: CEL's && and || may absorb it.
type Err struct{ msg string }

func (e *Err) Error() string { return e.msg }

// errorf makes an *Err.
func errorf(format string, args ...any) *Err { return &Err{msg: fmt.Sprintf(format, args...)} }

// Errors that cel-go shares, with cel-go's texts.
var (
	errNoSuchOverload    = &Err{msg: "no such overload"}
	errDivideByZero      = &Err{msg: "division by zero"}
	errModulusByZero     = &Err{msg: "modulus by zero"}
	errIntOverflow       = &Err{msg: "integer overflow"}
	errUintOverflow      = &Err{msg: "unsigned integer overflow"}
	errTimestampOverflow = &Err{msg: "timestamp overflow"}
)

// Optional is CEL's optional_type value: a value or none.
type Optional struct {
	V  Value
	Ok bool
}

var optNone = Optional{}

// List is CEL's list. Implementations are immutable.
type List interface {
	Len() int
	At(i int) Value
}

// Map is CEL's map. Get takes a key already normalized to int64, uint64, bool or string.
type Map interface {
	Len() int
	Get(key Value) (Value, bool)
	// Range calls f for each entry until f returns false.
	Range(f func(k, v Value) bool)
}

// listOf is a List over a Go slice of values.
type listOf []Value

func (l listOf) Len() int       { return len(l) }
func (l listOf) At(i int) Value { return l[i] }

// mapOf is a Map with insertion order kept, so that iteration over a literal is stable.
type mapOf struct {
	keys []Value
	m    map[Value]Value
}

func newMapOf(n int) *mapOf { return &mapOf{keys: make([]Value, 0, n), m: make(map[Value]Value, n)} }

func (m *mapOf) Len() int { return len(m.keys) }
func (m *mapOf) Get(k Value) (Value, bool) {
	v, ok := m.m[k]
	return v, ok
}
func (m *mapOf) Range(f func(k, v Value) bool) {
	for _, k := range m.keys {
		if !f(k, m.m[k]) {
			return
		}
	}
}
func (m *mapOf) del(k Value) {
	if _, ok := m.m[k]; !ok {
		return
	}
	delete(m.m, k)
	for i, x := range m.keys {
		if x == k {
			m.keys = append(m.keys[:i:i], m.keys[i+1:]...)
			break
		}
	}
}

func (m *mapOf) put(k, v Value) {
	if _, ok := m.m[k]; !ok {
		m.keys = append(m.keys, k)
	}
	m.m[k] = v
}

// mapKey normalizes a value to the key it would be stored under, and looks up numeric
// keys across int, uint and double as CEL's heterogeneous equality requires.
func mapLookup(m Map, k Value) (Value, bool) {
	switch x := k.(type) {
	case string, bool:
		return m.Get(x)
	case int64:
		if v, ok := m.Get(x); ok {
			return v, true
		}
		if x >= 0 {
			return m.Get(uint64(x))
		}
	case uint64:
		if v, ok := m.Get(x); ok {
			return v, true
		}
		if x <= 1<<63-1 {
			return m.Get(int64(x))
		}
	case float64:
		if i, ok := doubleToIntExact(x); ok {
			if v, ok := m.Get(i); ok {
				return v, true
			}
		}
		if u, ok := doubleToUintExact(x); ok {
			return m.Get(u)
		}
	}
	return nil, false
}

func doubleToIntExact(f float64) (int64, bool) {
	if f != f || f < -9.223372036854775808e18 || f >= 9.223372036854775808e18 {
		return 0, false
	}
	i := int64(f)
	return i, float64(i) == f
}

func doubleToUintExact(f float64) (uint64, bool) {
	if f != f || f < 0 || f >= 1.8446744073709551616e19 {
		return 0, false
	}
	u := uint64(f)
	return u, float64(u) == f
}

// NewList makes a list value.
func NewList(elems []Value) List { return listOf(elems) }

// NewMap makes a map value from keys and values of the same length; a later duplicate key
// replaces an earlier one.
func NewMap(keys, vals []Value) Map {
	m := newMapOf(len(keys))
	for i, k := range keys {
		m.put(k, vals[i])
	}
	return m
}

// TypeOfValue is the CEL type of a run-time value, as type(v) returns it.
func TypeOfValue(v Value) *Type { return typeOfValue(v) }

// NewErr makes an evaluation error value with the given text, as a host's variable that
// failed to evaluate yields (cel-go's types.NewErr).
func NewErr(msg string) *Err { return &Err{msg: msg} }
