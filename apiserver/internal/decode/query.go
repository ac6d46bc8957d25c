package decode

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/informer-lab/informer-lab/api"
)

// queryBool mirrors runtime.Convert_Slice_string_To_bool: a present parameter is true unless
// its first value is "0" or "false" (any case); "watch=" is true (docs/behaviour/wire.md U10).
func queryBool(q url.Values, name string) (value, present bool) {
	vs, ok := q[name]
	if !ok || len(vs) == 0 {
		return false, false
	}
	v := vs[0]
	return !(v == "0" || strings.EqualFold(v, "false")), true
}

// queryInt64 mirrors runtime.Convert_Slice_string_To_int64; the error is strconv's text,
// which the real server sends as the 400 message (docs/behaviour/wire.md E28).
func queryInt64(q url.Values, name string) (value int64, present bool, err error) {
	vs, ok := q[name]
	if !ok || len(vs) == 0 {
		return 0, false, nil
	}
	i, err := strconv.ParseInt(vs[0], 10, 64)
	if err != nil {
		return 0, true, api.NewBadRequest(err.Error())
	}
	return i, true, nil
}

// ParseResourceVersion mirrors APIObjectVersioner.ParseResourceVersion in k8s.io/apiserver
// pkg/storage: "" and "0" both give 0 (the caller tells them apart by the string, wire spec
// 0.2); anything else must be a decimal uint64. The error is the 400 the real server sends
// for a LIST (E26): `invalid resource version: resourceVersion: Invalid value: "abc":
// strconv.ParseUint: parsing "abc": invalid syntax`.
func ParseResourceVersion(s string) (uint64, error) {
	if s == "" || s == "0" {
		return 0, nil
	}
	rv, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, api.NewBadRequest("invalid resource version: resourceVersion: Invalid value: " +
			strconv.Quote(s) + ": " + err.Error())
	}
	return rv, nil
}
