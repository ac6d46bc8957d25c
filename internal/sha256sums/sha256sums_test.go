package sha256sums

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	const (
		emptySum = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
		bSum     = "3e23e8160039594a33894f6564e1b1348bbd7a0088d42c4acb73eeaed59c009d"
	)
	tests := []struct {
		name    string
		data    string
		want    map[string]string
		wantErr string
	}{
		{name: "empty file", data: "", want: map[string]string{}},
		{name: "two files", data: emptySum + "  a.json\n" + bSum + "  b.json\n",
			want: map[string]string{"a.json": emptySum, "b.json": bSum}},
		{name: "no final newline", data: bSum + "  b.json", want: map[string]string{"b.json": bSum}},
		{name: "a name with spaces", data: bSum + "  my file.json\n", want: map[string]string{"my file.json": bSum}},
		{name: "one space", data: bSum + " b.json\n", wantErr: "line 1"},
		{name: "blank line", data: bSum + "  b.json\n\n", wantErr: "line 2"},
		{name: "no name", data: bSum + "  \n", wantErr: "line 1"},
		{name: "short digest", data: bSum[:62] + "  b.json\n", wantErr: "64 hex digits"},
		{name: "long digest", data: bSum + "00  b.json\n", wantErr: "64 hex digits"},
		{name: "not hex", data: "zz" + bSum[2:] + "  b.json\n", wantErr: "64 hex digits"},
		{name: "listed twice", data: bSum + "  b.json\n" + emptySum + "  b.json\n", wantErr: "b.json is listed twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.data))
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				assert.Nil(t, got)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestSumMatchesParse(t *testing.T) {
	data := []byte("b")
	sums, err := Parse([]byte(Sum(data) + "  b.json\n"))
	require.NoError(t, err)
	assert.Equal(t, Sum(data), sums["b.json"])
	assert.Equal(t, strings.ToLower(Sum(data)), Sum(data))
	assert.Equal(t, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", Sum(nil))
}
