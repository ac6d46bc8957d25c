package rest

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCh01_BuiltinFieldText checks that a field label's value is formatted as the registries'
// GetAttrs formats it, and read from where the internal object would take it.
func TestCh01_BuiltinFieldText(t *testing.T) {
	obj := map[string]any{
		"spec": map[string]any{"hostNetwork": true, "unschedulable": false, "replicas": int64(3), "whole": float64(7),
			"ratio": 0.5, "big": int64(9007199254740993), "n": 12, "list": []any{"a"}, "map": map[string]any{"k": "v"}},
		"status": map[string]any{"podIPs": []any{map[string]any{"ip": "10.0.0.5"}, map[string]any{"ip": "fd00::5"}}},
	}
	tests := []struct {
		path, want string
	}{
		{"spec.hostNetwork", "true"},
		{"spec.unschedulable", "false"},
		{"spec.replicas", "3"},
		{"spec.whole", "7"}, // never "7e+00"
		{"spec.ratio", "0.5"},
		{"spec.big", "9007199254740993"},
		{"spec.n", "12"},
		{"status.podIPs.0.ip", "10.0.0.5"},
		{"status.podIPs.1.ip", "fd00::5"},
		{"status.podIPs.2.ip", ""},
		{"status.podIPs.x.ip", ""},
		{"status.podIPs", ""}, // a list is not a value
		{"spec.list", ""},
		{"spec.map", ""},
		{"spec.absent", ""},
		{"spec.hostNetwork.deeper", ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, FieldText(obj, strings.Split(tt.path, ".")), tt.path)
	}
}
