package typed

import (
	"strconv"
	"strings"

	fp "github.com/informer-lab/informer-lab/apiserver/internal/fieldpath"
)

// elementKey is a string that equal path elements share (numbers by value, whatever their
// Go type), for indexing list items by key in a Go map.
func elementKey(pe fp.PathElement) string {
	if pe.Kind == fp.KeyKind && len(pe.Key) == 1 {
		if s, ok := pe.Key[0].Value.(string); ok { // the common map-list: one string key
			return "K" + pe.Key[0].Name + "\x00" + s
		}
	}
	if pe.Kind == fp.ValueKind {
		if s, ok := pe.Value.(string); ok {
			return "V\x00" + s
		}
	}
	var b strings.Builder
	switch pe.Kind {
	case fp.KeyKind:
		b.WriteByte('k')
		for _, f := range pe.Key {
			b.WriteString(strconv.Quote(f.Name))
			b.WriteByte('=')
			writeValueKey(&b, f.Value)
			b.WriteByte(',')
		}
	case fp.ValueKind:
		b.WriteByte('v')
		writeValueKey(&b, pe.Value)
	case fp.IndexKind:
		b.WriteByte('i')
		b.WriteString(strconv.Itoa(pe.Index))
	default:
		b.WriteByte('f')
		b.WriteString(pe.Name)
	}
	return b.String()
}

func writeValueKey(b *strings.Builder, v any) {
	switch t := v.(type) {
	case nil:
		b.WriteString("null")
	case string:
		b.WriteString(strconv.Quote(t))
	case bool:
		b.WriteString(strconv.FormatBool(t))
	case int64:
		b.WriteString("n")
		b.WriteString(strconv.FormatFloat(float64(t), 'g', -1, 64))
	case int:
		b.WriteString("n")
		b.WriteString(strconv.FormatFloat(float64(t), 'g', -1, 64))
	case int32:
		b.WriteString("n")
		b.WriteString(strconv.FormatFloat(float64(t), 'g', -1, 64))
	case float64:
		b.WriteString("n")
		b.WriteString(strconv.FormatFloat(t, 'g', -1, 64))
	case float32:
		b.WriteString("n")
		b.WriteString(strconv.FormatFloat(float64(t), 'g', -1, 64))
	case []any:
		b.WriteByte('[')
		for _, e := range t {
			writeValueKey(b, e)
			b.WriteByte(',')
		}
		b.WriteByte(']')
	case map[string]any:
		// Maps never key a set item (an error upstream) but may appear inside a key value.
		b.WriteByte('{')
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sortStrings(keys)
		for _, k := range keys {
			b.WriteString(strconv.Quote(k))
			b.WriteByte(':')
			writeValueKey(b, t[k])
			b.WriteByte(',')
		}
		b.WriteByte('}')
	default:
		b.WriteString("?")
	}
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
