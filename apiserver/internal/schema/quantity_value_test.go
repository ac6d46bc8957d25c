package schema

import (
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCh01_QuantityValue checks the exact values of quantities in every suffix form.
func TestCh01_QuantityValue(t *testing.T) {
	tests := []struct {
		in, want string // want as a fraction
	}{
		{"2", "2"}, {"500m", "1/2"}, {"0.5", "1/2"}, {"1Ki", "1024"}, {"1.5Gi", "1610612736"},
		{"1e3", "1000"}, {"2E-2", "1/50"}, {"-3k", "-3000"}, {"+1", "1"}, {"100n", "1/10000000"},
	}
	for _, tt := range tests {
		v, ok := QuantityValue(tt.in)
		require.True(t, ok, tt.in)
		want, _ := new(big.Rat).SetString(tt.want)
		assert.Equal(t, 0, v.Cmp(want), "%s = %s, want %s", tt.in, v, tt.want)
	}
	for _, bad := range []string{"", "abc", "1Qi", "1.2.3"} {
		_, ok := QuantityValue(bad)
		assert.False(t, ok, bad)
	}
}
