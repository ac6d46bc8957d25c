package jsonstr

import (
	"bytes"
	"encoding/json"
)

// AppendRaw appends raw when json.Marshal(json.RawMessage(raw)) would write raw unchanged:
// valid JSON with no whitespace, no <, > or & and no U+2028 or U+2029 (which it compacts
// away or escapes). It reports false, appending nothing, otherwise, and the caller then
// asks json.Marshal. The managedFields entries' fieldsV1 are such values: this spares
// encoding/json's reflection and its copy of the bytes on every encoding of a stored object.
func AppendRaw(b, raw []byte) ([]byte, bool) {
	if len(raw) == 0 || bytes.ContainsAny(raw, " \t\r\n<>&\u2028\u2029") || !json.Valid(raw) {
		return b, false
	}
	return append(b, raw...), true
}
