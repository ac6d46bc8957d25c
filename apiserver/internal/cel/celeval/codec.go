package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/apiserver/internal/cel"
)

// jv is a CEL value in the line protocol: exactly one field is set.
type jv struct {
	Int       *string   `json:"int,omitempty"`
	Uint      *string   `json:"uint,omitempty"`
	Double    *string   `json:"double,omitempty"`
	String    *string   `json:"string,omitempty"`
	Bytes     *string   `json:"bytes,omitempty"`
	Bool      *bool     `json:"bool,omitempty"`
	Null      bool      `json:"null,omitempty"`
	List      *[]jv     `json:"list,omitempty"`
	Map       *[]jentry `json:"map,omitempty"`
	Duration  *string   `json:"duration,omitempty"`
	Timestamp *string   `json:"timestamp,omitempty"`
	Type      *string   `json:"type,omitempty"`
	Optional  *jopt     `json:"optional,omitempty"`
	Opaque    *jopaque  `json:"opaque,omitempty"`
}

type jentry struct {
	K jv `json:"k"`
	V jv `json:"v"`
}

type jopt struct {
	Value *jv `json:"value,omitempty"`
}

type jopaque struct {
	Type string `json:"type"`
	Repr string `json:"repr"`
}

func ptr[T any](v T) *T { return &v }

func (j jv) key() string {
	b, _ := json.Marshal(j)
	return string(b)
}

func fmtDouble(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// encode writes a run-time value; map entries are sorted by their encoding so that the
// two implementations' outputs compare byte for byte.
func encode(v cel.Value) jv {
	switch x := v.(type) {
	case int64:
		return jv{Int: ptr(strconv.FormatInt(x, 10))}
	case uint64:
		return jv{Uint: ptr(strconv.FormatUint(x, 10))}
	case float64:
		return jv{Double: ptr(fmtDouble(x))}
	case string:
		return jv{String: ptr(x)}
	case cel.Bytes:
		return jv{Bytes: ptr(base64.StdEncoding.EncodeToString([]byte(x)))}
	case bool:
		return jv{Bool: ptr(x)}
	case cel.NullValue:
		return jv{Null: true}
	case cel.Duration:
		return jv{Duration: ptr(strconv.FormatInt(int64(x.D), 10))}
	case cel.Timestamp:
		return jv{Timestamp: ptr(x.T.UTC().Format(time.RFC3339Nano))}
	case *cel.Type:
		return jv{Type: ptr(x.Name)}
	case cel.Optional:
		if !x.Ok {
			return jv{Optional: &jopt{}}
		}
		e := encode(x.V)
		return jv{Optional: &jopt{Value: &e}}
	case cel.List:
		l := make([]jv, 0, x.Len())
		for i := 0; i < x.Len(); i++ {
			l = append(l, encode(x.At(i)))
		}
		return jv{List: &l}
	case cel.Map:
		var es []jentry
		x.Range(func(k, v cel.Value) bool {
			es = append(es, jentry{K: encode(k), V: encode(v)})
			return true
		})
		sort.Slice(es, func(i, j int) bool { return es[i].K.key() < es[j].K.key() })
		if es == nil {
			es = []jentry{}
		}
		return jv{Map: &es}
	}
	name := cel.TypeOfValue(v).Name
	return jv{Opaque: &jopaque{Type: name, Repr: fmt.Sprint(v)}}
}

// decode reads a value of the protocol.
func decode(j jv) (cel.Value, error) {
	switch {
	case j.Int != nil:
		return strconv.ParseInt(*j.Int, 10, 64)
	case j.Uint != nil:
		return strconv.ParseUint(*j.Uint, 10, 64)
	case j.Double != nil:
		switch *j.Double {
		case "NaN":
			return math.NaN(), nil
		case "Infinity":
			return math.Inf(1), nil
		case "-Infinity":
			return math.Inf(-1), nil
		}
		return strconv.ParseFloat(*j.Double, 64)
	case j.String != nil:
		return *j.String, nil
	case j.Bytes != nil:
		b, err := base64.StdEncoding.DecodeString(*j.Bytes)
		return cel.Bytes(b), err
	case j.Bool != nil:
		return *j.Bool, nil
	case j.Null:
		return cel.Null, nil
	case j.Duration != nil:
		n, err := strconv.ParseInt(*j.Duration, 10, 64)
		return cel.Duration{D: time.Duration(n)}, err
	case j.Timestamp != nil:
		t, err := time.Parse(time.RFC3339Nano, *j.Timestamp)
		return cel.Timestamp{T: t.UTC()}, err
	case j.List != nil:
		var out []cel.Value
		for _, e := range *j.List {
			v, err := decode(e)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return cel.NewList(out), nil
	case j.Map != nil:
		var ks, vs []cel.Value
		for _, e := range *j.Map {
			k, err := decode(e.K)
			if err != nil {
				return nil, err
			}
			v, err := decode(e.V)
			if err != nil {
				return nil, err
			}
			ks, vs = append(ks, k), append(vs, v)
		}
		return cel.NewMap(ks, vs), nil
	case j.Optional != nil:
		if j.Optional.Value == nil {
			return cel.Optional{}, nil
		}
		v, err := decode(*j.Optional.Value)
		return cel.Optional{V: v, Ok: true}, err
	}
	return nil, fmt.Errorf("cannot decode %+v", j)
}

// parseType reads a type as cel-go formats it: int, list(string), map(string, dyn), ….
func parseType(s string) (*cel.Type, error) {
	s = strings.TrimSpace(s)
	name, args := s, ""
	if i := strings.IndexByte(s, '('); i >= 0 && strings.HasSuffix(s, ")") {
		name, args = s[:i], s[i+1:len(s)-1]
	}
	var params []*cel.Type
	depth, start := 0, 0
	for i := 0; i <= len(args) && args != ""; i++ {
		if i == len(args) || args[i] == ',' && depth == 0 {
			p, err := parseType(args[start:i])
			if err != nil {
				return nil, err
			}
			params = append(params, p)
			start = i + 1
			continue
		}
		switch args[i] {
		case '(':
			depth++
		case ')':
			depth--
		}
	}
	simple := map[string]*cel.Type{"int": cel.IntType, "uint": cel.UintType, "double": cel.DoubleType,
		"bool": cel.BoolType, "string": cel.StringType, "bytes": cel.BytesType, "null_type": cel.NullType,
		"dyn": cel.DynType, "duration": cel.DurationType, "timestamp": cel.TimestampType,
		"google.protobuf.Duration": cel.DurationType, "google.protobuf.Timestamp": cel.TimestampType,
		"any": cel.AnyType, "type": cel.TypeType}
	switch {
	case name == "list" && len(params) == 1:
		return cel.ListType(params[0]), nil
	case name == "map" && len(params) == 2:
		return cel.MapType(params[0], params[1]), nil
	case name == "type" && len(params) == 1:
		return cel.TypeOf(params[0]), nil
	case name == "optional_type" && len(params) == 1:
		return cel.OptionalType(params[0]), nil
	case len(params) == 0 && simple[name] != nil:
		return simple[name], nil
	case len(params) == 0:
		return cel.OpaqueType(name), nil
	}
	return nil, fmt.Errorf("unknown type %q", s)
}
