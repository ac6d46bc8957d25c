package cel

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

func init() { libraries = append(libraries, stringsLib) }

// stringsLib declares cel-go's extended strings library at the version Kubernetes v1.36
// enables (ext.Strings(ext.StringsVersion(2))).
func stringsLib(l *library) {
	S, I := StringType, IntType
	str := func(f func(string) Value) func(Value) Value { return func(v Value) Value { return f(v.(string)) } }
	l.member("charAt", "string_char_at_int", S, ts(S, I), func(s, i Value) Value {
		r := []rune(s.(string))
		n := i.(int64)
		if n < 0 || n > int64(len(r)) {
			return errorf("index out of range: %d", n)
		}
		if n == int64(len(r)) {
			return ""
		}
		return string(r[n])
	})
	l.member("indexOf", "string_index_of_string", I, ts(S, S), func(s, sub Value) Value {
		return indexOfOffset(s.(string), sub.(string), 0)
	})
	l.member("indexOf", "string_index_of_string_int", I, ts(S, S, I), func(a []Value) Value {
		return indexOfOffset(a[0].(string), a[1].(string), a[2].(int64))
	})
	l.member("lastIndexOf", "string_last_index_of_string", I, ts(S, S), func(s, sub Value) Value {
		str, sb := s.(string), sub.(string)
		n := utf8.RuneCountInString(str)
		if sb == "" {
			return int64(n)
		}
		if len(str) < len(sb) {
			return int64(-1)
		}
		return lastIndexOfOffset(str, sb, int64(n-1))
	})
	l.member("lastIndexOf", "string_last_index_of_string_int", I, ts(S, S, I), func(a []Value) Value {
		return lastIndexOfOffset(a[0].(string), a[1].(string), a[2].(int64))
	})
	l.member("lowerAscii", "string_lower_ascii", S, ts(S), str(func(s string) Value { return mapASCII(s, unicode.ToLower) }))
	l.member("upperAscii", "string_upper_ascii", S, ts(S), str(func(s string) Value { return mapASCII(s, unicode.ToUpper) }))
	l.member("replace", "string_replace_string_string", S, ts(S, S, S), func(a []Value) Value {
		return strings.ReplaceAll(a[0].(string), a[1].(string), a[2].(string))
	})
	l.member("replace", "string_replace_string_string_int", S, ts(S, S, S, I), func(a []Value) Value {
		return strings.Replace(a[0].(string), a[1].(string), a[2].(string), int(a[3].(int64)))
	})
	l.member("split", "string_split_string", ListType(S), ts(S, S), func(s, sep Value) Value {
		return stringList(strings.Split(s.(string), sep.(string)))
	})
	l.member("split", "string_split_string_int", ListType(S), ts(S, S, I), func(a []Value) Value {
		return stringList(strings.SplitN(a[0].(string), a[1].(string), int(a[2].(int64))))
	})
	l.member("substring", "string_substring_int", S, ts(S, I), func(s, start Value) Value {
		r := []rune(s.(string))
		n := start.(int64)
		if n < 0 || n > int64(len(r)) {
			return errorf("index out of range: %d", n)
		}
		return string(r[n:])
	})
	l.member("substring", "string_substring_int_int", S, ts(S, I, I), func(a []Value) Value {
		r := []rune(a[0].(string))
		start, end := a[1].(int64), a[2].(int64)
		if start > end {
			return errorf("invalid substring range. start: %d, end: %d", start, end)
		}
		if start < 0 || start > int64(len(r)) {
			return errorf("index out of range: %d", start)
		}
		if end < 0 || end > int64(len(r)) {
			return errorf("index out of range: %d", end)
		}
		return string(r[start:end])
	})
	l.member("trim", "string_trim", S, ts(S), str(func(s string) Value { return strings.TrimSpace(s) }))
	l.member("format", "string_format", S, ts(S, ListType(DynType)), func(s, args Value) Value {
		out, err := formatString(s.(string), args.(List))
		if err != nil {
			return errorf("%s", err.Error())
		}
		return out
	})
	l.global("strings.quote", "strings_quote", S, ts(S), str(func(s string) Value { return quote(s) }))
	l.member("join", "list_join", S, ts(ListType(S)), func(v Value) Value { return joinList(v.(List), "") })
	l.member("join", "list_join_string", S, ts(ListType(S), S), func(v, sep Value) Value { return joinList(v.(List), sep.(string)) })
}

func stringList(ss []string) Value {
	out := make(listOf, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func joinList(l List, sep string) Value {
	var b strings.Builder
	for i := 0; i < l.Len(); i++ {
		if i > 0 {
			b.WriteString(sep)
		}
		s, ok := l.At(i).(string)
		if !ok {
			return errorf("join: invalid input: %s", formatValue(l.At(i)))
		}
		b.WriteString(s)
	}
	return b.String()
}

func mapASCII(s string, f func(rune) rune) string {
	r := []rune(s)
	for i, c := range r {
		if c <= unicode.MaxASCII {
			r[i] = f(c)
		}
	}
	return string(r)
}

func indexOfOffset(s, sub string, off int64) Value {
	if sub == "" {
		return off
	}
	r, sr := []rune(s), []rune(sub)
	if off < 0 {
		return errorf("index out of range: %d", off)
	}
	if off >= int64(len(r)) {
		return int64(-1)
	}
	for i := int(off); i < len(r)-(len(sr)-1); i++ {
		if runesAt(r, sr, i) {
			return int64(i)
		}
	}
	return int64(-1)
}

func lastIndexOfOffset(s, sub string, off int64) Value {
	if sub == "" {
		return off
	}
	r, sr := []rune(s), []rune(sub)
	if off < 0 {
		return errorf("index out of range: %d", off)
	}
	if off >= int64(len(r)) {
		return int64(-1)
	}
	o := int(off)
	if o > len(r)-len(sr) {
		o = len(r) - len(sr)
	}
	for i := o; i >= 0; i-- {
		if runesAt(r, sr, i) {
			return int64(i)
		}
	}
	return int64(-1)
}

func runesAt(r, sub []rune, i int) bool {
	for j := range sub {
		if r[i+j] != sub[j] {
			return false
		}
	}
	return true
}

// quote is strings.quote: a double-quoted CEL string literal of s.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range s {
		switch c {
		case '\a':
			b.WriteString(`\a`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\v':
			b.WriteString(`\v`)
		case '\\':
			b.WriteString(`\\`)
		case '"':
			b.WriteString(`\"`)
		default:
			b.WriteRune(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
