package clientcmd

import (
	"bytes"
	"strings"

	"gopkg.in/yaml.v3"
)

// sourceLines answers, from the text, the two questions yaml.v3's nodes leave open: was a
// mapping key written as an explicit key ("? key"), and does a node carry the non-specific
// tag "!" (which makes a plain scalar a string, as !!str does, in kubectl's parser)? Nodes
// give their line and column (in characters, counting line breaks as the library does); the
// lines are split only when a "?" or a "!" is in the text at all.
type sourceLines struct {
	data                []byte
	hasQuestion, hasTag bool
	lines               [][]rune // split on first use
}

func newSourceLines(data []byte) sourceLines {
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	return sourceLines{data: data, hasQuestion: bytes.IndexByte(data, '?') >= 0, hasTag: bytes.IndexByte(data, '!') >= 0}
}

// line returns the 1-based line n, or nil past the end. Line breaks are what the library
// counts: \r\n, \r, \n, NEL, LS and PS.
func (s *sourceLines) line(n int) []rune {
	if s.lines == nil {
		var cur []rune
		rs := []rune(string(s.data))
		for i := 0; i < len(rs); i++ {
			switch r := rs[i]; r {
			case '\r', '\n', '\u0085', '\u2028', '\u2029':
				if r == '\r' && i+1 < len(rs) && rs[i+1] == '\n' {
					i++
				}
				s.lines, cur = append(s.lines, cur), nil
			default:
				cur = append(cur, r)
			}
		}
		s.lines = append(s.lines, cur)
	}
	if n < 1 || n > len(s.lines) {
		return nil
	}
	return s.lines[n-1]
}

// explicitKey reports whether the key node k follows a "?" indicator on its line.
func (s *sourceLines) explicitKey(k *yaml.Node) bool {
	if !s.hasQuestion {
		return false
	}
	l := s.line(k.Line)
	if k.Column < 1 || k.Column-1 > len(l) {
		return false
	}
	before := strings.TrimRight(string(l[:k.Column-1]), " \t")
	rest, ok := strings.CutSuffix(before, "?")
	return ok && (rest == "" || strings.ContainsAny(rest[len(rest)-1:], " \t{[,"))
}

// nonSpecificTag reports whether the scalar n is written with the tag "!" among its
// properties. (A collection's position may be that of its first key's properties, so only a
// scalar's can be read this way.)
func (s *sourceLines) nonSpecificTag(n *yaml.Node) bool {
	if !s.hasTag || n.Kind != yaml.ScalarNode {
		return false
	}
	l := s.line(n.Line)
	if n.Column < 1 || n.Column-1 >= len(l) {
		return false
	}
	l = l[n.Column-1:]
	for len(l) > 0 && (l[0] == '&' || l[0] == '!') {
		end := 1
		for end < len(l) && !strings.ContainsRune(" \t,[]{}", l[end]) {
			end++
		}
		if l[0] == '!' && end == 1 {
			return true
		}
		for end < len(l) && (l[end] == ' ' || l[end] == '\t') {
			end++
		}
		l = l[end:]
	}
	return false
}

// controlLine returns the line of the first character a YAML stream may not hold (the
// library's reader allows tab, line breaks, printable ASCII, NEL and the rest of Unicode but
// surrogates, U+FFFE and U+FFFF), or 0.
func (s *sourceLines) controlLine() int {
	s.line(1)
	for i, l := range s.lines {
		for _, r := range l {
			switch {
			case r == '\t', r >= 0x20 && r <= 0x7E, r == 0x85, r >= 0xA0 && r <= 0xD7FF,
				r >= 0xE000 && r <= 0xFFFD, r >= 0x10000 && r <= 0x10FFFF:
			default:
				return i + 1
			}
		}
	}
	return 0
}

// aliasLine returns the line of the first alias *name in the text, or 0.
func (s *sourceLines) aliasLine(name string) int {
	s.line(1)
	for i, l := range s.lines {
		text := string(l)
		for at := 0; ; {
			j := strings.Index(text[at:], "*"+name)
			if j < 0 {
				break
			}
			end := at + j + 1 + len(name)
			if end == len(text) || strings.ContainsAny(text[end:end+1], " \t,[]{}") {
				return i + 1
			}
			at = end
		}
	}
	return 0
}
