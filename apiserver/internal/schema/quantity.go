package schema

import (
	"errors"
	"math/big"
	"strconv"
	"strings"
)

// The grammar of resource.Quantity, as ParseQuantity in k8s.io/apimachinery
// pkg/api/resource/quantity.go accepts it, with its error texts.

const quantityPattern = "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$"

var (
	errQuantityFormat = errors.New("quantities must match the regular expression '" + quantityPattern + "'")
	errQuantitySuffix = errors.New("unable to parse quantity's suffix")
)

// CheckQuantity mirrors the checks of resource.ParseQuantity: an optional sign, digits
// with at most one '.', then a suffix that is a decimal SI (n u m k M G T P E), a binary SI
// (Ki … Ei) or an exponent (e3, E-2). It reports ParseQuantity's error texts.
func CheckQuantity(str string) error {
	if str == "" {
		return errQuantityFormat
	}
	pos := 0
	if str[0] == '+' || str[0] == '-' {
		pos++
	}
	pos = skipDigits(str, pos)
	if pos < len(str) && str[pos] == '.' {
		pos = skipDigits(str, pos+1)
	}
	suffix := str[pos:]
	// The suffix: letters of the set, then an optional sign and digits, then the end.
	i := 0
	for i < len(suffix) && strings.IndexByte("eEinumkKMGTP", suffix[i]) >= 0 {
		i++
	}
	if i < len(suffix) && (suffix[i] == '+' || suffix[i] == '-') {
		i++
	}
	if skipDigits(suffix, i) != len(suffix) {
		return errQuantityFormat
	}
	if !knownSuffix(suffix) {
		return errQuantitySuffix
	}
	return nil
}

func skipDigits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// knownSuffix mirrors the suffixer's interpret: the SI suffixes, or e/E with an integer.
func knownSuffix(s string) bool {
	switch s {
	case "", "n", "u", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei":
		return true
	}
	if len(s) > 1 && (s[0] == 'e' || s[0] == 'E') {
		_, err := strconv.ParseInt(s[1:], 10, 64)
		return err == nil
	}
	return false
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
