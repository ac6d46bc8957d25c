package schema

import (
	"errors"
	"math/big"
	"strconv"
	"strings"
)

// resource.Quantity as k8s.io/apimachinery pkg/api/resource/quantity.go reads and writes
// it. The real server decodes a quantity into its Go type and stores what that type writes
// out: the canonical form, unless the text it parsed was already canonical, in which case
// the text itself is kept (so "+1Gi" and "01" survive, "0.5" becomes "500m", "1000m" "1").

const quantityPattern = "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$"

var (
	errQuantityFormat  = errors.New("quantities must match the regular expression '" + quantityPattern + "'")
	errQuantityNumeric = errors.New("unable to parse numeric part of quantity")
	errQuantitySuffix  = errors.New("unable to parse quantity's suffix")
)

// The three formats of a quantity (resource.Format).
const (
	decimalExponent = iota
	binarySI
	decimalSI
)

// CheckQuantity mirrors the errors of resource.ParseQuantity: an optional sign, digits
// with at most one '.', then a suffix that is a decimal SI (n u m k M G T P E), a binary SI
// (Ki … Ei) or an exponent (e3, E-2), and a numeric part that can be read.
func CheckQuantity(str string) error {
	_, err := CanonicalQuantity(str)
	return err
}

// CanonicalQuantity returns the text the real server stores for the quantity str (already
// trimmed of white space, as Quantity.UnmarshalJSON trims it): ParseQuantity followed by
// Quantity.String, which keeps str when ParseQuantity found it canonical and otherwise
// writes CanonicalizeBytes' form. The error is ParseQuantity's.
func CanonicalQuantity(str string) (string, error) {
	a, keep, err := parseQuantity(str)
	switch {
	case err != nil:
		return "", err
	case keep:
		return str, nil
	}
	return canonical(a.unscaled, a.exp10, a.format), nil
}

// CompareQuantities compares two quantities' values, as Quantity.Cmp does: -1, 0 or 1. An
// error is ParseQuantity's for either.
func CompareQuantities(x, y string) (int, error) {
	a, _, err := parseQuantity(x)
	if err != nil {
		return 0, err
	}
	b, _, err := parseQuantity(y)
	if err != nil {
		return 0, err
	}
	e := min(a.exp10, b.exp10)
	av := new(big.Int).Mul(a.unscaled, pow10(int64(a.exp10-e)))
	bv := new(big.Int).Mul(b.unscaled, pow10(int64(b.exp10-e)))
	return av.Cmp(bv), nil
}

// CompareSums compares the sums of two lists of quantities: -1, 0 or 1.
func CompareSums(x, y []string) (int, error) {
	sum := func(qs []string) (*big.Int, int32, error) {
		total, exp := new(big.Int), int32(0)
		for _, q := range qs {
			a, _, err := parseQuantity(q)
			if err != nil {
				return nil, 0, err
			}
			e := min(exp, a.exp10)
			total.Mul(total, pow10(int64(exp-e)))
			total.Add(total, new(big.Int).Mul(a.unscaled, pow10(int64(a.exp10-e))))
			exp = e
		}
		return total, exp, nil
	}
	a, ae, err := sum(x)
	if err != nil {
		return 0, err
	}
	b, be, err := sum(y)
	if err != nil {
		return 0, err
	}
	e := min(ae, be)
	return new(big.Int).Mul(a, pow10(int64(ae-e))).Cmp(new(big.Int).Mul(b, pow10(int64(be-e)))), nil
}

// amount is a parsed quantity: unscaled×10^exp10, and the format it prints in.
type amount struct {
	unscaled *big.Int
	exp10    int32
	format   int
}

// parseQuantity mirrors ParseQuantity: the amount, and whether str is kept as its text
// (already canonical).
func parseQuantity(str string) (amount, bool, error) {
	if str == "" {
		return amount{}, false, errQuantityFormat
	}
	if str == "0" {
		return amount{unscaled: new(big.Int), format: decimalSI}, true, nil
	}
	positive, value, num, denom, suf, err := splitQuantity(str)
	if err != nil {
		return amount{}, false, err
	}
	base, exponent, format, ok := interpretSuffix(suf)
	if !ok {
		return amount{}, false, errQuantitySuffix
	}

	// ParseQuantity's int64 fast path, which also decides whether str is kept.
	precision, scale, mantissa := int32(0), int32(0), int64(1)
	switch format {
	case decimalExponent, decimalSI:
		scale = exponent
		precision = 18 - int32(len(num)+len(denom))
	case binarySI:
		if exponent >= 0 && denom == "" {
			mantissa <<= uint64(exponent)
			precision = 15 - int32(len(num)) - int32(float32(exponent)*3/10) - 1
		} else {
			precision = -1
		}
	}
	if precision >= 0 {
		scale -= int32(len(denom))
		if scale >= -9 {
			shifted := num + denom
			v, err := strconv.ParseInt(shifted, 10, 64)
			if err != nil {
				return amount{}, false, errQuantityNumeric
			}
			if result, ok := mulInt64(v, mantissa); ok {
				if !positive {
					result = -result
				}
				keep := format == binarySI && exponent%10 == 0 && v&0x07 != 0 ||
					format != binarySI && scale%3 == 0 && !strings.HasSuffix(shifted, "000") && shifted[0] != '0'
				return amount{big.NewInt(result), scale, format}, keep, nil
			}
		}
	}

	// The inf.Dec path: read value exactly, apply the suffix, round up to nano units.
	unscaled, dscale, ok := readDecimal(value)
	if !ok {
		return amount{}, false, errQuantityNumeric
	}
	exp10 := -dscale
	if base == 10 {
		exp10 += exponent
	} else {
		unscaled.Lsh(unscaled, uint(exponent))
	}
	negative := unscaled.Sign() < 0
	unscaled.Abs(unscaled)
	if unscaled.Sign() != 0 && exp10 < -9 {
		unscaled = divRoundUp(unscaled, pow10(int64(-9-exp10)))
		exp10 = -9
	}
	if format == binarySI {
		if cmpScaled(unscaled, exp10, maxInt64) > 0 {
			unscaled, exp10 = new(big.Int).Set(maxInt64), 0
		}
		if unscaled.Sign() > 0 && cmpScaled(unscaled, exp10, bigOne) < 0 {
			format = decimalSI
		}
	}
	if negative {
		unscaled.Neg(unscaled)
	}
	return amount{unscaled, exp10, format}, false, nil
}

// splitQuantity mirrors parseQuantityString: the sign, the number as written (value), its
// integer digits without leading zeros (num), its fraction digits (denom) and the suffix.
func splitQuantity(str string) (positive bool, value, num, denom, suffix string, err error) {
	positive = true
	pos, end := 0, len(str)
	if str[0] == '-' || str[0] == '+' {
		positive = str[0] == '+'
		pos++
	}
	for pos < end && str[pos] == '0' {
		pos++
	}
	if pos >= end {
		return positive, "0", "0", "", "", nil
	}
	i := skipDigits(str, pos)
	num, pos = str[pos:i], i
	if i >= end {
		return positive, str, num, "", "", nil
	}
	if num == "" {
		num = "0"
	}
	if str[pos] == '.' {
		i = skipDigits(str, pos+1)
		denom = str[pos+1 : i]
		if i >= end {
			return positive, str, num, denom, "", nil
		}
		pos = i
	}
	value = str[:pos]
	start := pos
	for pos < end && strings.IndexByte("eEinumkKMGTP", str[pos]) >= 0 {
		pos++
	}
	if pos < end && (str[pos] == '-' || str[pos] == '+') {
		pos++
	}
	if skipDigits(str, pos) != end {
		return positive, value, num, denom, "", errQuantityFormat
	}
	return positive, value, num, denom, str[start:], nil
}

func skipDigits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// decimalSuffixes and binarySuffixes are the suffixer's tables, by power of ten and of 1024.
var (
	decimalSuffixes = map[string]int32{"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
	binarySuffixes  = map[string]int32{"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
)

// interpretSuffix mirrors the suffixer's interpret: base, exponent and format. An
// exponent suffix's number is cut to 32 bits, as upstream converts it.
func interpretSuffix(s string) (base, exponent int32, format int, ok bool) {
	if e, ok := decimalSuffixes[s]; ok {
		return 10, e, decimalSI, true
	}
	if e, ok := binarySuffixes[s]; ok {
		return 2, e, binarySI, true
	}
	if len(s) > 1 && (s[0] == 'e' || s[0] == 'E') {
		n, err := strconv.ParseInt(s[1:], 10, 64)
		if err != nil {
			return 0, 0, decimalExponent, false
		}
		return 10, int32(n), decimalExponent, true
	}
	return 0, 0, decimalExponent, false
}

// mulInt64 mirrors int64Multiply: the product, false on overflow.
func mulInt64(a, b int64) (int64, bool) {
	if a == 0 || b == 0 || a == 1 || b == 1 {
		return a * b, true
	}
	if a == -1<<63 || b == -1<<63 {
		return 0, false
	}
	c := a * b
	return c, c/b == a
}

// readDecimal mirrors inf.Dec's SetString for the numeric text: an optional sign, digits
// and at most one point; it returns the digits as an integer and the count after the point.
func readDecimal(s string) (*big.Int, int32, bool) {
	digits, point := make([]byte, 0, len(s)), -1
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '.':
			point = len(digits)
		default:
			digits = append(digits, c)
		}
	}
	hasDigit := strings.ContainsAny(string(digits), "0123456789")
	v, ok := new(big.Int).SetString(string(digits), 10)
	if !hasDigit || !ok {
		return nil, 0, false
	}
	scale := int32(0)
	if point >= 0 {
		scale = int32(len(digits) - point)
	}
	return v, scale, true
}

var (
	bigOne   = big.NewInt(1)
	bigTen   = big.NewInt(10)
	big1024  = big.NewInt(1024)
	maxInt64 = big.NewInt(1<<63 - 1)
)

func pow10(n int64) *big.Int { return new(big.Int).Exp(bigTen, big.NewInt(n), nil) }

// divRoundUp is a/b rounded away from zero, for a ≥ 0.
func divRoundUp(a, b *big.Int) *big.Int {
	q, r := new(big.Int).QuoRem(a, b, new(big.Int))
	if r.Sign() != 0 {
		q.Add(q, big.NewInt(1))
	}
	return q
}

// toInteger returns unscaled×10^exp10 as an integer, or nil when it has a fraction.
func toInteger(unscaled *big.Int, exp10 int32) *big.Int {
	if exp10 >= 0 {
		return new(big.Int).Mul(unscaled, pow10(int64(exp10)))
	}
	q, r := new(big.Int).QuoRem(unscaled, pow10(int64(-exp10)), new(big.Int))
	if r.Sign() != 0 {
		return nil
	}
	return q
}

// cmpScaled compares unscaled×10^exp10 with the integer n.
func cmpScaled(unscaled *big.Int, exp10 int32, n *big.Int) int {
	if exp10 >= 0 {
		return new(big.Int).Mul(unscaled, pow10(int64(exp10))).Cmp(n)
	}
	return unscaled.Cmp(new(big.Int).Mul(n, pow10(int64(-exp10))))
}

// canonical mirrors CanonicalizeBytes for the value unscaled×10^exp10.
func canonical(unscaled *big.Int, exp10 int32, format int) string {
	if unscaled.Sign() == 0 {
		return "0"
	}
	if format == binarySI {
		if cmpScaled(new(big.Int).Abs(unscaled), exp10, big1024) < 0 {
			format = decimalSI // within (-1024, 1024)
		} else if v := toInteger(unscaled, exp10); v == nil {
			format = decimalSI // a fraction would be lost
		} else {
			n, times := removeFactors(v, big1024)
			if times < 1 || times > 6 {
				return n.String()
			}
			return n.String() + [...]string{"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}[times-1]
		}
	}
	n, times := removeFactors(new(big.Int).Set(unscaled), bigTen)
	exponent := exp10 + times
	for exponent%3 != 0 {
		n.Mul(n, bigTen)
		exponent--
	}
	if exponent == 0 {
		return n.String()
	}
	if format == decimalExponent {
		return n.String() + "e" + strconv.FormatInt(int64(exponent), 10)
	}
	for s, e := range decimalSuffixes {
		if e == exponent {
			return n.String() + s
		}
	}
	// Upstream's suffix table stops at E (10^18): a larger exponent gets no suffix at all.
	return n.String()
}

// removeFactors divides factor out of v as often as it goes, as removeBigIntFactors does.
func removeFactors(v, factor *big.Int) (*big.Int, int32) {
	times := int32(0)
	q, m := new(big.Int), new(big.Int)
	for v.Sign() != 0 {
		q.DivMod(v, factor, m)
		if m.Sign() != 0 {
			break
		}
		times++
		v, q = q, v
	}
	return v, times
}

// QuantityValue returns the exact value of a quantity CheckQuantity accepts, for comparing
// two (Quantity.Cmp); ok is false for one it refuses.
func QuantityValue(str string) (v *big.Rat, ok bool) {
	if CheckQuantity(str) != nil {
		return nil, false
	}
	i := 0
	if str[0] == '+' || str[0] == '-' {
		i++
	}
	for i < len(str) && (str[i] >= '0' && str[i] <= '9' || str[i] == '.') {
		i++
	}
	num, suffix := str[:i], str[i:]
	v, ok = new(big.Rat).SetString(num)
	if !ok {
		return nil, false
	}
	scale := new(big.Rat).SetInt64(1)
	pow := func(base, exp int64) *big.Rat {
		r := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(base), big.NewInt(abs64(exp)), nil))
		if exp < 0 {
			r.Inv(r)
		}
		return r
	}
	switch suffix {
	case "":
	case "n", "u", "m", "k", "M", "G", "T", "P", "E":
		scale = pow(10, map[string]int64{"n": -9, "u": -6, "m": -3, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}[suffix])
	case "Ki", "Mi", "Gi", "Ti", "Pi", "Ei":
		scale = pow(2, map[string]int64{"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}[suffix])
	default: // e3, E-2
		exp, err := strconv.ParseInt(suffix[1:], 10, 64)
		if err != nil || abs64(exp) > 1000 {
			return nil, false
		}
		scale = pow(10, exp)
	}
	return v.Mul(v, scale), true
}

func abs64(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}
