package admission

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/informer-lab/informer-lab/apiserver/internal/schema"
)

// quantity is a resource.Quantity as the quota and limit plugins use it: an exact value and
// the format its sums print in (the first operand's, as Quantity.Add keeps it).
type quantity struct {
	v      *big.Rat
	binary bool
}

var (
	decimalPowers = []struct {
		suffix string
		exp    int64
	}{{"E", 18}, {"P", 15}, {"T", 12}, {"G", 9}, {"M", 6}, {"k", 3}, {"", 0}, {"m", -3}, {"u", -6}, {"n", -9}}
	binaryPowers = []struct {
		suffix string
		shift  uint
	}{{"Ei", 60}, {"Pi", 50}, {"Ti", 40}, {"Gi", 30}, {"Mi", 20}, {"Ki", 10}}
)

// parseQuantity reads a quantity of a stored object (any JSON value: numbers print as
// numbers), as resource.ParseQuantity.
func parseQuantity(x any) (quantity, error) {
	s, err := schema.CanonicalQuantity(strings.TrimSpace(fmt.Sprint(x)))
	if err != nil {
		return quantity{}, err
	}
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	num, suffix := s[:i], s[i:]
	v, ok := new(big.Rat).SetString(num)
	if !ok {
		return quantity{}, fmt.Errorf("quantity %q", s)
	}
	q := quantity{v: v}
	switch {
	case strings.HasSuffix(suffix, "i"):
		for _, p := range binaryPowers {
			if p.suffix == suffix {
				v.Mul(v, new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), p.shift)))
			}
		}
		q.binary = true
	case strings.HasPrefix(suffix, "e") || strings.HasPrefix(suffix, "E"):
		var e int64
		_, _ = fmt.Sscan(suffix[1:], &e)
		v.Mul(v, pow10Rat(e))
	default:
		for _, p := range decimalPowers {
			if p.suffix == suffix {
				v.Mul(v, pow10Rat(p.exp))
			}
		}
	}
	return q, nil
}

func pow10Rat(e int64) *big.Rat {
	if e >= 0 {
		return new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(e), nil))
	}
	return new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Exp(big.NewInt(10), big.NewInt(-e), nil))
}

// zeroQuantity is 0 in the decimal format.
func zeroQuantity() quantity { return quantity{v: new(big.Rat)} }

// add is q+o in q's format (o's when q is zero, as Quantity.Add).
func (q quantity) add(o quantity) quantity {
	f := q.binary
	if q.v.Sign() == 0 {
		f = o.binary
	}
	return quantity{v: new(big.Rat).Add(q.v, o.v), binary: f}
}

// sub is q-o in q's format.
func (q quantity) sub(o quantity) quantity {
	return quantity{v: new(big.Rat).Sub(q.v, o.v), binary: q.binary}
}

func (q quantity) cmp(o quantity) int { return q.v.Cmp(o.v) }

// String mirrors Quantity.String's canonical form: in binary SI the largest power of 1024
// that divides the value (a fraction falls back to decimal SI), in decimal SI the largest
// power of 1000, rounding up below nano units.
func (q quantity) String() string {
	v := q.v
	if q.binary && v.IsInt() {
		n := v.Num()
		abs := new(big.Int).Abs(n)
		for _, p := range binaryPowers {
			unit := new(big.Int).Lsh(big.NewInt(1), p.shift)
			if abs.Cmp(unit) >= 0 && new(big.Int).Mod(abs, unit).Sign() == 0 {
				return new(big.Int).Quo(n, unit).String() + p.suffix
			}
		}
		return n.String()
	}
	if v.Sign() == 0 {
		return "0"
	}
	for _, p := range decimalPowers {
		m := new(big.Rat).Mul(v, pow10Rat(-p.exp))
		if m.IsInt() {
			return m.Num().String() + p.suffix
		}
	}
	// Finer than nano: round up to nano units.
	m := new(big.Rat).Mul(v, pow10Rat(9))
	n := new(big.Int).Quo(m.Num(), m.Denom())
	if m.Sign() > 0 {
		n.Add(n, big.NewInt(1))
	}
	return n.String() + "n"
}

// milliValue mirrors Quantity.MilliValue: the value in thousandths, rounded up.
func (q quantity) milliValue() *big.Int {
	m := new(big.Rat).Mul(q.v, pow10Rat(3))
	n := new(big.Int).Quo(m.Num(), m.Denom())
	if !m.IsInt() && m.Sign() > 0 {
		n.Add(n, big.NewInt(1))
	}
	return n
}
