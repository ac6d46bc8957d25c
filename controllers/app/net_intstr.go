package app

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// IntOrString mirrors intstr.IntOrString: a JSON number or a string.
type IntOrString struct {
	IsString bool
	IntVal   int32
	StrVal   string
}

// UnmarshalJSON mirrors IntOrString.UnmarshalJSON.
func (v *IntOrString) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		v.IsString = true
		return json.Unmarshal(b, &v.StrVal)
	}
	v.IsString = false
	return json.Unmarshal(b, &v.IntVal)
}

// MarshalJSON mirrors IntOrString.MarshalJSON.
func (v IntOrString) MarshalJSON() ([]byte, error) {
	if v.IsString {
		return json.Marshal(v.StrVal)
	}
	return json.Marshal(v.IntVal)
}

// IntOrStringFrom mirrors intstr.Parse for an already decoded JSON value (int64, float64 or
// string); ok is false when v is neither.
func IntOrStringFrom(v any) (IntOrString, bool) {
	switch t := v.(type) {
	case string:
		return IntOrString{IsString: true, StrVal: t}, true
	case int64:
		return IntOrString{IntVal: int32(t)}, true
	case float64:
		return IntOrString{IntVal: int32(t)}, true
	case int:
		return IntOrString{IntVal: int32(t)}, true
	}
	return IntOrString{}, false
}

// GetScaledValueFromIntOrPercent mirrors intstr.GetScaledValueFromIntOrPercent: an integer
// as it is, "N%" of total rounded up or down.
func GetScaledValueFromIntOrPercent(v *IntOrString, total int, roundUp bool) (int, error) {
	if v == nil {
		return 0, fmt.Errorf("nil value for IntOrString")
	}
	if !v.IsString {
		return int(v.IntVal), nil
	}
	s, ok := strings.CutSuffix(v.StrVal, "%")
	if !ok {
		return 0, fmt.Errorf("invalid type: string is not a percentage")
	}
	pct, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("invalid value for IntOrString: invalid value %q: %v", v.StrVal, err)
	}
	f := float64(pct) * float64(total) / 100
	if roundUp {
		return int(math.Ceil(f)), nil
	}
	return int(math.Floor(f)), nil
}
