package validation

import (
	"math/rand/v2"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCh01_NamePatternMatchers: each hand-written matcher answers what its pattern,
// compiled by regexp and anchored, answers: on every string of up to four characters of
// an alphabet holding each class's edge cases, and on random longer ones.
func TestCh01_NamePatternMatchers(t *testing.T) {
	matchers := []struct {
		pattern string
		match   func(string) bool
	}{
		{dns1123LabelFmt, matchDNS1123Label},
		{dns1123SubdomainFmt, matchDNS1123Subdomain},
		{dns1035LabelFmt, matchDNS1035Label},
		{labelKeyFmt, matchLabelKey},
		{labelValueFmt, matchLabelValue},
		{configMapKeyFmt, matchConfigMapKey},
	}
	const alphabet = "az09AZ-_./ é\n"
	var inputs []string
	var grow func(prefix string, n int)
	grow = func(prefix string, n int) {
		inputs = append(inputs, prefix)
		if n == 0 {
			return
		}
		for _, r := range alphabet {
			grow(prefix+string(r), n-1)
		}
	}
	grow("", 4)
	rnd := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, 1+rnd.IntN(70))
		for i := range b {
			b[i] = "abz09-._AZ"[rnd.IntN(10)]
		}
		inputs = append(inputs, string(b))
	}
	inputs = append(inputs, "a\xff", "\xffa", "a.\n", "a\n")
	for _, m := range matchers {
		re := regexp.MustCompile("^" + m.pattern + "$")
		for _, in := range inputs {
			if re.MatchString(in) != m.match(in) {
				assert.Failf(t, "matcher disagrees with its pattern", "%s on %q: regexp %v", m.pattern, in, re.MatchString(in))
			}
		}
	}
}
