package schema

import (
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// The checks one JSON value meets when it is decoded into the Go type of a schema node,
// with the texts the real decoder gives.

// JSONKind is the JSON type of a value.
type JSONKind uint8

// The JSON kinds, in the order encoding/json's scanner tells them apart.
const (
	JSONNull   JSONKind = iota // null
	JSONObject                 // {…}
	JSONArray                  // […]
	JSONString                 // "…"
	JSONNumber                 // 1, -2.5e3
	JSONBool                   // true, false
)

// word is how encoding/json names a JSON value of kind k in a type error.
func (k JSONKind) word() string {
	return [...]string{"null", "object", "array", "string", "number", "bool"}[k]
}

// TypeError mirrors UnmarshalTypeError in sigs.k8s.io/json's copy of encoding/json:
// "json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type
// int32". Struct and Field are the caller's to fill: the Go struct holding the innermost
// field, and the member names from the root joined by dots (no indices, no map keys).
type TypeError struct {
	Value  string // "string", "number", "number 1.5", "object", "array", "bool"
	Type   string // the Go type, see Schema.GoType
	Struct string
	Field  string
}

// Error mirrors UnmarshalTypeError.Error.
func (e *TypeError) Error() string {
	if e.Struct != "" || e.Field != "" {
		return "json: cannot unmarshal " + e.Value + " into Go struct field " + e.Struct + "." + e.Field + " of type " + e.Type
	}
	return "json: cannot unmarshal " + e.Value + " into Go value of type " + e.Type
}

// StopError is the error of a Go type that decodes itself (Quantity, IntOrString, Time):
// upstream it ends the decode at once and is reported as it is, without a field path.
// Other errors (a *TypeError, a bad base64 string) let the decode go on, and the first
// one is reported.
type StopError struct{ Err error }

// Error is the wrapped error's text, unchanged.
func (e *StopError) Error() string { return e.Err.Error() }

// Unwrap returns the wrapped error.
func (e *StopError) Unwrap() error { return e.Err }

// Check reports whether a JSON value of kind k decodes into s. text is the string's value
// for a string, the literal for a number, and "{}", "[]", "true" or "false" for the rest.
// The result is nil, a *TypeError, a *StopError or a base64.CorruptInputError. null always
// decodes (to nothing).
func (s *Schema) Check(k JSONKind, text string) error {
	if k == JSONNull || s == nil {
		return nil
	}
	switch s.Kind {
	case KindAny:
		if k == JSONNumber && !isInteger(text) {
			if _, err := strconv.ParseFloat(text, 64); err != nil {
				return &TypeError{Value: "number " + text, Type: "float64"}
			}
		}
		return nil
	case KindObject, KindMap, KindFreeObject:
		if k == JSONObject {
			return nil
		}
	case KindArray:
		if k == JSONArray {
			return nil
		}
	case KindString:
		return s.checkString(k, text)
	case KindInteger:
		if k == JSONNumber {
			bits := 64
			if s.Format == "int32" {
				bits = 32
			}
			if _, err := strconv.ParseInt(text, 10, bits); err != nil {
				return &TypeError{Value: "number " + text, Type: s.GoType()}
			}
			return nil
		}
	case KindNumber:
		if k == JSONNumber {
			bits := 64
			if s.Format == "float" {
				bits = 32
			}
			if _, err := strconv.ParseFloat(text, bits); err != nil {
				return &TypeError{Value: "number " + text, Type: s.GoType()}
			}
			return nil
		}
	case KindBoolean:
		if k == JSONBool {
			return nil
		}
	case KindIntOrString:
		if k == JSONString {
			return nil
		}
		// IntOrString hands anything else to the standard decoder as an int32.
		var i int32
		if err := json.Unmarshal([]byte(text), &i); err != nil {
			return &StopError{err}
		}
		return nil
	case KindQuantity:
		if err := CheckQuantity(strings.TrimSpace(text)); err != nil {
			return &StopError{err}
		}
		return nil
	}
	return &TypeError{Value: k.word(), Type: s.GoType()}
}

// checkString covers the string formats: date-time (metav1.Time, MicroTime), which decode
// themselves, and byte ([]byte), which encoding/json reads as standard base64.
func (s *Schema) checkString(k JSONKind, text string) error {
	switch s.Format {
	case "date-time":
		if k != JSONString {
			var str string
			return &StopError{json.Unmarshal([]byte(text), &str)}
		}
		layout := time.RFC3339
		if s.Name == microTimeName {
			layout = "2006-01-02T15:04:05.000000Z07:00"
		}
		if _, err := time.Parse(layout, text); err != nil {
			return &StopError{err}
		}
		return nil
	case "byte":
		if k != JSONString {
			break
		}
		buf := make([]byte, base64.StdEncoding.DecodedLen(len(text)))
		if _, err := base64.StdEncoding.Decode(buf, []byte(text)); err != nil {
			return err
		}
		return nil
	default:
		if k == JSONString {
			return nil
		}
	}
	return &TypeError{Value: k.word(), Type: s.GoType()}
}

// isInteger reports whether a number literal has no fraction and no exponent.
func isInteger(lit string) bool {
	return !strings.ContainsAny(lit, ".eE")
}
