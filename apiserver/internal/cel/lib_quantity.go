package cel

import (
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"
)

func init() { libraries = append(libraries, quantityLib) }

// Quantity is a Kubernetes resource quantity, kept as resource.Quantity keeps it: a small
// value with a decimal scale when it fits in an int64, else an exact decimal. The
// representation matters: isInteger() and asInteger() only succeed on the small form with a
// non-negative scale, as in k8s.io/apimachinery.
type Quantity struct {
	small bool
	value int64 // small: value × 10^scale
	scale int32
	u     *big.Int // big: u × 10^exp
	exp   int32
}

// QuantityType is kubernetes.Quantity.
var QuantityType = OpaqueType("kubernetes.Quantity")

func (q Quantity) celType() *Type { return QuantityType }

var (
	errQuantityFormat  = errors.New("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")
	errQuantityNumeric = errors.New("unable to parse numeric part of quantity")
	errQuantitySuffix  = errors.New("unable to parse quantity's suffix")
)

var decimalSuffixes = map[string]int32{"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
var binarySuffixes = map[string]int32{"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}

// splitQuantity scans sign, integer digits (without leading zeros), fraction digits and
// suffix, as resource.parseQuantityString.
func splitQuantity(s string) (positive bool, value, num, denom, suffix string, err error) {
	positive = true
	pos, end := 0, len(s)
	if pos < end && (s[0] == '-' || s[0] == '+') {
		positive = s[0] == '+'
		pos++
	}
	for pos < end && s[pos] == '0' {
		pos++
	}
	if pos >= end {
		return positive, "0", "0", "", "", nil
	}
	i := pos
	for i < end && isDigit(s[i]) {
		i++
	}
	num = s[pos:i]
	if i >= end {
		return positive, s, num, "", "", nil
	}
	pos = i
	if num == "" {
		num = "0"
	}
	if s[pos] == '.' {
		pos++
		i = pos
		for i < end && isDigit(s[i]) {
			i++
		}
		denom = s[pos:i]
		if i >= end {
			return positive, s, num, denom, "", nil
		}
		pos = i
	}
	value = s[:pos]
	start := pos
	for pos < end && strings.IndexByte("eEinumkKMGTP", s[pos]) >= 0 {
		pos++
	}
	if pos < end && (s[pos] == '-' || s[pos] == '+') {
		pos++
	}
	for pos < end && isDigit(s[pos]) {
		pos++
	}
	if pos < end {
		return positive, value, num, denom, "", errQuantityFormat
	}
	return positive, value, num, denom, s[start:], nil
}

// ParseQuantity parses a quantity as resource.ParseQuantity does, with its errors.
func ParseQuantity(s string) (Quantity, error) {
	if s == "" {
		return Quantity{}, errQuantityFormat
	}
	if s == "0" {
		return Quantity{small: true}, nil
	}
	positive, value, num, denom, suf, err := splitQuantity(s)
	if err != nil {
		return Quantity{}, err
	}
	base, exponent, binary := int32(10), int32(0), false
	if e, ok := decimalSuffixes[suf]; ok {
		exponent = e
	} else if e, ok := binarySuffixes[suf]; ok {
		base, exponent, binary = 2, e, true
	} else if len(suf) > 1 && (suf[0] == 'e' || suf[0] == 'E') {
		p, err := strconv.ParseInt(suf[1:], 10, 64)
		if err != nil {
			return Quantity{}, errQuantitySuffix
		}
		exponent = int32(p)
	} else {
		return Quantity{}, errQuantitySuffix
	}
	precision, scale, mantissa := int32(0), int32(0), int64(1)
	if binary {
		if exponent >= 0 && len(denom) == 0 {
			mantissa = 1 << uint64(exponent)
			precision = 15 - int32(len(num)) - int32(float32(exponent)*3/10) - 1
		} else {
			precision = -1
		}
	} else {
		scale = exponent
		precision = 18 - int32(len(num)+len(denom))
	}
	if precision >= 0 {
		scale -= int32(len(denom))
		if scale >= -9 {
			v, err := strconv.ParseInt(num+denom, 10, 64)
			if err != nil {
				return Quantity{}, errQuantityNumeric
			}
			if r, ok := mulInt(v, mantissa).(int64); ok {
				if !positive {
					r = -r
				}
				return Quantity{small: true, value: r, scale: scale}, nil
			}
		}
	}
	u, exp, ok := parseDecimal(value)
	if !ok {
		return Quantity{}, errQuantityNumeric
	}
	if base == 10 {
		exp += exponent
	} else {
		u.Lsh(u, uint(exponent))
	}
	neg := u.Sign() < 0
	u.Abs(u)
	if u.Sign() != 0 && exp < -9 {
		// Round up (away from zero) to nano, so that a tiny request is not zero.
		d := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-9-exp)), nil)
		q, r := new(big.Int).QuoRem(u, d, new(big.Int))
		if r.Sign() != 0 {
			q.Add(q, big.NewInt(1))
		}
		u, exp = q, -9
	}
	if binary {
		maxAllowed := big.NewInt(math.MaxInt64)
		if cmpDec(u, exp, maxAllowed, 0) > 0 {
			u, exp = maxAllowed, 0
		}
	}
	if neg {
		u.Neg(u)
	}
	return Quantity{u: u, exp: exp}, nil
}

// parseDecimal reads [sign]digits[.digits] as an unscaled integer and a power of ten.
func parseDecimal(s string) (*big.Int, int32, bool) {
	digits, exp := s, int32(0)
	if i := strings.IndexByte(s, '.'); i >= 0 {
		digits = s[:i] + s[i+1:]
		exp = -int32(len(s) - i - 1)
	}
	if digits == "" || digits == "+" || digits == "-" {
		return nil, 0, false
	}
	u, ok := new(big.Int).SetString(digits, 10)
	return u, exp, ok
}

func cmpDec(a *big.Int, ae int32, b *big.Int, be int32) int {
	x, y := new(big.Int).Set(a), new(big.Int).Set(b)
	if ae > be {
		x.Mul(x, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(ae-be)), nil))
	} else if be > ae {
		y.Mul(y, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(be-ae)), nil))
	}
	return x.Cmp(y)
}

// dec returns the exact value as unscaled × 10^exp.
func (q Quantity) dec() (*big.Int, int32) {
	if q.small {
		return big.NewInt(q.value), q.scale
	}
	return q.u, q.exp
}

// Cmp compares exactly.
func (q Quantity) Cmp(o Quantity) int {
	a, ae := q.dec()
	b, be := o.dec()
	return cmpDec(a, ae, b, be)
}

// Sign is -1, 0 or 1.
func (q Quantity) Sign() int {
	u, _ := q.dec()
	return u.Sign()
}

// AsInt64 mirrors resource.Quantity.AsInt64.
func (q Quantity) AsInt64() (int64, bool) {
	if !q.small {
		return 0, false
	}
	if q.scale == 0 {
		return q.value, true
	}
	if q.scale < 0 {
		return 0, false
	}
	v := q.value
	for i := int32(0); i < q.scale; i++ {
		r, ok := mulInt(v, 10).(int64)
		if !ok {
			return 0, false
		}
		v = r
	}
	return v, true
}

// AsApproximateFloat64 mirrors resource.Quantity.AsApproximateFloat64.
func (q Quantity) AsApproximateFloat64() float64 {
	var base float64
	var exponent int
	if q.small {
		base, exponent = float64(q.value), int(q.scale)
	} else {
		base, _ = new(big.Float).SetInt(q.u).Float64()
		exponent = int(q.exp)
	}
	if exponent == 0 {
		return base
	}
	return base * math.Pow10(exponent)
}

// Add mirrors resource.Quantity.Add: small values add at the smaller scale, falling back
// to the exact form on overflow.
func (q Quantity) Add(o Quantity) Quantity {
	if q.small && o.small {
		if r, ok := addSmall(q, o); ok {
			return r
		}
	}
	a, ae := q.dec()
	b, be := o.dec()
	e := ae
	if be < e {
		e = be
	}
	x := new(big.Int).Mul(a, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(ae-e)), nil))
	y := new(big.Int).Mul(b, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(be-e)), nil))
	return Quantity{u: x.Add(x, y), exp: e}
}

func addSmall(a, b Quantity) (Quantity, bool) {
	switch {
	case b.value == 0:
		return a, true
	case a.value == 0:
		return b, true
	case a.scale == b.scale:
		c, ok := addInt(a.value, b.value).(int64)
		return Quantity{small: true, value: c, scale: a.scale}, ok
	case a.scale > b.scale:
		c, ok := (Quantity{small: true, value: a.value, scale: a.scale - b.scale}).AsInt64()
		if !ok {
			return a, false
		}
		s, ok := addInt(c, b.value).(int64)
		return Quantity{small: true, value: s, scale: b.scale}, ok
	}
	c, ok := (Quantity{small: true, value: b.value, scale: b.scale - a.scale}).AsInt64()
	if !ok {
		return a, false
	}
	s, ok := addInt(a.value, c).(int64)
	return Quantity{small: true, value: s, scale: a.scale}, ok
}

// Neg is -q.
func (q Quantity) Neg() Quantity {
	if q.small {
		return Quantity{small: true, value: -q.value, scale: q.scale}
	}
	return Quantity{u: new(big.Int).Neg(q.u), exp: q.exp}
}

func (q Quantity) equal(o Value) bool {
	p, ok := o.(Quantity)
	return ok && q.Cmp(p) == 0
}

// String prints the exact value in decimal, with an exponent suffix when needed.
func (q Quantity) String() string {
	u, e := q.dec()
	s := u.String()
	if e >= 0 {
		if e == 0 {
			return s
		}
		return s + "e" + strconv.Itoa(int(e))
	}
	return s + "e" + strconv.Itoa(int(e))
}

func quantityLib(l *library) {
	Q := QuantityType
	l.global("quantity", "string_to_quantity", Q, ts(StringType), func(v Value) Value {
		q, err := ParseQuantity(v.(string))
		if err != nil {
			return errorf("%s", err.Error())
		}
		return q
	})
	l.global("isQuantity", "is_quantity_string", BoolType, ts(StringType), func(v Value) Value {
		_, err := ParseQuantity(v.(string))
		return err == nil
	})
	l.global("sign", "quantity_sign", IntType, ts(Q), func(v Value) Value { return int64(v.(Quantity).Sign()) })
	l.member("isGreaterThan", "quantity_is_greater_than", BoolType, ts(Q, Q), func(a, b Value) Value { return a.(Quantity).Cmp(b.(Quantity)) == 1 })
	l.member("isLessThan", "quantity_is_less_than", BoolType, ts(Q, Q), func(a, b Value) Value { return a.(Quantity).Cmp(b.(Quantity)) == -1 })
	l.member("compareTo", "quantity_compare_to", IntType, ts(Q, Q), func(a, b Value) Value { return int64(a.(Quantity).Cmp(b.(Quantity))) })
	l.member("asApproximateFloat", "quantity_get_float", DoubleType, ts(Q), func(v Value) Value { return v.(Quantity).AsApproximateFloat64() })
	l.member("asInteger", "quantity_get_int", IntType, ts(Q), func(v Value) Value {
		i, ok := v.(Quantity).AsInt64()
		if !ok {
			return errorf("cannot convert value to integer")
		}
		return i
	})
	l.member("isInteger", "quantity_is_integer", BoolType, ts(Q), func(v Value) Value {
		_, ok := v.(Quantity).AsInt64()
		return ok
	})
	l.member("add", "quantity_add", Q, ts(Q, Q), func(a, b Value) Value { return a.(Quantity).Add(b.(Quantity)) })
	l.member("add", "quantity_add_int", Q, ts(Q, IntType), func(a, b Value) Value {
		return a.(Quantity).Add(Quantity{small: true, value: b.(int64)})
	})
	l.member("sub", "quantity_sub", Q, ts(Q, Q), func(a, b Value) Value { return a.(Quantity).Add(b.(Quantity).Neg()) })
	l.member("sub", "quantity_sub_int", Q, ts(Q, IntType), func(a, b Value) Value {
		return a.(Quantity).Add(Quantity{small: true, value: -b.(int64)})
	})
}
