package listwatch

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file reads the subset of YAML that kubeconfig files use, so that the module needs no
// YAML dependency: block mappings and sequences (including "- key: value" items and
// sequences at their parent key's indentation, as kubectl writes them), plain, single- and
// double-quoted scalars, comments, "---", and the flow forms {} and [a, b]. Anything else
// (anchors, tags, block scalars, flow mappings with content) is a clear error. Scalars stay
// strings; the kubeconfig reader interprets them.

type yamlLine struct {
	num    int // 1-based, for errors
	indent int
	text   string
}

type yamlParser struct {
	lines []yamlLine
	i     int
}

// parseYAMLSubset returns map[string]any, []any, string or nil.
func parseYAMLSubset(data []byte) (any, error) {
	if !utf8.Valid(data) {
		return nil, fmt.Errorf("yaml: the data is not valid UTF-8")
	}
	var lines []yamlLine
	for n, raw := range strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n") {
		body := strings.TrimLeft(raw, " ")
		indent := len(raw) - len(body)
		if strings.HasPrefix(body, "\t") {
			return nil, fmt.Errorf("yaml: line %d: tabs are not allowed in indentation", n+1)
		}
		text, err := stripComment(body)
		if err != nil {
			return nil, fmt.Errorf("yaml: line %d: %w", n+1, err)
		}
		text = strings.TrimRight(text, " \t")
		if text == "" {
			continue
		}
		if indent == 0 && (text == "---" || text == "...") {
			if len(lines) > 0 && text == "---" {
				return nil, fmt.Errorf("yaml: line %d: only one document is supported", n+1)
			}
			continue
		}
		lines = append(lines, yamlLine{num: n + 1, indent: indent, text: text})
	}
	if len(lines) == 0 {
		return nil, nil
	}
	p := &yamlParser{lines: lines}
	v, err := p.block(lines[0].indent)
	if err != nil {
		return nil, err
	}
	if p.i < len(p.lines) {
		l := p.lines[p.i]
		return nil, fmt.Errorf("yaml: line %d: unexpected indentation", l.num)
	}
	return v, nil
}

// stripComment removes a "#" comment that is outside quotes and starts the line or follows
// a space.
func stripComment(s string) (string, error) {
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote == '"' && c == '\\':
			i++
		case quote != 0:
			if c == quote {
				if quote == '\'' && i+1 < len(s) && s[i+1] == '\'' {
					i++ // '' is an escaped quote
					continue
				}
				quote = 0
			}
		case c == '"' || c == '\'':
			// A quote opens a quoted scalar only at the start of a value.
			if i == 0 || s[i-1] == ' ' || s[i-1] == '[' || s[i-1] == ',' {
				quote = c
			}
		case c == '#' && (i == 0 || s[i-1] == ' '):
			return s[:i], nil
		}
	}
	return s, nil
}

func isSeqItem(text string) bool { return text == "-" || strings.HasPrefix(text, "- ") }

func (p *yamlParser) errorf(l yamlLine, format string, args ...any) error {
	return fmt.Errorf("yaml: line %d: %s", l.num, fmt.Sprintf(format, args...))
}

// block parses the node whose first line is p.lines[p.i], at the given indentation.
func (p *yamlParser) block(indent int) (any, error) {
	l := p.lines[p.i]
	if l.indent != indent {
		return nil, p.errorf(l, "unexpected indentation")
	}
	if isSeqItem(l.text) {
		return p.sequence(indent)
	}
	if _, _, ok, err := splitKey(l.text); err != nil {
		return nil, p.errorf(l, "%v", err)
	} else if !ok {
		// A lone scalar as a whole block (only valid as a document or after "key:").
		p.i++
		return p.scalar(l, l.text)
	}
	return p.mapping(indent)
}

func (p *yamlParser) mapping(indent int) (map[string]any, error) {
	out := map[string]any{}
	for p.i < len(p.lines) {
		l := p.lines[p.i]
		if l.indent < indent {
			break
		}
		if l.indent > indent {
			return nil, p.errorf(l, "unexpected indentation")
		}
		if isSeqItem(l.text) {
			return nil, p.errorf(l, "a sequence item where a mapping key was expected")
		}
		key, rest, ok, err := splitKey(l.text)
		if err != nil {
			return nil, p.errorf(l, "%v", err)
		}
		if !ok {
			return nil, p.errorf(l, "expected \"key: value\", got %q", l.text)
		}
		if _, dup := out[key]; dup {
			return nil, p.errorf(l, "duplicate key %q", key)
		}
		p.i++
		var v any
		switch {
		case rest != "":
			v, err = p.scalar(l, rest)
		case p.i < len(p.lines) && p.lines[p.i].indent > indent:
			v, err = p.block(p.lines[p.i].indent)
		case p.i < len(p.lines) && p.lines[p.i].indent == indent && isSeqItem(p.lines[p.i].text):
			v, err = p.sequence(indent) // "key:\n- item" at the key's own indentation
		}
		if err != nil {
			return nil, err
		}
		out[key] = v
	}
	return out, nil
}

func (p *yamlParser) sequence(indent int) ([]any, error) {
	out := []any{}
	for p.i < len(p.lines) {
		l := p.lines[p.i]
		if l.indent != indent || !isSeqItem(l.text) {
			if l.indent > indent {
				return nil, p.errorf(l, "unexpected indentation")
			}
			break
		}
		content := strings.TrimLeft(strings.TrimPrefix(l.text, "-"), " ")
		if content == "" {
			p.i++
			if p.i < len(p.lines) && p.lines[p.i].indent > indent {
				v, err := p.block(p.lines[p.i].indent)
				if err != nil {
					return nil, err
				}
				out = append(out, v)
			} else {
				out = append(out, nil)
			}
			continue
		}
		// "- key: value" or "- - x": the content is a block starting at its own column;
		// rewrite the line in place as if it stood alone at that indentation.
		_, _, isKey, err := splitKey(content)
		if err != nil {
			return nil, p.errorf(l, "%v", err)
		}
		if isKey || isSeqItem(content) {
			col := indent + (len(l.text) - len(content))
			p.lines[p.i] = yamlLine{num: l.num, indent: col, text: content}
			v, err := p.block(col)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
			continue
		}
		p.i++
		v, err := p.scalar(l, content)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// splitKey splits "key: rest" (or "key:"); ok is false when the text is not a mapping entry.
func splitKey(text string) (key, rest string, ok bool, err error) {
	if text[0] == '"' || text[0] == '\'' {
		k, n, err := unquote(text)
		if err != nil {
			return "", "", false, err
		}
		after := text[n:]
		if after == ":" || strings.HasPrefix(after, ": ") {
			return k, strings.TrimSpace(after[1:]), true, nil
		}
		return "", "", false, nil
	}
	if text[0] == '[' || text[0] == '{' {
		return "", "", false, nil
	}
	if i := strings.Index(text, ": "); i >= 0 {
		return strings.TrimRight(text[:i], " "), strings.TrimSpace(text[i+2:]), true, nil
	}
	if strings.HasSuffix(text, ":") {
		return strings.TrimRight(text[:len(text)-1], " "), "", true, nil
	}
	return "", "", false, nil
}

// scalar parses an inline value: a quoted or plain scalar, or a flow {} / [a, b].
func (p *yamlParser) scalar(l yamlLine, s string) (any, error) {
	switch s[0] {
	case '&', '*', '!':
		return nil, p.errorf(l, "anchors, aliases and tags are not supported")
	case '|', '>':
		return nil, p.errorf(l, "block scalars (| and >) are not supported")
	case '{':
		if strings.TrimSpace(s[1:]) == "}" {
			return map[string]any{}, nil
		}
		return nil, p.errorf(l, "flow mappings other than {} are not supported")
	case '[':
		return p.flowSequence(l, s)
	case '"', '\'':
		v, n, err := unquote(s)
		if err != nil {
			return nil, p.errorf(l, "%v", err)
		}
		if n != len(s) {
			return nil, p.errorf(l, "unexpected text after a quoted scalar: %q", s[n:])
		}
		return v, nil
	}
	switch s {
	case "~", "null", "Null", "NULL":
		return nil, nil
	}
	return s, nil
}

func (p *yamlParser) flowSequence(l yamlLine, s string) (any, error) {
	if !strings.HasSuffix(s, "]") {
		return nil, p.errorf(l, "flow sequences must end on their line with ]")
	}
	inner := strings.TrimSpace(s[1 : len(s)-1])
	out := []any{}
	for inner != "" {
		var item string
		if inner[0] == '"' || inner[0] == '\'' {
			v, n, err := unquote(inner)
			if err != nil {
				return nil, p.errorf(l, "%v", err)
			}
			item, inner = v, strings.TrimSpace(inner[n:])
		} else {
			end := strings.IndexByte(inner, ',')
			if end < 0 {
				end = len(inner)
			}
			item, inner = strings.TrimSpace(inner[:end]), inner[end:]
			if strings.ContainsAny(item, "[]{}") {
				return nil, p.errorf(l, "nested flow collections are not supported")
			}
		}
		out = append(out, item)
		if inner == "" {
			break
		}
		if inner[0] != ',' {
			return nil, p.errorf(l, "expected , in a flow sequence, got %q", inner)
		}
		inner = strings.TrimSpace(inner[1:])
	}
	return out, nil
}

// unquote reads the quoted scalar at the start of s and returns it and its length.
func unquote(s string) (string, int, error) {
	q := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		if q == '\'' {
			if c == '\'' {
				if i+1 < len(s) && s[i+1] == '\'' {
					b.WriteByte('\'')
					i++
					continue
				}
				return b.String(), i + 1, nil
			}
			b.WriteByte(c)
			continue
		}
		switch c {
		case '"':
			return b.String(), i + 1, nil
		case '\\':
			if i+1 >= len(s) {
				return "", 0, fmt.Errorf("unterminated escape in %s", s)
			}
			i++
			switch e := s[i]; e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case '0':
				b.WriteByte(0)
			case '"', '\\', '/', ' ':
				b.WriteByte(e)
			case 'x', 'u', 'U':
				width := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
				if i+width >= len(s) {
					return "", 0, fmt.Errorf("short \\%c escape in %s", e, s)
				}
				r, err := strconv.ParseUint(s[i+1:i+1+width], 16, 32)
				if err != nil {
					return "", 0, fmt.Errorf("bad \\%c escape in %s", e, s)
				}
				b.WriteRune(rune(r))
				i += width
			default:
				return "", 0, fmt.Errorf("unsupported escape \\%c", e)
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, fmt.Errorf("unterminated quoted scalar %s", s)
}
