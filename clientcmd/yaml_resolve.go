package clientcmd

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// The YAML 1.1 typing of plain scalars, which yaml.v3 (YAML 1.2) does not do: kubectl reads
// kubeconfig files and manifests with go-yaml v2, which resolves plain scalars as YAML 1.1
// does. Load types a plain scalar only where a field asks for a type (decode.go), YAMLToJSON
// and extensions everywhere; the writer quotes a string that would read back otherwise.

// yamlFloat is the float syntax YAML 1.1 resolves (kubectl's parser): "1.5", ".5", "1e3".
var yamlFloat = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
})

// resolvePlain types a plain scalar as YAML 1.1 does (kubectl's parser): null, a boolean
// (y, yes, on, true and their opposites, in three cases), an integer (decimal, 0x, 0o, 0b,
// leading-zero octal, with _ separators), a float or ±.inf and .nan, or else the text.
func resolvePlain(s string) any {
	switch s {
	case "", "~", "null", "Null", "NULL":
		return nil
	case "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON":
		return true
	case "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF":
		return false
	case ".nan", ".NaN", ".NAN":
		return math.NaN()
	case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF":
		return math.Inf(1)
	case "-.inf", "-.Inf", "-.INF":
		return math.Inf(-1)
	}
	if strings.IndexByte("+-.0123456789", s[0]) < 0 {
		return s
	}
	digits := strings.ReplaceAll(s, "_", "")
	if i, err := strconv.ParseInt(digits, 0, 64); err == nil {
		return i
	}
	if u, err := strconv.ParseUint(digits, 0, 64); err == nil {
		return u
	}
	if yamlFloat().MatchString(digits) {
		if f, err := strconv.ParseFloat(digits, 64); err == nil {
			return f
		}
	}
	for _, prefix := range []string{"0b", "-0b", "+0b"} {
		if rest, ok := strings.CutPrefix(digits, prefix); ok {
			if i, err := strconv.ParseInt(rest, 2, 64); err == nil {
				if prefix == "-0b" {
					return -i
				}
				return i
			}
		}
	}
	return s
}
