// Package celcheck holds the checks of the main module's CEL interpreter against the real
// implementations: cel-spec's conformance data and a differential test against cel-go
// configured as k8s.io/apiserver configures it. The interpreter is internal to the main
// module, so it is driven through its celeval command over a JSON line protocol.
package celcheck

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"time"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// jv is a CEL value in celeval's line protocol: exactly one field is set.
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

// encodeRef encodes a cel-go value the way celeval encodes ours.
func encodeRef(v ref.Val) (jv, error) {
	switch x := v.(type) {
	case types.Int:
		return jv{Int: ptr(strconv.FormatInt(int64(x), 10))}, nil
	case types.Uint:
		return jv{Uint: ptr(strconv.FormatUint(uint64(x), 10))}, nil
	case types.Double:
		return jv{Double: ptr(fmtDouble(float64(x)))}, nil
	case types.String:
		return jv{String: ptr(string(x))}, nil
	case types.Bytes:
		return jv{Bytes: ptr(base64.StdEncoding.EncodeToString([]byte(x)))}, nil
	case types.Bool:
		return jv{Bool: ptr(bool(x))}, nil
	case types.Null:
		return jv{Null: true}, nil
	case types.Duration:
		return jv{Duration: ptr(strconv.FormatInt(int64(x.Duration), 10))}, nil
	case types.Timestamp:
		return jv{Timestamp: ptr(x.Time.UTC().Format(time.RFC3339Nano))}, nil
	case *types.Type:
		return jv{Type: ptr(x.TypeName())}, nil
	case *types.Optional:
		if !x.HasValue() {
			return jv{Optional: &jopt{}}, nil
		}
		e, err := encodeRef(x.GetValue())
		return jv{Optional: &jopt{Value: &e}}, err
	case traits.Lister:
		l := []jv{}
		for it := x.Iterator(); it.HasNext() == types.True; {
			e, err := encodeRef(it.Next())
			if err != nil {
				return jv{}, err
			}
			l = append(l, e)
		}
		return jv{List: &l}, nil
	case traits.Mapper:
		es := []jentry{}
		for it := x.Iterator(); it.HasNext() == types.True; {
			k := it.Next()
			ek, err := encodeRef(k)
			if err != nil {
				return jv{}, err
			}
			ev, err := encodeRef(x.Get(k))
			if err != nil {
				return jv{}, err
			}
			es = append(es, jentry{K: ek, V: ev})
		}
		sort.Slice(es, func(i, j int) bool { return es[i].K.key() < es[j].K.key() })
		return jv{Map: &es}, nil
	case *types.Err:
		return jv{}, x
	}
	return jv{Opaque: &jopaque{Type: v.Type().TypeName(), Repr: fmt.Sprint(v.Value())}}, nil
}
