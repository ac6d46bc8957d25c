package structural

import (
	"fmt"
	"github.com/informer-lab/informer-lab/apiserver/internal/cost"
	"reflect"
	"regexp"
	"strconv"
	"unicode/utf8"
)

// The validators of kube-openapi for one scalar: string (validator.go stringValidator),
// format (formats.go), number (numberValidator with values.go's range checks) and enum
// (basicCommonValidator).

func compilePattern(p string) (*regexp.Regexp, error) { return regexp.Compile(p) }

// stringCheck mirrors stringValidator.Validate: maxLength, minLength, pattern; the first
// failure only.
func stringCheck(s *Schema, path, data string) *result {
	n := int64(utf8.RuneCountInString(data))
	switch {
	case s.MaxLength != nil && n > *s.MaxLength:
		return one(verr{kind: kTooLong, name: path, value: data, hasValue: true, valid: *s.MaxLength,
			msg: fmt.Sprintf("%s in body should be at most %d chars long", path, *s.MaxLength)})
	case s.MinLength != nil && n < *s.MinLength:
		return one(verr{kind: kInvalid, name: path, value: data, hasValue: true,
			msg: fmt.Sprintf("%s in body should be at least %d chars long", path, *s.MinLength)})
	case s.Pattern != "":
		re := s.pattern
		if re == nil {
			var err error
			if re, err = compilePattern(s.Pattern); err != nil {
				return one(verr{kind: kInvalid, name: path, value: data, hasValue: true,
					msg: fmt.Sprintf("%s in body should match '%s, but pattern is invalid: %s'", path, s.Pattern, err)})
			}
		}
		if !re.MatchString(data) {
			return one(verr{kind: kInvalid, name: path, value: data, hasValue: true,
				msg: fmt.Sprintf("%s in body should match '%s'", path, s.Pattern)})
		}
	}
	return nil
}

// formatCheck mirrors FormatOf.
func formatCheck(format, path, data string) *result {
	if validFormat(format, data) {
		return nil
	}
	return one(invalidType(path, format, data))
}

// rangeError mirrors IsValueValidAgainstRange: whether val (the value, or one of the
// schema's bounds) fits the type and format the number validator was built with.
func rangeError(val any, typeName, format, prefix, path string) *verr {
	var rep string
	switch n := val.(type) {
	case int64:
		rep = strconv.FormatInt(n, 10)
	case float64:
		rep = strconv.FormatFloat(n, 'f', -1, 64)
	}
	var err error
	switch typeName {
	case "integer":
		bits := 64
		if format == "int32" {
			bits = 32
		}
		_, err = strconv.ParseInt(rep, 10, bits)
	default:
		if format == "float" {
			_, err = strconv.ParseFloat(rep, 32)
		}
	}
	if err == nil {
		return nil
	}
	msg := fmt.Sprintf("%s value must be of type %s (default format) in %s", prefix, typeName, path)
	if format != "" {
		msg = fmt.Sprintf("%s value must be of type %s with format %s in %s", prefix, typeName, format, path)
	}
	return &verr{kind: kPlain, msg: msg}
}

func asFloat(x any) float64 {
	switch n := x.(type) {
	case int64:
		return float64(n)
	case int:
		return float64(n)
	case float64:
		return n
	}
	return 0
}

// numberCheck mirrors numberValidator.Validate: the value's own range, then multipleOf,
// minimum and maximum, each compared natively (as integers for an integer value) when the
// bound fits the type, else as floats.
func numberCheck(s *Schema, typeName, format, path string, val any) *result {
	res := &result{}
	if e := rangeError(val, typeName, format, "Checked", path); e != nil {
		res.add(*e)
	}
	data := asFloat(val)
	iv, isInt := val.(int64)
	var multiple, minimum, maximum result
	if s.MultipleOf != nil {
		f := *s.MultipleOf
		if e := rangeError(f, typeName, format, "MultipleOf", path); e != nil {
			multiple.add(*e)
			multiple.add(floatMultiple(path, data, f)...)
		} else if isInt {
			switch factor := int64(f); {
			case factor <= 0:
				multiple.add(verr{kind: kInvalid, name: path, value: factor, hasValue: true, msg: fmt.Sprintf("factor MultipleOf declared for %s must be positive: %v", path, factor)})
			case (iv/factor)*factor != iv:
				multiple.add(verr{kind: kInvalid, name: path, value: iv, hasValue: true, msg: fmt.Sprintf("%s in body should be a multiple of %v", path, factor)})
			}
		} else {
			multiple.add(floatMultiple(path, data, f)...)
		}
	}
	bound := func(b float64, prefix string, exclusive, isMax bool, into *result) {
		op := map[[2]bool]string{{true, false}: "less than or equal to", {true, true}: "less than",
			{false, false}: "greater than or equal to", {false, true}: "greater than"}[[2]bool{isMax, exclusive}]
		fails := func(x, limit float64) bool {
			if isMax {
				return x > limit || (exclusive && x == limit)
			}
			return x < limit || (exclusive && x == limit)
		}
		if e := rangeError(b, typeName, format, prefix, path); e == nil && isInt {
			limit := int64(b)
			if (isMax && (iv > limit || (exclusive && iv == limit))) || (!isMax && (iv < limit || (exclusive && iv == limit))) {
				into.add(verr{kind: kInvalid, name: path, value: iv, hasValue: true, msg: fmt.Sprintf("%s in body should be %s %v", path, op, limit)})
			}
			return
		} else if e != nil {
			into.add(*e)
		}
		if fails(data, b) {
			into.add(verr{kind: kInvalid, name: path, value: data, hasValue: true, msg: fmt.Sprintf("%s in body should be %s %v", path, op, b)})
		}
	}
	if s.Maximum != nil {
		bound(*s.Maximum, "Maximum boundary", s.ExclusiveMaximum, true, &maximum)
	}
	if s.Minimum != nil {
		bound(*s.Minimum, "Minimum boundary", s.ExclusiveMinimum, false, &minimum)
	}
	res.merge(&multiple, &minimum, &maximum)
	res.matches++
	return res
}

// floatMultiple mirrors MultipleOf for floats.
func floatMultiple(path string, data, factor float64) []verr {
	if factor <= 0 {
		return []verr{{kind: kInvalid, name: path, value: factor, hasValue: true, msg: fmt.Sprintf("factor MultipleOf declared for %s must be positive: %v", path, factor)}}
	}
	var mult float64
	if factor < 1 {
		mult = 1 / factor * data
	} else {
		mult = data / factor
	}
	if !isJSONInteger(mult) {
		return []verr{{kind: kInvalid, name: path, value: data, hasValue: true, msg: fmt.Sprintf("%s in body should be a multiple of %v", path, factor)}}
	}
	return nil
}

// enumCheck mirrors basicCommonValidator.Validate: a value matches an enum member it is
// convertible to, after Go's conversion (so 1.5 matches 1, and 65 matches "A").
// smallEnum is the longest enum checked by comparing with each value.
const smallEnum = 16

// enumCheck is enumCheck of the schema's Enum, with a string looked up in enumStrings: a
// string matches only string values of an enum (convertTo), and those exactly.
func (s *Schema) enumCheck(path string, data any) *result {
	if str, ok := data.(string); ok && s.enumStrings != nil {
		cost.Add(1)
		if _, found := s.enumStrings[str]; found {
			return nil
		}
		return one(verr{kind: kEnum, name: path, value: data, hasValue: true, enum: s.Enum, msg: enumMsg(path, s.Enum)})
	}
	return enumCheck(s.Enum, path, data)
}

func enumCheck(enum []any, path string, data any) *result {
	if len(enum) == 0 {
		return nil
	}
	for _, e := range enum {
		cost.Add(1)
		if converted, ok := convertTo(data, e); ok && reflect.DeepEqual(converted, e) {
			return nil
		}
	}
	return one(verr{kind: kEnum, name: path, value: data, hasValue: true, enum: enum, msg: enumMsg(path, enum)})
}

// enumMsgValues is how many values of an enum its error text (which only deduplicates
// errors: the cause is built from the enum itself) spells out.
const enumMsgValues = 64

// enumMsg is kube-openapi's EnumFail text, "… should be one of [a b]", with a long enum cut
// short and its length said instead: spelled whole, every bad value would cost the enum's
// size again.
func enumMsg(path string, enum []any) string {
	if len(enum) <= enumMsgValues {
		return fmt.Sprintf("%s in body should be one of %v", path, enum)
	}
	return fmt.Sprintf("%s in body should be one of %v (%d values)", path, enum[:enumMsgValues], len(enum))
}

// convertTo converts data to the Go type of like, as reflect's Convert would, for the
// types a decoded JSON value has.
func convertTo(data, like any) (any, bool) {
	switch like.(type) {
	case nil:
		return nil, false
	case string:
		switch d := data.(type) {
		case string:
			return d, true
		case int64:
			if d < 0 || d > utf8.MaxRune {
				return string(utf8.RuneError), true
			}
			return string(rune(d)), true
		}
	case int64:
		switch d := data.(type) {
		case int64:
			return d, true
		case float64:
			return int64(d), true
		}
	case float64:
		switch d := data.(type) {
		case int64:
			return float64(d), true
		case float64:
			return d, true
		}
	case bool:
		if d, ok := data.(bool); ok {
			return d, true
		}
	case map[string]any:
		if d, ok := data.(map[string]any); ok {
			return d, true
		}
	case []any:
		if d, ok := data.([]any); ok {
			return d, true
		}
	}
	return nil, false
}

func jsonEqual(a, b any) bool { return reflect.DeepEqual(a, b) }
