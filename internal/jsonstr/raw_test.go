package jsonstr

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestAppendRawMatchesEncodingJSON: what AppendRaw takes as it is, json.Marshal writes
// unchanged; what it refuses here, json.Marshal changes or rejects (it also refuses, to be
// quick, a space inside a string, which json.Marshal would keep).
func TestAppendRawMatchesEncodingJSON(t *testing.T) {
	for _, tt := range []struct {
		raw  string
		took bool
	}{
		{`{"f:data":{".":{},"f:key":{}},"f:metadata":{"f:labels":{"f:app":{}}}}`, true},
		{`{"k:{\"name\":\"c\"}":{}}`, true},
		{`"caf\u00e9é"`, true},
		{`[1,2.5,true,null]`, true},
		{`{"a": 1}`, false},           // compacted
		{"{\"a\":1}\n", false},        // compacted
		{`{"a":"<b>"}`, false},        // escaped
		{`{"a":"x&y"}`, false},        // escaped
		{"{\"a\":\"\u2028\"}", false}, // escaped
		{`{"a":`, false},              // invalid: an error
		{``, false},                   // empty: an error
	} {
		got, took := AppendRaw([]byte("x"), []byte(tt.raw))
		assert.Equal(t, tt.took, took, tt.raw)
		want, err := json.Marshal(json.RawMessage(tt.raw))
		if took {
			assert.NoError(t, err, tt.raw)
			assert.Equal(t, "x"+string(want), string(got), tt.raw)
		} else {
			assert.Equal(t, "x", string(got), tt.raw)
			assert.True(t, err != nil || string(want) != tt.raw, tt.raw)
		}
	}
}
