package fields_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api/fields"
)

func TestFields_EscapeValue(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"", ""},
		{"plain", "plain"},
		{`a,b`, `a\,b`},
		{`a=b`, `a\=b`},
		{`a\b`, `a\\b`},
		{`\,=`, `\\\,\=`},
		{"!", "!"}, // '!' never needs escaping: terms split at their first operator
		{"é\xff", "é\xff"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got := fields.EscapeValue(tt.in)
			assert.Equal(t, tt.want, got)
			back, err := fields.UnescapeValue(got)
			require.NoError(t, err)
			assert.Equal(t, tt.in, back, "UnescapeValue must undo EscapeValue")
		})
	}
}

func TestFields_UnescapeValueErrors(t *testing.T) {
	tests := []struct {
		in      string
		want    string
		wantSeq bool // an InvalidEscapeSequence, else an UnescapedRune
	}{
		{`\`, `invalid field selector: invalid escape sequence: \`, true},
		{`a\!`, `invalid field selector: invalid escape sequence: \!`, true},
		{`a\n`, `invalid field selector: invalid escape sequence: \n`, true},
		{"a\\\xff", "invalid field selector: invalid escape sequence: \\\uFFFD", true},
		{`a,b`, `invalid field selector: unescaped character in value: ','`, false},
		{`a=b`, `invalid field selector: unescaped character in value: '='`, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := fields.UnescapeValue(tt.in)
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
			var seq fields.InvalidEscapeSequence
			var r fields.UnescapedRune
			assert.Equal(t, tt.wantSeq, errors.As(err, &seq))
			assert.Equal(t, !tt.wantSeq, errors.As(err, &r))
		})
	}
}
