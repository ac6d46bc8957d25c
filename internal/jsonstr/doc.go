// Package jsonstr writes JSON strings without reflection, for the hand-written JSON writers of
// the protobuf codec (api/protobuf) and the dashboard's event stream (harness/dashboard).
//
// The contract:
//
//  1. Append(b, s) appends exactly the bytes json.Marshal(s) writes with its default,
//     HTML-safe escaping: \" and \\, the short forms \b \f \n \r \t, \u00XX for the other
//     control characters and for <, > and &, \u2028 and \u2029 (so the output is also
//     valid JavaScript), and \ufffd for each byte of invalid UTF-8.
//  2. Every other byte is copied as it is; Append allocates only to grow b.
//  3. TestAppendMatchesEncodingJSON and FuzzAppend compare it with encoding/json.
package jsonstr
