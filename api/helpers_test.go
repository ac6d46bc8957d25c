package api

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAPI_AsInt64(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want int64
		ok   bool
	}{
		{"int64 from our decoder", int64(-42), -42, true},
		{"int built in Go", 5, 5, true},
		{"int32 built in Go", int32(7), 7, true},
		{"whole float64 from json.Unmarshal", float64(3), 3, true},
		{"negative zero", math.Copysign(0, -1), 0, true},
		{"largest float64 below 2^63", math.Nextafter(math.MaxInt64, 0), 9223372036854774784, true},
		{"2^63 is out of range", float64(math.MaxInt64), 0, false},
		{"-2^63 is in range", float64(math.MinInt64), math.MinInt64, true},
		{"below -2^63", math.Nextafter(math.MinInt64, math.Inf(-1)), 0, false},
		{"fraction", 2.5, 0, false},
		{"NaN", math.NaN(), 0, false},
		{"+Inf", math.Inf(1), 0, false},
		{"-Inf", math.Inf(-1), 0, false},
		{"json.Number integer", json.Number("9223372036854775807"), math.MaxInt64, true},
		{"json.Number too big", json.Number("9223372036854775808"), 0, false},
		{"json.Number fraction", json.Number("1.5"), 0, false},
		{"string", "3", 0, false},
		{"bool", true, 0, false},
		{"null", nil, 0, false},
		{"uint64 is not accepted", uint64(3), 0, false},
		{"object", map[string]any{"n": int64(1)}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := AsInt64(tt.v)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestAPI_NestedInt64 reads through the tree with AsInt64's rules.
func TestAPI_NestedInt64(t *testing.T) {
	obj := map[string]any{"metadata": map[string]any{"generation": float64(3), "name": "x"}, "s": "flat"}
	tests := []struct {
		path []string
		want int64
		ok   bool
	}{
		{[]string{"metadata", "generation"}, 3, true},
		{[]string{"metadata", "name"}, 0, false},
		{[]string{"metadata", "missing"}, 0, false},
		{[]string{"s", "deeper"}, 0, false},
	}
	for _, tt := range tests {
		got, ok := nestedInt64(obj, tt.path...)
		assert.Equal(t, tt.ok, ok, "%v", tt.path)
		assert.Equal(t, tt.want, got, "%v", tt.path)
	}
}
