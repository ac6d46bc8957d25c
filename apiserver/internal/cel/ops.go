package cel

import (
	"bytes"
	"math"
	"strings"
)

// equaler is implemented by library values (quantity, ip, …) and schema-aware lists with
// their own equality.
type equaler interface {
	equal(other Value) bool
}

// equal is CEL's heterogeneous equality: numbers compare by value across int, uint and
// double; values of different types are unequal; lists and maps compare element-wise.
func equal(a, b Value) bool {
	switch x := a.(type) {
	case int64:
		switch y := b.(type) {
		case int64:
			return x == y
		case uint64:
			return x >= 0 && uint64(x) == y
		case float64:
			return y == y && compareIntDouble(x, y) == 0
		}
		return false
	case uint64:
		switch y := b.(type) {
		case uint64:
			return x == y
		case int64:
			return y >= 0 && uint64(y) == x
		case float64:
			return y == y && compareUintDouble(x, y) == 0
		}
		return false
	case float64:
		switch y := b.(type) {
		case float64:
			return x == y
		case int64:
			return x == x && compareDoubleInt(x, y) == 0
		case uint64:
			return x == x && compareDoubleUint(x, y) == 0
		}
		return false
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case Bytes:
		y, ok := b.(Bytes)
		return ok && x == y
	case NullValue:
		_, ok := b.(NullValue)
		return ok
	case Duration:
		y, ok := b.(Duration)
		return ok && x.D == y.D
	case Timestamp:
		y, ok := b.(Timestamp)
		return ok && x.T.Equal(y.T)
	case *Type:
		y, ok := b.(*Type)
		return ok && x.Name == y.Name
	case Optional:
		y, ok := b.(Optional)
		return ok && x.Ok == y.Ok && (!x.Ok || equal(x.V, y.V))
	case equaler:
		return x.equal(b)
	case List:
		// Only the left operand's equality counts, as in cel-go: a plain list compares in
		// order even with a set list on the right.
		y, ok := b.(List)
		if !ok || x.Len() != y.Len() {
			return false
		}
		for i := 0; i < x.Len(); i++ {
			if !equal(x.At(i), y.At(i)) {
				return false
			}
		}
		return true
	case Map:
		y, ok := b.(Map)
		if !ok || x.Len() != y.Len() {
			return false
		}
		eq := true
		x.Range(func(k, v Value) bool {
			w, found := mapLookup(y, k)
			eq = found && equal(v, w)
			return eq
		})
		return eq
	}
	return false
}

// compareDoubleInt orders a double against an int as cel-go does: the int is widened to
// a double (so precision beyond 2^53 is lost, exactly as in cel-go). NaN yields 0, and the
// callers handle NaN before.
func compareDoubleInt(d float64, i int64) int {
	if d < math.MinInt64 {
		return -1
	}
	if d > math.MaxInt64 {
		return 1
	}
	return cmpOrdered(d, float64(i))
}

func compareIntDouble(i int64, d float64) int { return -compareDoubleInt(d, i) }

func compareDoubleUint(d float64, u uint64) int {
	if d < 0 {
		return -1
	}
	if d > math.MaxUint64 {
		return 1
	}
	return cmpOrdered(d, float64(u))
}

func compareUintDouble(u uint64, d float64) int { return -compareDoubleUint(d, u) }

func cmpOrdered[T int64 | uint64 | float64 | string](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// compare orders two values for <, <=, > and >=. The second result is false when CEL has
// no ordering for the pair: "no such overload", or for NaN cel-go's "NaN values cannot be
// ordered" (see compareErr).
func compare(a, b Value) (int, bool) {
	switch x := a.(type) {
	case int64:
		switch y := b.(type) {
		case int64:
			return cmpOrdered(x, y), true
		case uint64:
			if x < 0 {
				return -1, true
			}
			return cmpOrdered(uint64(x), y), true
		case float64:
			if y != y {
				return 0, false
			}
			return compareIntDouble(x, y), true
		}
	case uint64:
		switch y := b.(type) {
		case uint64:
			return cmpOrdered(x, y), true
		case int64:
			if y < 0 {
				return 1, true
			}
			return cmpOrdered(x, uint64(y)), true
		case float64:
			if y != y {
				return 0, false
			}
			return compareUintDouble(x, y), true
		}
	case float64:
		if x != x {
			return 0, false
		}
		switch y := b.(type) {
		case float64:
			if y != y {
				return 0, false
			}
			return cmpOrdered(x, y), true
		case int64:
			return compareDoubleInt(x, y), true
		case uint64:
			return compareDoubleUint(x, y), true
		}
	case string:
		if y, ok := b.(string); ok {
			return strings.Compare(x, y), true
		}
	case Bytes:
		if y, ok := b.(Bytes); ok {
			return bytes.Compare([]byte(x), []byte(y)), true
		}
	case bool:
		if y, ok := b.(bool); ok {
			switch {
			case x == y:
				return 0, true
			case !x:
				return -1, true
			}
			return 1, true
		}
	case Duration:
		if y, ok := b.(Duration); ok {
			return cmpOrdered(int64(x.D), int64(y.D)), true
		}
	case Timestamp:
		if y, ok := b.(Timestamp); ok {
			return x.T.Compare(y.T), true
		}
	case comparer:
		return x.compare(b)
	}
	return 0, false
}

// comparer is implemented by library values with an order (quantity, semver).
type comparer interface {
	compare(other Value) (int, bool)
}

func addInt(x, y int64) Value {
	if (y > 0 && x > math.MaxInt64-y) || (y < 0 && x < math.MinInt64-y) {
		return errIntOverflow
	}
	return x + y
}

func subInt(x, y int64) Value {
	if (y < 0 && x > math.MaxInt64+y) || (y > 0 && x < math.MinInt64+y) {
		return errIntOverflow
	}
	return x - y
}

func mulInt(x, y int64) Value {
	if (x == -1 && y == math.MinInt64) || (y == -1 && x == math.MinInt64) ||
		(x > 0 && y > 0 && x > math.MaxInt64/y) || (x > 0 && y < 0 && y < math.MinInt64/x) ||
		(x < 0 && y > 0 && x < math.MinInt64/y) || (x < 0 && y < 0 && y < math.MaxInt64/x) {
		return errIntOverflow
	}
	return x * y
}

func divInt(x, y int64) Value {
	if y == 0 {
		return errDivideByZero
	}
	if x == math.MinInt64 && y == -1 {
		return errIntOverflow
	}
	return x / y
}

func modInt(x, y int64) Value {
	if y == 0 {
		return errModulusByZero
	}
	if x == math.MinInt64 && y == -1 {
		return errIntOverflow
	}
	return x % y
}

func negInt(x int64) Value {
	if x == math.MinInt64 {
		return errIntOverflow
	}
	return -x
}

func addUint(x, y uint64) Value {
	if y > 0 && x > math.MaxUint64-y {
		return errUintOverflow
	}
	return x + y
}

func subUint(x, y uint64) Value {
	if y > x {
		return errUintOverflow
	}
	return x - y
}

func mulUint(x, y uint64) Value {
	if y != 0 && x > math.MaxUint64/y {
		return errUintOverflow
	}
	return x * y
}

func divUint(x, y uint64) Value {
	if y == 0 {
		return errDivideByZero
	}
	return x / y
}

func modUint(x, y uint64) Value {
	if y == 0 {
		return errModulusByZero
	}
	return x % y
}

// compareErr is the error of a failed compare(a, b).
func compareErr(a, b Value) *Err {
	if f, ok := a.(float64); ok && f != f {
		return errNaN
	}
	if f, ok := b.(float64); ok && f != f {
		switch a.(type) {
		case int64, uint64, float64:
			return errNaN
		}
	}
	return errNoSuchOverload
}

var errNaN = &Err{msg: "NaN values cannot be ordered"}
