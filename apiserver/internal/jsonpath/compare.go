package jsonpath

import (
	"errors"
	"fmt"
)

// The comparisons of a filter, as the template package client-go forks
// (third_party/forked/golang/template funcs.go) makes them: values of the same basic kind
// compare (integers with integers, floats with floats, strings, booleans for equality);
// anything else is an error, which leaves the whole path without a result.

var (
	errBadComparisonType = errors.New("invalid type for comparison")
	errBadComparison     = errors.New("incompatible types for comparison")
)

type basicKind int

const (
	kindBool basicKind = iota + 1
	kindInt
	kindFloat
	kindString
)

func kindOf(v any) (basicKind, error) {
	switch v.(type) {
	case bool:
		return kindBool, nil
	case int, int64:
		return kindInt, nil
	case float64:
		return kindFloat, nil
	case string:
		return kindString, nil
	}
	return 0, errBadComparisonType
}

func asInt(v any) int64 {
	if i, ok := v.(int); ok {
		return int64(i)
	}
	return v.(int64)
}

func equal(a, b any) (bool, error) {
	ka, err := kindOf(a)
	if err != nil {
		return false, err
	}
	kb, err := kindOf(b)
	if err != nil {
		return false, err
	}
	if ka != kb {
		return false, errBadComparison
	}
	switch ka {
	case kindBool:
		return a.(bool) == b.(bool), nil
	case kindInt:
		return asInt(a) == asInt(b), nil
	case kindFloat:
		return a.(float64) == b.(float64), nil
	}
	return a.(string) == b.(string), nil
}

func less(a, b any) (bool, error) {
	ka, err := kindOf(a)
	if err != nil {
		return false, err
	}
	kb, err := kindOf(b)
	if err != nil {
		return false, err
	}
	if ka != kb {
		return false, errBadComparison
	}
	switch ka {
	case kindBool:
		return false, errBadComparisonType
	case kindInt:
		return asInt(a) < asInt(b), nil
	case kindFloat:
		return a.(float64) < b.(float64), nil
	}
	return a.(string) < b.(string), nil
}

// compare applies a filter's operator.
func compare(op string, a, b any) (bool, error) {
	switch op {
	case "==":
		return equal(a, b)
	case "!=":
		eq, err := equal(a, b)
		return !eq, err
	case "<":
		return less(a, b)
	case "<=":
		lt, err := less(a, b)
		if lt || err != nil {
			return lt, err
		}
		return equal(a, b)
	case ">":
		lt, err := less(a, b)
		if err != nil {
			return false, err
		}
		if lt {
			return false, nil
		}
		eq, err := equal(a, b)
		return !eq, err
	case ">=":
		lt, err := less(a, b)
		return !lt, err
	}
	return false, fmt.Errorf("unrecognized filter operator %s", op)
}
