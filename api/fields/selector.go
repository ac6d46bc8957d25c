package fields

import (
	"fmt"
	"slices"
	"strings"

	"github.com/informer-lab/informer-lab/api/labels"
)

// Selector mirrors fields.Selector in k8s.io/apimachinery/pkg/fields, without
// DeepCopySelector: our selectors are immutable, so sharing one is safe.
type Selector interface {
	// Matches reports whether the fields satisfy every term.
	Matches(Fields) bool
	// Empty reports whether the selector has no terms and so matches everything.
	Empty() bool
	// RequiresExactMatch returns the value a field=value term demands of field, if any. The
	// server uses it to turn "metadata.name=x" into a direct lookup.
	RequiresExactMatch(field string) (value string, found bool)
	// Transform returns a copy with every term's field and value rewritten by fn; a term that
	// fn maps to an empty field and value is dropped.
	Transform(fn TransformFunc) (Selector, error)
	// Requirements returns the terms, in String order.
	Requirements() Requirements
	// String returns the text form, values escaped, which ParseSelector accepts.
	String() string
}

// TransformFunc mirrors fields.TransformFunc in k8s.io/apimachinery/pkg/fields. The server
// uses one to map legacy field names to current ones (spec.host → spec.nodeName, L19).
type TransformFunc func(field, value string) (newField, newValue string, err error)

// hasTerm is field=value (also written field==value).
type hasTerm struct{ field, value string }

func (t hasTerm) Matches(fs Fields) bool { return fs.Get(t.field) == t.value }
func (t hasTerm) Empty() bool            { return false }
func (t hasTerm) String() string         { return t.field + "=" + EscapeValue(t.value) }

func (t hasTerm) RequiresExactMatch(field string) (string, bool) {
	if t.field == field {
		return t.value, true
	}
	return "", false
}

func (t hasTerm) Transform(fn TransformFunc) (Selector, error) {
	f, v, err := fn(t.field, t.value)
	if err != nil {
		return nil, err
	}
	if f == "" && v == "" {
		return Everything(), nil
	}
	return hasTerm{f, v}, nil
}

func (t hasTerm) Requirements() Requirements {
	return Requirements{{Operator: labels.Equals, Field: t.field, Value: t.value}}
}

// notHasTerm is field!=value.
type notHasTerm struct{ field, value string }

func (t notHasTerm) Matches(fs Fields) bool                   { return fs.Get(t.field) != t.value }
func (t notHasTerm) Empty() bool                              { return false }
func (t notHasTerm) String() string                           { return t.field + "!=" + EscapeValue(t.value) }
func (t notHasTerm) RequiresExactMatch(string) (string, bool) { return "", false }

func (t notHasTerm) Transform(fn TransformFunc) (Selector, error) {
	f, v, err := fn(t.field, t.value)
	if err != nil {
		return nil, err
	}
	if f == "" && v == "" {
		return Everything(), nil
	}
	return notHasTerm{f, v}, nil
}

func (t notHasTerm) Requirements() Requirements {
	return Requirements{{Operator: labels.NotEquals, Field: t.field, Value: t.value}}
}

// andTerm holds selectors that must all match. A nil or empty andTerm is Everything.
type andTerm []Selector

// Everything mirrors fields.Everything in k8s.io/apimachinery/pkg/fields.
func Everything() Selector { return andTerm(nil) }

func (t andTerm) Matches(fs Fields) bool {
	for _, s := range t {
		if !s.Matches(fs) {
			return false
		}
	}
	return true
}

func (t andTerm) Empty() bool {
	for _, s := range t {
		if !s.Empty() {
			return false
		}
	}
	return true
}

func (t andTerm) RequiresExactMatch(field string) (string, bool) {
	for _, s := range t {
		if v, ok := s.RequiresExactMatch(field); ok {
			return v, true
		}
	}
	return "", false
}

func (t andTerm) Transform(fn TransformFunc) (Selector, error) {
	out := make(andTerm, 0, len(t))
	for _, s := range t {
		n, err := s.Transform(fn)
		if err != nil {
			return nil, err
		}
		if !n.Empty() {
			out = append(out, n)
		}
	}
	return out, nil
}

func (t andTerm) Requirements() Requirements {
	var rs Requirements
	for _, s := range t {
		rs = append(rs, s.Requirements()...)
	}
	return rs
}

func (t andTerm) String() string {
	parts := make([]string, 0, len(t))
	for _, s := range t {
		// Skip members that print as nothing (Everything), so AndSelectors(a, Everything())
		// prints "a" and not "a,".
		if str := s.String(); str != "" {
			parts = append(parts, str)
		}
	}
	return strings.Join(parts, ",")
}

// nothingSelector matches no fields at all.
type nothingSelector struct{}

// Nothing mirrors fields.Nothing in k8s.io/apimachinery/pkg/fields. It prints as "" like
// Everything but, unlike it, is not Empty.
func Nothing() Selector { return nothingSelector{} }

func (nothingSelector) Matches(Fields) bool                         { return false }
func (nothingSelector) Empty() bool                                 { return false }
func (nothingSelector) String() string                              { return "" }
func (nothingSelector) Requirements() Requirements                  { return nil }
func (nothingSelector) RequiresExactMatch(string) (string, bool)    { return "", false }
func (n nothingSelector) Transform(TransformFunc) (Selector, error) { return n, nil }

// OneTermEqualSelector mirrors fields.OneTermEqualSelector in k8s.io/apimachinery/pkg/fields.
func OneTermEqualSelector(field, value string) Selector { return hasTerm{field, value} }

// OneTermNotEqualSelector mirrors fields.OneTermNotEqualSelector in
// k8s.io/apimachinery/pkg/fields.
func OneTermNotEqualSelector(field, value string) Selector { return notHasTerm{field, value} }

// AndSelectors mirrors fields.AndSelectors in k8s.io/apimachinery/pkg/fields: all of them
// must match. String keeps the order given.
func AndSelectors(selectors ...Selector) Selector { return andTerm(slices.Clone(selectors)) }

// SelectorFromSet mirrors fields.SelectorFromSet in k8s.io/apimachinery/pkg/fields. Upstream's
// term order follows map iteration; ours is sorted by the printed term, so String is stable.
func SelectorFromSet(fs Set) Selector {
	terms := make([]Selector, 0, len(fs))
	for f, v := range fs {
		terms = append(terms, hasTerm{f, v})
	}
	return joinSorted(terms)
}

// joinSorted sorts terms by their printed form and wraps them: none is Everything, one is
// itself. Sorting by the printed form, not the input text, is what makes String canonical:
// "a==x" and "a=x" print alike and must sort alike.
func joinSorted(terms []Selector) Selector {
	switch len(terms) {
	case 0:
		return Everything()
	case 1:
		return terms[0]
	}
	type keyed struct {
		text string
		sel  Selector
	}
	ks := make([]keyed, len(terms))
	for i, t := range terms {
		ks[i] = keyed{t.String(), t} // print each term once, not once per comparison
	}
	slices.SortStableFunc(ks, func(a, b keyed) int { return strings.Compare(a.text, b.text) })
	out := make(andTerm, len(ks))
	for i, k := range ks {
		out[i] = k.sel
	}
	return out
}

// ParseSelectorOrDie mirrors fields.ParseSelectorOrDie in k8s.io/apimachinery/pkg/fields. It
// panics on a bad selector, so use it only in tests and for constant selectors written in
// code, never on input.
func ParseSelectorOrDie(s string) Selector {
	sel, err := ParseSelector(s)
	if err != nil {
		panic(err)
	}
	return sel
}

// ParseSelector mirrors fields.ParseSelector in k8s.io/apimachinery/pkg/fields. It turns the
// text of a ?fieldSelector= into a Selector; see the package documentation for the grammar.
func ParseSelector(selector string) (Selector, error) {
	parts := splitTerms(selector)
	// Upstream checks the terms in sorted order; we do too, so that of several bad terms we
	// report the same one as the real server.
	slices.Sort(parts)
	terms := make([]Selector, 0, len(parts))
	for _, part := range parts {
		if part == "" {
			continue // "a=b,,c=d" and "," are fine
		}
		field, op, raw, ok := splitTerm(part)
		if !ok {
			return nil, fmt.Errorf("invalid selector: '%s'; can't understand '%s'", selector, part)
		}
		value, err := UnescapeValue(raw)
		if err != nil {
			return nil, err
		}
		if field == "" && value == "" {
			continue // upstream's parse ends with a Transform that drops such terms
		}
		if op == "!=" {
			terms = append(terms, notHasTerm{field, value})
		} else {
			terms = append(terms, hasTerm{field, value})
		}
	}
	return joinSorted(terms), nil
}

// splitTerms cuts a selector at every comma that is not escaped by a backslash. The pieces
// keep their escapes; UnescapeValue removes them later.
func splitTerms(s string) []string {
	if s == "" {
		return nil
	}
	var parts []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++ // whatever follows is escaped, a comma included
		case ',':
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

// splitTerm cuts a term at its first operator. At each position "!=" and "==" are tried
// before "=", so "a==b" is field a, value b, and "a!=b" is not field "a!".
func splitTerm(term string) (field, op, value string, ok bool) {
	for i := 0; i < len(term); i++ {
		switch {
		case strings.HasPrefix(term[i:], "!="):
			op = "!="
		case strings.HasPrefix(term[i:], "=="):
			op = "=="
		case term[i] == '=':
			op = "="
		default:
			continue
		}
		return term[:i], op, term[i+len(op):], true
	}
	return "", "", "", false
}
