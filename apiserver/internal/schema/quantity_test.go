package schema

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCh01_SchemaCanonicalQuantity pins what the real server stores for a quantity: the
// answers of resource.ParseQuantity then Quantity.String of k8s.io/apimachinery v0.36.3,
// the stored text, for each input (a JSON number reaches the decoder as its literal).
func TestCh01_SchemaCanonicalQuantity(t *testing.T) {
	tests := []struct{ in, want string }{
		// canonical already: the text is kept, even a sign or leading zeros
		{"0", "0"}, {"1", "1"}, {"500m", "500m"}, {"1Gi", "1Gi"}, {"+1Gi", "+1Gi"}, {"01", "01"},
		{"+1", "+1"}, {"1e3", "1e3"}, {"1E3", "1E3"}, {"1.G", "1.G"}, {"1.23e2", "1.23e2"},
		{"100Mi", "100Mi"}, {"129e6", "129e6"}, {"129M", "129M"}, {"1025Ki", "1025Ki"},
		{"128974848", "128974848"}, {"10e3", "10e3"}, {"-500m", "-500m"}, {"1n", "1n"},
		// rewritten: fractions to a smaller unit, trailing zeros to a larger one
		{"0.5", "500m"}, {".5", "500m"}, {"1.5", "1500m"}, {"1.1", "1100m"}, {"0.25", "250m"},
		{"1000m", "1"}, {"1000", "1k"}, {"1000000", "1M"}, {"1000k", "1M"}, {"1.0", "1"},
		{"1e1", "10"}, {"1e4", "10e3"}, {"1000e3", "1e6"}, {"1e19", "10e18"}, {"1e-1", "100e-3"},
		{"-0", "0"}, {".", "0"}, {"k", "0"}, {"e3", "0"},
		// binary: whole multiples of 1024 take a binary suffix, the rest fall back
		{"1.5Gi", "1536Mi"}, {"-1.5Gi", "-1536Mi"}, {"1024Ki", "1Mi"}, {"1.0Ki", "1Ki"},
		{"2.5Mi", "2560Ki"}, {"1.5Ki", "1536"}, {"0.5Ki", "512"},
		// nano is the smallest unit (rounded up), 2^63-1 the largest binary amount
		{"0.1m", "100u"}, {"1e-10", "1e-9"}, {"0.0000000001", "1n"},
		{"8Ei", "9223372036854775807"}, {"8.5Ei", "9223372036854775807"},
		{"10000000000000000000", "10E"}, {"12345678901234567890", "12345678901234567890"},
		// beyond E the suffix table ends: upstream writes no suffix at all
		{"1000E", "1"},
	}
	for _, tc := range tests {
		got, err := CanonicalQuantity(tc.in)
		if assert.NoError(t, err, tc.in) {
			assert.Equal(t, tc.want, got, tc.in)
		}
		again, err := CanonicalQuantity(got)
		assert.NoError(t, err, got)
		assert.Equal(t, got, again, "the stored text reads back as itself: %s", got)
	}
	for in, want := range map[string]string{
		"abc": quantityText, "1x": quantityText, "1.5.5": quantityText, "1e3m": quantityText,
		"1Mi1": "unable to parse quantity's suffix", "1ee3": "unable to parse quantity's suffix",
		"-e-12": "unable to parse numeric part of quantity",
	} {
		_, err := CanonicalQuantity(in)
		assert.EqualError(t, err, want, in)
	}
}

// TestCh01_SchemaCompareQuantities: Quantity.Cmp on values whatever their spelling, and
// the comparison of sums the QoS class needs.
func TestCh01_SchemaCompareQuantities(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"500m", "0.5", 0}, {"1", "1000m", 0}, {"1Gi", "1073741824", 0}, {"1G", "1Gi", -1},
		{"300m", "200m", 1}, {"-1", "0", -1}, {"1e3", "1k", 0}, {"1.5Gi", "1536Mi", 0}, {"0", "0m", 0},
	} {
		got, err := CompareQuantities(tc.a, tc.b)
		assert.NoError(t, err)
		assert.Equal(t, tc.want, got, "%s vs %s", tc.a, tc.b)
	}
	_, err := CompareQuantities("x", "1")
	assert.EqualError(t, err, quantityText)
	for _, tc := range []struct {
		a, b []string
		want int
	}{
		{[]string{"100m", "400m"}, []string{"0.5"}, 0},
		{[]string{"1Gi", "1Gi"}, []string{"2Gi"}, 0},
		{[]string{"1"}, []string{"500m", "499m"}, 1},
		{nil, []string{"1m"}, -1},
	} {
		got, err := CompareSums(tc.a, tc.b)
		assert.NoError(t, err)
		assert.Equal(t, tc.want, got, "%v vs %v", tc.a, tc.b)
	}
}
