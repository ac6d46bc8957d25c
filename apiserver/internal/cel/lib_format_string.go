package cel

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// formatString is string.format of cel-go's strings library version 1 to 3, which
// Kubernetes uses: %s %d %f %e %b %x %X %o clauses, %% for a percent sign, and numbers
// printed the way golang.org/x/text prints them for en_US.
func formatString(f string, args List) (string, error) {
	var b strings.Builder
	argIndex := 0
	for i := 0; i < len(f); {
		if f[i] != '%' {
			b.WriteByte(f[i])
			i++
			continue
		}
		if i+1 < len(f) && f[i+1] == '%' {
			b.WriteByte('%')
			i += 2
			continue
		}
		if argIndex >= args.Len() {
			return "", fmt.Errorf("index %d out of range", argIndex)
		}
		arg := args.At(argIndex)
		if i+1 >= len(f) {
			return "", errors.New("unexpected end of string")
		}
		n, s, err := formatClause(f[i+1:], arg)
		if err != nil {
			return "", err
		}
		b.WriteString(s)
		i += 1 + n
		argIndex++
	}
	return b.String(), nil
}

func formatClause(f string, arg Value) (int, string, error) {
	i := 0
	var precision *int
	if f[0] == '.' {
		i++
		start := i
		for {
			if i >= len(f) {
				return 0, "", fmt.Errorf("could not parse formatting clause: error while parsing precision: could not find end of precision specifier")
			}
			if f[i] < '0' || f[i] > '9' {
				break
			}
			i++
		}
		p, err := strconv.Atoi(f[start:i])
		if err != nil {
			return 0, "", fmt.Errorf("could not parse formatting clause: error while parsing precision: error while converting precision to integer: %w", err)
		}
		precision = &p
	}
	c := f[i]
	i++
	var s string
	var err error
	switch c {
	case 's':
		s, err = formatAsString(arg)
	case 'd':
		s, err = formatDecimal(arg)
	case 'f':
		s, err = formatFixed(arg, precision)
	case 'e':
		s, err = formatScientific(arg, precision)
	case 'b':
		s, err = formatBinary(arg)
	case 'x', 'X':
		s, err = formatHex(arg, c == 'X')
	case 'o':
		s, err = formatOctal(arg)
	default:
		return 0, "", fmt.Errorf("could not parse formatting clause: unrecognized formatting clause \"%c\"", c)
	}
	if err != nil {
		return 0, "", fmt.Errorf("error during formatting: %w", err)
	}
	return i, s, nil
}

func typeName(v Value) string { return typeOfValue(v).Name }

func isValidUTF8(s string) bool { return utf8.ValidString(s) }

func formatAsString(arg Value) (string, error) {
	switch x := arg.(type) {
	case List:
		return formatList(x)
	case Map:
		return formatMap(x)
	case NullValue:
		return "null", nil
	case int64, uint64, float64, bool, string, Timestamp, Duration, *Type:
		return toStringValue(x), nil
	case Bytes:
		s, ok := toStringValue(x), isValidUTF8(string(x))
		if !ok {
			return "", fmt.Errorf("could not convert argument %q to string", "invalid UTF-8 in bytes, cannot convert to string")
		}
		return s, nil
	}
	return "", fmt.Errorf("string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given %s", typeName(arg))
}

// toStringValue is string(v) for the types that have it.
func toStringValue(v Value) string {
	switch x := v.(type) {
	case int64:
		return strconv.FormatInt(x, 10)
	case uint64:
		return strconv.FormatUint(x, 10)
	case float64:
		return fmt.Sprintf("%g", x)
	case bool:
		return strconv.FormatBool(x)
	case string:
		return x
	case Bytes:
		return string(x)
	case Timestamp:
		return x.T.Format("2006-01-02T15:04:05.999999999Z07:00")
	case Duration:
		return durationString(x.D)
	case *Type:
		return x.Name
	}
	return ""
}

// clauseFor formats a list element or map value inside %s.
func clauseFor(v Value) (string, error) {
	switch x := v.(type) {
	case int64, uint64:
		return formatDecimal(x)
	case string, Bytes, bool, NullValue, *Type:
		return formatAsString(x)
	case Timestamp:
		return fmt.Sprintf("timestamp(%q)", toStringValue(x)), nil
	case Duration:
		return fmt.Sprintf("duration(%q)", toStringValue(x)), nil
	case List:
		return formatList(x)
	case Map:
		return formatMap(x)
	case float64:
		return fmt.Sprintf("%.6f", x), nil
	}
	return "", fmt.Errorf("no formatting function for %s", typeName(v))
}

func quoteForCEL(v Value, s string) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("%q", s)
	case Bytes:
		return fmt.Sprintf("b%q", s)
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return fmt.Sprintf("%q", s)
		}
	}
	return s
}

func formatList(l List) (string, error) {
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; i < l.Len(); i++ {
		m := l.At(i)
		s, err := clauseFor(m)
		if err != nil {
			return "", err
		}
		b.WriteString(quoteForCEL(m, s))
		if i < l.Len()-1 {
			b.WriteString(", ")
		}
	}
	b.WriteByte(']')
	return b.String(), nil
}

func formatMap(m Map) (string, error) {
	type pair struct{ k, v string }
	var pairs []pair
	var err error
	m.Range(func(k, v Value) bool {
		var ks string
		switch k.(type) {
		case string, bool:
			ks, err = formatAsString(k)
		case int64, uint64:
			ks, err = formatDecimal(k)
		default:
			err = fmt.Errorf("no formatting function for map key of type %s", typeName(k))
		}
		if err != nil {
			return false
		}
		var vs string
		if vs, err = clauseFor(v); err != nil {
			return false
		}
		pairs = append(pairs, pair{quoteForCEL(k, ks), quoteForCEL(v, vs)})
		return true
	})
	if err != nil {
		return "", err
	}
	sort.SliceStable(pairs, func(i, j int) bool { return pairs[i].k < pairs[j].k })
	var b strings.Builder
	b.WriteByte('{')
	for i, p := range pairs {
		b.WriteString(p.k + ":" + p.v)
		if i < len(pairs)-1 {
			b.WriteString(", ")
		}
	}
	b.WriteByte('}')
	return b.String(), nil
}

func formatDecimal(arg Value) (string, error) {
	switch x := arg.(type) {
	case int64:
		return strconv.FormatInt(x, 10), nil
	case uint64:
		return strconv.FormatUint(x, 10), nil
	}
	return "", fmt.Errorf("decimal clause can only be used on integers, was given %s", typeName(arg))
}

// floatArg accepts a double, or the strings NaN, Infinity and -Infinity.
func floatArg(arg Value) (float64, bool) {
	switch x := arg.(type) {
	case float64:
		return x, true
	case string:
		switch x {
		case "NaN":
			return math.NaN(), true
		case "Infinity":
			return math.Inf(1), true
		case "-Infinity":
			return math.Inf(-1), true
		}
	}
	return 0, false
}

// localeSpecial is how golang.org/x/text prints non-finite numbers.
func localeSpecial(f float64) (string, bool) {
	switch {
	case math.IsNaN(f):
		return "NaN", true
	case math.IsInf(f, 1):
		return "∞", true
	case math.IsInf(f, -1):
		return "-∞", true
	}
	return "", false
}

func formatFixed(arg Value, precision *int) (string, error) {
	f, ok := floatArg(arg)
	if !ok {
		return "", fmt.Errorf("fixed-point clause can only be used on doubles, was given %s", typeName(arg))
	}
	p := 6
	if precision != nil {
		p = *precision
	}
	if s, ok := localeSpecial(f); ok {
		return s, nil
	}
	if f == 0 {
		f = 0 // x/text prints no sign for negative zero
	}
	s := strconv.FormatFloat(f, 'f', p, 64)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	intPart, frac := s, ""
	if i := strings.IndexByte(s, '.'); i >= 0 {
		intPart, frac = s[:i], s[i:]
	}
	var g strings.Builder
	for i, c := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			g.WriteByte(',')
		}
		g.WriteRune(c)
	}
	out := g.String() + frac
	if neg {
		out = "-" + out
	}
	return out, nil
}

var superscripts = []rune("⁰¹²³⁴⁵⁶⁷⁸⁹")

func formatScientific(arg Value, precision *int) (string, error) {
	f, ok := floatArg(arg)
	if !ok {
		return "", fmt.Errorf("scientific clause can only be used on doubles, was given %s", typeName(arg))
	}
	// cel-go formats with "%<precision>e": the precision is used as a width.
	width := 6
	if precision != nil {
		width = *precision
	}
	s, special := localeSpecial(f)
	if !special {
		m := strconv.FormatFloat(f, 'e', 6, 64)
		i := strings.IndexByte(m, 'e')
		mant, exp := m[:i], m[i+1:]
		var b strings.Builder
		b.WriteString(mant + "×10")
		if exp[0] == '-' {
			b.WriteRune('⁻')
		}
		for _, c := range exp[1:] {
			b.WriteRune(superscripts[c-'0'])
		}
		s = b.String()
	}
	if n := len([]rune(s)); n < width {
		s = strings.Repeat(" ", width-n) + s
	}
	return s, nil
}

func formatBinary(arg Value) (string, error) {
	switch x := arg.(type) {
	case int64:
		return strconv.FormatInt(x, 2), nil
	case uint64:
		return strconv.FormatUint(x, 2), nil
	case bool:
		if x {
			return "1", nil
		}
		return "0", nil
	}
	return "", fmt.Errorf("only integers and bools can be formatted as binary, was given %s", typeName(arg))
}

func formatHex(arg Value, upper bool) (string, error) {
	verb := "%x"
	if upper {
		verb = "%X"
	}
	switch x := arg.(type) {
	case string:
		return fmt.Sprintf(verb, x), nil
	case Bytes:
		return fmt.Sprintf(verb, []byte(x)), nil
	case int64:
		return fmt.Sprintf(verb, x), nil
	case uint64:
		return fmt.Sprintf(verb, x), nil
	}
	return "", fmt.Errorf("only integers, byte buffers, and strings can be formatted as hex, was given %s", typeName(arg))
}

func formatOctal(arg Value) (string, error) {
	switch x := arg.(type) {
	case int64:
		return strconv.FormatInt(x, 8), nil
	case uint64:
		return strconv.FormatUint(x, 8), nil
	}
	return "", fmt.Errorf("octal clause can only be used on integers, was given %s", typeName(arg))
}
