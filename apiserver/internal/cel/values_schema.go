package cel

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// FromUnstructured wraps decoded JSON data (map[string]any, []any, string, int64, float64,
// bool, nil) as the CEL value its schema node describes, as Kubernetes'
// UnstructuredToVal does. Objects and lists are wrapped lazily: nothing is converted until
// the expression reads it.
func FromUnstructured(v any, s *Schema) Value {
	if v == nil {
		if s.Nullable {
			return Null
		}
		return errorf("invalid data, got null for schema with nullable=false")
	}
	if s.XIntOrString {
		switch x := v.(type) {
		case string:
			return x
		case int64:
			return x
		case int:
			return int64(x)
		case float64:
			if i, ok := doubleToIntExact(x); ok {
				return i
			}
		case json.Number:
			if i, err := x.Int64(); err == nil {
				return i
			}
		}
		return errorf("invalid data, expected XIntOrString value to be either a string or integer")
	}
	switch s.Type {
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			return errorf("invalid data, expected a map for the provided schema with type=object")
		}
		if s.XEmbeddedResource || s.Properties != nil {
			if s.XEmbeddedResource {
				s = s.withTypeAndObjectMeta()
			}
			return &objectValue{m: m, s: s, object: true}
		}
		return &objectValue{m: m, s: s}
	case "array":
		l, ok := v.([]any)
		if !ok {
			return errorf("invalid data, expected an array for the provided schema with type=array")
		}
		if s.Items == nil {
			return errorf("invalid array type, expected Items with a non-empty Schema")
		}
		base := &listValue{elems: l, items: s.Items}
		switch s.XListType {
		case "map":
			keys := make([]string, len(s.XListMapKeys))
			for i, k := range s.XListMapKeys {
				if e, ok := Escape(k); ok {
					keys[i] = e
				} else {
					keys[i] = k
				}
			}
			return &mapListValue{listValue: base, keys: keys}
		case "set":
			return &setListValue{listValue: base}
		case "atomic", "":
			return base
		}
		return errorf("invalid x-kubernetes-list-type, expected 'map', 'set' or 'atomic' but got %s", s.XListType)
	case "string":
		str, ok := v.(string)
		if !ok {
			return errorf("invalid data, expected string, got %T", v)
		}
		switch s.Format {
		case "duration":
			d, err := parseSchemaDuration(str)
			if err != nil {
				return errorf("Invalid duration %s: %v", str, err)
			}
			return Duration{d}
		case "date":
			d, err := time.Parse("2006-01-02", str)
			if err != nil {
				return errorf("Invalid date formatted string %s: %v", str, err)
			}
			return Timestamp{d}
		case "date-time":
			d, err := parseDateTime(str)
			if err != nil {
				return errorf("Invalid date-time formatted string %s: %v", str, err)
			}
			return Timestamp{d}
		case "byte":
			b, err := base64.StdEncoding.DecodeString(str)
			if err != nil {
				return errorf("Invalid byte formatted string %s: %v", str, err)
			}
			return Bytes(b)
		}
		return str
	case "number":
		switch x := v.(type) {
		case int64:
			return float64(x)
		case int:
			return float64(x)
		case float64:
			return x
		case json.Number:
			if f, err := x.Float64(); err == nil {
				return f
			}
		}
		return errorf("invalid data, expected float, got %T", v)
	case "integer":
		switch x := v.(type) {
		case int64:
			return x
		case int:
			return int64(x)
		case float64:
			if i, ok := doubleToIntExact(x); ok {
				return i
			}
		case json.Number:
			if i, err := x.Int64(); err == nil {
				return i
			}
		}
		return errorf("invalid data, expected int, got %T", v)
	case "boolean":
		b, ok := v.(bool)
		if !ok {
			return errorf("invalid data, expected bool, got %T", v)
		}
		return b
	}
	if s.XPreserveUnknown {
		return &preservedValue{v: v}
	}
	return errorf("invalid type, expected object, array, number, integer, boolean or string, or no type with x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields is true, got %s", s.Type)
}

// preservedValue is data under x-kubernetes-preserve-unknown-fields with no type.
type preservedValue struct{ v any }

func (p *preservedValue) celType() *Type { return OpaqueType("unknown") }
func (p *preservedValue) equal(o Value) bool {
	q, ok := o.(*preservedValue)
	return ok && reflect.DeepEqual(p.v, q.v)
}

// objectValue is a JSON object: an object with properties (fields by escaped name; a null
// field is absent) or a map of additionalProperties.
type objectValue struct {
	m      map[string]any
	s      *Schema
	object bool
}

func (o *objectValue) propSchema(k string) *Schema {
	if o.object {
		return o.s.Properties[k]
	}
	return o.s.AdditionalProperties
}

// Len counts every key of the data, declared or not, as Kubernetes does.
func (o *objectValue) Len() int { return len(o.m) }

func (o *objectValue) Get(key Value) (Value, bool) {
	k, ok := key.(string)
	if !ok {
		return nil, false
	}
	if o.object {
		if k, ok = Unescape(k); !ok {
			return nil, false
		}
	}
	v, ok := o.m[k]
	if !ok || o.object && v == nil {
		return nil, false
	}
	ps := o.propSchema(k)
	if ps == nil {
		return nil, false
	}
	return FromUnstructured(v, ps), true
}

func (o *objectValue) Range(f func(k, v Value) bool) {
	for k, raw := range o.m {
		ps := o.propSchema(k)
		if ps == nil {
			continue
		}
		key := k
		if o.object {
			if e, ok := Escape(k); ok {
				key = e
			}
			if raw == nil {
				continue
			}
		}
		if !f(key, FromUnstructured(raw, ps)) {
			return
		}
	}
}

// equal mirrors Kubernetes' unstructuredMap.Equal: declared keys compare as CEL values,
// undeclared ones as data.
func (o *objectValue) equal(other Value) bool {
	om, ok := other.(Map)
	if !ok || o.Len() != om.Len() {
		return false
	}
	for k, raw := range o.m {
		if o.propSchema(k) != nil {
			key := k
			if o.object {
				if e, ok := Escape(k); ok {
					key = e
				}
			}
			v, found := o.Get(key)
			ov, ofound := om.Get(key)
			if found != ofound {
				return false
			}
			if found && !equal(v, ov) {
				return false
			}
			continue
		}
		oo, ok := other.(*objectValue)
		if !ok {
			return false
		}
		if x, ok := oo.m[k]; ok && !reflect.DeepEqual(raw, x) {
			return false
		}
	}
	return true
}

// listValue is a JSON array whose items share a schema.
type listValue struct {
	elems []any
	items *Schema
}

func (l *listValue) Len() int       { return len(l.elems) }
func (l *listValue) At(i int) Value { return FromUnstructured(l.elems[i], l.items) }

// setListValue is an x-kubernetes-list-type=set array: equality ignores order and + is a
// union.
type setListValue struct{ *listValue }

func (l *setListValue) equal(other Value) bool {
	ol, ok := other.(List)
	if !ok || ol.Len() != l.Len() {
		return false
	}
	set := map[any]bool{}
	for _, e := range l.elems {
		set[hashable(e)] = true
	}
	for i := 0; i < ol.Len(); i++ {
		if !set[hashable(nativeOf(ol.At(i)))] {
			return false
		}
	}
	return true
}

func (l *setListValue) add(other List) Value {
	elems := append([]any(nil), l.elems...)
	set := map[any]bool{}
	for _, e := range elems {
		set[hashable(e)] = true
	}
	for i := 0; i < other.Len(); i++ {
		n := nativeOf(other.At(i))
		if h := hashable(n); !set[h] {
			set[h] = true
			elems = append(elems, n)
		}
	}
	return &setListValue{&listValue{elems: elems, items: l.items}}
}

// mapListValue is an x-kubernetes-list-type=map array: items are identified by their key
// fields; equality ignores order and + replaces items with the same key.
type mapListValue struct {
	*listValue
	keys []string
}

func (l *mapListValue) key(e any) any {
	m, _ := e.(map[string]any)
	parts := make([]any, len(l.keys))
	for i, k := range l.keys {
		parts[i] = hashable(m[k])
	}
	return fmt.Sprint(parts)
}

func (l *mapListValue) equal(other Value) bool {
	ol, ok := other.(List)
	if !ok || ol.Len() != l.Len() {
		return false
	}
	byKey := map[any]any{}
	for _, e := range l.elems {
		byKey[l.key(e)] = e
	}
	for i := 0; i < ol.Len(); i++ {
		ov := ol.At(i)
		mine, ok := byKey[l.key(nativeOf(ov))]
		if !ok || !equal(FromUnstructured(mine, l.items), ov) {
			return false
		}
	}
	return true
}

func (l *mapListValue) add(other List) Value {
	elems := append([]any(nil), l.elems...)
	idx := map[any]int{}
	for i, e := range elems {
		idx[l.key(e)] = i
	}
	for i := 0; i < other.Len(); i++ {
		n := nativeOf(other.At(i))
		if at, ok := idx[l.key(n)]; ok {
			elems[at] = n
		} else {
			idx[l.key(n)] = len(elems)
			elems = append(elems, n)
		}
	}
	return &mapListValue{listValue: &listValue{elems: elems, items: l.items}, keys: l.keys}
}

// listAdder is a list with its own + (set and map lists).
type listAdder interface{ add(other List) Value }

// nativeOf turns a CEL value back into JSON-like data, for the set and map lists that
// compare and merge raw items.
func nativeOf(v Value) any {
	switch x := v.(type) {
	case *objectValue:
		return x.m
	case *listValue:
		return x.elems
	case *setListValue:
		return x.elems
	case *mapListValue:
		return x.elems
	case List:
		out := make([]any, x.Len())
		for i := range out {
			out[i] = nativeOf(x.At(i))
		}
		return out
	case Map:
		out := map[string]any{}
		x.Range(func(k, v Value) bool {
			out[fmt.Sprint(k)] = nativeOf(v)
			return true
		})
		return out
	case int:
		return int64(x)
	}
	return v
}

// hashable turns data into something usable as a Go map key.
func hashable(v any) any {
	switch x := v.(type) {
	case map[string]any, []any:
		b, _ := json.Marshal(x)
		return "json:" + string(b)
	case float64:
		if i, ok := doubleToIntExact(x); ok {
			return i
		}
	case int:
		return int64(x)
	}
	return v
}

// durationPart compiles on first use, not at every process start.
var durationPart = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`((\d+)\s*([A-Za-zµ]+))`) })

// parseSchemaDuration parses a duration as kube-openapi's strfmt.ParseDuration: Go's
// syntax, or a sequence of <n><unit> with units from ns to weeks.
func parseSchemaDuration(s string) (time.Duration, error) {
	if d, err := time.ParseDuration(s); err == nil {
		return d, nil
	}
	units := [][]string{{"ns", "nano"}, {"us", "µs", "micro"}, {"ms", "milli"}, {"s", "sec"},
		{"m", "min"}, {"h", "hr", "hour"}, {"d", "day"}, {"w", "wk", "week"}}
	mult := []time.Duration{time.Nanosecond, time.Microsecond, time.Millisecond, time.Second,
		time.Minute, time.Hour, 24 * time.Hour, 7 * 24 * time.Hour}
	var d time.Duration
	ok := false
	for _, m := range durationPart().FindAllStringSubmatch(s, -1) {
		n, err := strconv.Atoi(m[2])
		if err != nil {
			return 0, err
		}
		unit := strings.ToLower(strings.TrimSpace(m[3]))
		for ui, variants := range units {
			for i, v := range variants {
				if i == len(variants)-1 && strings.HasPrefix(unit, v) || strings.EqualFold(v, unit) {
					ok = true
					d += time.Duration(n) * mult[ui]
				}
			}
		}
	}
	if !ok {
		return 0, fmt.Errorf("unable to parse %s as duration", s)
	}
	return d, nil
}

// parseDateTime tries the layouts of kube-openapi's strfmt.ParseDateTime.
func parseDateTime(s string) (time.Time, error) {
	if s == "" {
		return time.Unix(0, 0).UTC(), nil
	}
	var last error
	for _, layout := range []string{"2006-01-02T15:04:05.000000Z07:00", "2006-01-02T15:04:05.000Z07:00",
		time.RFC3339, time.RFC3339Nano, "2006-01-02T15:04:05"} {
		t, err := time.Parse(layout, s)
		if err == nil {
			return t, nil
		}
		last = err
	}
	return time.Time{}, last
}

var _ = math.MaxInt64
