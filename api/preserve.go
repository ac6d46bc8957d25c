package api

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// Preserving the fields our typed views do not model. Pod, ConfigMap, Namespace and Node model
// only what the chapters use, while a real object carries many more fields (env, ports,
// probes, volumes, …). A typed object decoded from JSON keeps that JSON; encoding it again
// starts from the typed fields and puts back every member the Go struct has no field for,
// level by level. So a typed Get, a change to one field and an Update lose nothing, against
// our server and a real one. client-go needs no such thing: its types are complete.
//
// The rules, per level:
//  1. A member the struct models comes from the typed value: set, changed or cleared there,
//     it is set, changed or cleared on the wire.
//  2. A member the struct does not model comes from the JSON the object was decoded from.
//  3. Lists of objects are matched element by element by their "name" member where every
//     element has one (containers, ports, volumes), else by position when the lengths agree;
//     an element without a partner is taken from the typed value alone.

// Unmodeled holds the JSON a typed object was decoded from, for the members its Go struct
// does not model. It is shared, never changed, so copies of the object share it. It is ours:
// client-go's types are complete and need nothing like it.
type Unmodeled struct {
	data []byte
	// pb is the protobuf message the object was decoded from, when it came in protobuf
	// (preserve_protobuf.go); toJSON turns it into JSON when the object is encoded as JSON.
	pb     []byte
	toJSON *ProtobufToJSON
}

// Equal reports true: the kept JSON is a transport detail, not part of the object's value,
// so go-cmp (which calls Equal methods) compares typed objects by their fields alone.
func (Unmodeled) Equal(Unmodeled) bool { return true }

// Len is the size of the kept JSON, 0 for an object built in Go.
func (u Unmodeled) Len() int { return len(u.data) + len(u.pb) }

var marshalerType = reflect.TypeFor[json.Marshaler]()

// encodePreserving encodes typed (the plain struct value, without a MarshalJSON of its own)
// and merges the members of raw it does not model back in. Members keep the typed encoding's
// order, the kept ones follow in sorted order.
func encodePreserving(typed any, raw []byte) ([]byte, error) {
	out, err := json.Marshal(typed)
	if err != nil || len(raw) == 0 {
		return out, err
	}
	var rawV any
	if err := unmarshalNumbers(raw, &rawV); err != nil {
		return out, nil // the kept JSON is not ours to fix: encode the typed value alone
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber()
	typedV, err := decodeOrdered(dec)
	if err != nil {
		return out, nil
	}
	merged, changed := mergeUnmodeled(rawV, typedV, reflect.TypeOf(typed))
	if !changed {
		return out, nil
	}
	var b bytes.Buffer
	if err := writeOrdered(&b, merged); err != nil {
		return out, nil
	}
	return b.Bytes(), nil
}

func unmarshalNumbers(data []byte, v *any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec.Decode(v)
}

// orderedObject is a JSON object that remembers its member order.
type orderedObject struct {
	keys []string
	vals map[string]any
}

// decodeOrdered reads one JSON value, objects as *orderedObject.
func decodeOrdered(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		o := &orderedObject{vals: map[string]any{}}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			k, _ := kt.(string)
			v, err := decodeOrdered(dec)
			if err != nil {
				return nil, err
			}
			o.keys = append(o.keys, k)
			o.vals[k] = v
		}
		_, err := dec.Token()
		return o, err
	case json.Delim('['):
		var l []any
		for dec.More() {
			v, err := decodeOrdered(dec)
			if err != nil {
				return nil, err
			}
			l = append(l, v)
		}
		_, err := dec.Token()
		if l == nil {
			l = []any{}
		}
		return l, err
	}
	return tok, nil
}

// writeOrdered encodes a tree whose objects may be *orderedObject.
func writeOrdered(b *bytes.Buffer, v any) error {
	switch v := v.(type) {
	case *orderedObject:
		b.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			kb, _ := json.Marshal(k)
			b.Write(kb)
			b.WriteByte(':')
			if err := writeOrdered(b, v.vals[k]); err != nil {
				return err
			}
		}
		b.WriteByte('}')
		return nil
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writeOrdered(b, e); err != nil {
				return err
			}
		}
		b.WriteByte(']')
		return nil
	}
	data, err := json.Marshal(v)
	b.Write(data)
	return err
}

// mergeUnmodeled merges one level (rules 1–3); t is the Go type of the typed value. changed
// reports whether any kept member was added.
func mergeUnmodeled(raw, typed any, t reflect.Type) (any, bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(marshalerType) || t.Implements(marshalerType) {
		return typed, false
	}
	switch t.Kind() {
	case reflect.Struct:
		rawM, ok1 := raw.(map[string]any)
		typedO, ok2 := typed.(*orderedObject)
		if !ok1 || !ok2 {
			return typed, false
		}
		known := jsonFields(t)
		changed := false
		for _, k := range typedO.keys {
			if ft, modeled := known[k]; modeled {
				v, c := mergeUnmodeled(rawM[k], typedO.vals[k], ft)
				typedO.vals[k], changed = v, changed || c
			}
		}
		var extra []string
		for k := range rawM {
			if _, modeled := known[k]; !modeled {
				if _, present := typedO.vals[k]; !present {
					extra = append(extra, k)
				}
			}
		}
		slices.Sort(extra)
		for _, k := range extra {
			typedO.keys = append(typedO.keys, k)
			typedO.vals[k] = rawM[k]
		}
		return typedO, changed || len(extra) > 0
	case reflect.Slice:
		rawL, ok1 := raw.([]any)
		typedL, ok2 := typed.([]any)
		if !ok1 || !ok2 {
			return typed, false
		}
		return mergeList(rawL, typedL, t.Elem())
	case reflect.Map:
		rawM, ok1 := raw.(map[string]any)
		typedO, ok2 := typed.(*orderedObject)
		if !ok1 || !ok2 {
			return typed, false
		}
		changed := false
		for _, k := range typedO.keys {
			v, c := mergeUnmodeled(rawM[k], typedO.vals[k], t.Elem())
			typedO.vals[k], changed = v, changed || c
		}
		return typedO, changed
	}
	return typed, false
}

// mergeList pairs the elements of a list (rule 3).
func mergeList(raw, typed []any, elem reflect.Type) ([]any, bool) {
	changed := false
	rawByName, named := byName(raw)
	if named && typedNamed(typed) {
		for i, v := range typed {
			name, _ := v.(*orderedObject).vals["name"].(string)
			var c bool
			typed[i], c = mergeUnmodeled(rawByName[name], v, elem)
			changed = changed || c
		}
		return typed, changed
	}
	if len(raw) == len(typed) {
		for i, v := range typed {
			var c bool
			typed[i], c = mergeUnmodeled(raw[i], v, elem)
			changed = changed || c
		}
	}
	return typed, changed
}

// byName indexes a list of objects by their "name" member; ok is false unless every
// element is an object with a distinct string name.
func byName(list []any) (map[string]any, bool) {
	if len(list) == 0 {
		return nil, false
	}
	out := make(map[string]any, len(list))
	for _, v := range list {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		name, ok := m["name"].(string)
		if _, dup := out[name]; !ok || dup {
			return nil, false
		}
		out[name] = m
	}
	return out, true
}

// typedNamed reports whether every element of a typed list is an object with a name.
func typedNamed(list []any) bool {
	for _, v := range list {
		o, ok := v.(*orderedObject)
		if !ok {
			return false
		}
		if _, ok := o.vals["name"].(string); !ok {
			return false
		}
	}
	return len(list) > 0
}

var fieldCache sync.Map // reflect.Type → map[string]reflect.Type

// jsonFields lists the JSON members a struct type encodes, inline members included.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	if f, ok := fieldCache.Load(t); ok {
		return f.(map[string]reflect.Type)
	}
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && (name == "" || strings.Contains(opts, "inline")) {
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				for k, v := range jsonFields(ft) {
					out[k] = v
				}
				continue
			}
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	fieldCache.Store(t, out)
	return out
}
