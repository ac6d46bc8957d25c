package clientcmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode"
)

// marshalYAML writes v as block YAML in the style of kubectl's writer (sigs.k8s.io/yaml over
// go-yaml): v goes through encoding/json first, so the kubeconfig's JSON names and omitempty
// rules decide what is written; keys are sorted; list items sit at their key's indentation.
// A string is written plain only when it reads back as the same string in YAML 1.1 and here,
// else double-quoted.
func marshalYAML(v any) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("clientcmd: encoding kubeconfig: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var tree any
	if err := dec.Decode(&tree); err != nil {
		return nil, fmt.Errorf("clientcmd: encoding kubeconfig: %w", err)
	}
	var b bytes.Buffer
	writeYAMLBlock(&b, tree, 0)
	return b.Bytes(), nil
}

// writeYAMLBlock writes a mapping or list whose lines start at indent; any other value is
// written as a scalar line.
func writeYAMLBlock(b *bytes.Buffer, v any, indent int) {
	pad := strings.Repeat(" ", indent)
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for i, k := range keys {
			if i > 0 {
				b.WriteString(pad)
			}
			b.WriteString(yamlScalar(k) + ":")
			writeYAMLValue(b, t[k], indent, true)
		}
	case []any:
		for i, item := range t {
			if i > 0 {
				b.WriteString(pad)
			}
			b.WriteString("-")
			writeYAMLValue(b, item, indent, false)
		}
	default:
		b.WriteString(yamlScalar(t) + "\n")
	}
}

// writeYAMLValue writes what follows "key:" or "-" at indent: a scalar or empty collection
// on the same line; a mapping in a list starts on the dash's line; anything else below.
func writeYAMLValue(b *bytes.Buffer, v any, indent int, inMapping bool) {
	switch t := v.(type) {
	case map[string]any:
		if len(t) == 0 {
			b.WriteString(" {}\n")
			return
		}
		if !inMapping {
			b.WriteString(" ")
			writeYAMLBlock(b, t, indent+2)
			return
		}
		b.WriteString("\n" + strings.Repeat(" ", indent+2))
		writeYAMLBlock(b, t, indent+2)
	case []any:
		if len(t) == 0 {
			b.WriteString(" []\n")
			return
		}
		// kubectl writes a mapping's list at the key's indentation, a list in a list deeper.
		child := indent
		if !inMapping {
			child = indent + 2
		}
		b.WriteString("\n" + strings.Repeat(" ", child))
		writeYAMLBlock(b, t, child)
	default:
		b.WriteString(" " + yamlScalar(t) + "\n")
	}
}

// yamlScalar writes a JSON scalar: a number, true, false or null as is, a string plain when
// that is safe and double-quoted otherwise.
func yamlScalar(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case bool:
		if t {
			return "true"
		}
		return "false"
	case json.Number:
		return t.String()
	case string:
		if plainSafe(t) {
			return t
		}
		return doubleQuoted(t)
	}
	return fmt.Sprint(v)
}

// doubleQuoted writes s as a YAML double-quoted scalar. Besides the quote and the backslash,
// every character that is not printable, and every one YAML 1.1 takes for a line break or a
// byte order mark (NEL, LS, PS, BOM), or that a reader may drop as white space (NBSP), is
// written as an escape, so that kubectl reads back exactly s.
func doubleQuoted(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == 0x85 || r == 0xa0 || r == 0x2028 || r == 0x2029 || r == 0xfeff || !unicode.IsPrint(r):
			if r > 0xffff {
				fmt.Fprintf(&b, `\U%08X`, r)
			} else {
				fmt.Fprintf(&b, `\u%04X`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// plainSafe reports whether s can be written without quotes: only characters that never
// start a comment, a flow collection or an indicator, no ": " and no final ":", and not a
// word YAML 1.1 reads as null, a boolean or a number.
func plainSafe(s string) bool {
	if s == "" || strings.HasSuffix(s, ":") {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			strings.IndexByte("-._/:@=+", c) >= 0 && (i > 0 || c == '/' || c == '.')
		if !ok {
			return false
		}
	}
	_, isString := resolvePlain(s).(string)
	return isString
}
