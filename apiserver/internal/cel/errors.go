package cel

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Errors are the issues found while parsing or checking an expression. Its Error text is
// cel-go's Issues.String(): one "ERROR: <input>:line:col: message" per issue, each with the
// source line and a caret under the column.
type Errors struct {
	src  string
	list []issue
}

type issue struct {
	offset int // byte offset in src
	msg    string
}

func newErrors(src string) *Errors { return &Errors{src: src} }

func (e *Errors) add(offset int, msg string) {
	for _, i := range e.list {
		if i.offset == offset && i.msg == msg {
			return
		}
	}
	e.list = append(e.list, issue{offset, msg})
}

// Len is the number of issues.
func (e *Errors) Len() int { return len(e.list) }

// Messages returns the bare messages, in source order.
func (e *Errors) Messages() []string {
	var out []string
	for _, i := range e.sorted() {
		out = append(out, i.msg)
	}
	return out
}

func (e *Errors) sorted() []issue {
	l := append([]issue(nil), e.list...)
	sort.SliceStable(l, func(a, b int) bool { return l[a].offset < l[b].offset })
	return l
}

// Error renders every issue the way cel-go's Error.ToDisplayString does.
func (e *Errors) Error() string {
	var parts []string
	for _, i := range e.sorted() {
		parts = append(parts, e.display(i))
	}
	return strings.Join(parts, "\n")
}

// location turns a byte offset into cel-go's 1-based line and 0-based column in code points.
func (e *Errors) location(off int) (line, col int, text string) {
	if off > len(e.src) {
		off = len(e.src)
	}
	line = 1 + strings.Count(e.src[:off], "\n")
	start := strings.LastIndexByte(e.src[:off], '\n') + 1
	end := strings.IndexByte(e.src[start:], '\n')
	if end < 0 {
		end = len(e.src) - start
	}
	return line, utf8.RuneCountInString(e.src[start:off]), e.src[start : start+end]
}

func (e *Errors) display(i issue) string {
	line, col, snippet := e.location(i.offset)
	out := fmt.Sprintf("ERROR: <input>:%d:%d: %s", line, col+1, i.msg)
	if len(snippet) > 16384 {
		return out
	}
	snippet = strings.ReplaceAll(snippet, "\t", " ")
	var ind strings.Builder
	b := snippet
	for n := 0; n < col && len(b) > 0; n++ {
		_, sz := utf8.DecodeRuneInString(b)
		b = b[sz:]
		if sz > 1 {
			ind.WriteString("\uff0e")
		} else {
			ind.WriteByte('.')
		}
	}
	if _, sz := utf8.DecodeRuneInString(b); sz > 1 {
		ind.WriteString("\uff3e")
	} else {
		ind.WriteByte('^')
	}
	return out + "\n | " + snippet + "\n | " + ind.String()
}
