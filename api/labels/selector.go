package labels

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Selector mirrors labels.Selector in k8s.io/apimachinery/pkg/labels, trimmed to what the
// informer machinery and the simulated apiserver use.
type Selector interface {
	// Matches reports whether the labels satisfy every requirement.
	Matches(Labels) bool
	// Empty reports whether the selector has no requirements and so matches everything.
	Empty() bool
	// String returns the canonical text form, which Parse accepts.
	String() string
	// Add returns a new selector with the extra requirements; the receiver is unchanged.
	Add(r ...Requirement) Selector
	// Requirements returns a copy of the requirements; selectable is false only for Nothing.
	Requirements() (requirements Requirements, selectable bool)
}

// Requirements mirrors labels.Requirements in k8s.io/apimachinery/pkg/labels: requirements
// that must all hold.
type Requirements []Requirement

// String mirrors labels.Requirements.String: the requirements joined by ", ".
func (rs Requirements) String() string {
	parts := make([]string, len(rs))
	for i := range rs {
		parts[i] = rs[i].String()
	}
	return strings.Join(parts, ", ")
}

// Requirement mirrors labels.Requirement in k8s.io/apimachinery/pkg/labels: one key, one
// operator and its values. Build it with NewRequirement so it is valid.
type Requirement struct {
	key      string
	operator Operator
	// values is kept as given; String sorts a copy so the text is canonical.
	values []string
}

// NewRequirement mirrors labels.NewRequirement in k8s.io/apimachinery/pkg/labels. It checks
// the key, the number of values the operator needs, and each value; every problem found is
// reported in one error. Unlike upstream it returns a nil requirement with the error.
func NewRequirement(key string, op Operator, vals []string) (*Requirement, error) {
	var errs []error
	if err := validateKey(key, "key"); err != nil {
		errs = append(errs, err)
	}
	switch op {
	case In, NotIn:
		if len(vals) == 0 {
			errs = append(errs, invalidValue("values", vals, "for 'in', 'notin' operators, values set can't be empty"))
		}
	case Equals, DoubleEquals, NotEquals:
		if len(vals) != 1 {
			errs = append(errs, invalidValue("values", vals, "exact-match compatibility requires one single value"))
		}
	case Exists, DoesNotExist:
		if len(vals) != 0 {
			errs = append(errs, invalidValue("values", vals, "values set must be empty for exists and does not exist"))
		}
	case GreaterThan, LessThan:
		if len(vals) != 1 {
			errs = append(errs, invalidValue("values", vals, "for 'Gt', 'Lt' operators, exactly one value is required"))
		}
		for i, v := range vals {
			if _, err := strconv.ParseInt(v, 10, 64); err != nil {
				errs = append(errs, invalidValue(indexPath(i), v, "for 'Gt', 'Lt' operators, the value must be an integer"))
			}
		}
	default:
		errs = append(errs, unsupportedOperator(op))
	}
	for i, v := range vals {
		if err := validateValue(v, indexPath(i)+"["+key+"]"); err != nil {
			errs = append(errs, err)
		}
	}
	if err := joinErrors(errs); err != nil {
		return nil, err
	}
	return &Requirement{key: key, operator: op, values: slices.Clone(vals)}, nil
}

func indexPath(i int) string { return "values[" + strconv.Itoa(i) + "]" }

// Key mirrors labels.Requirement.Key.
func (r *Requirement) Key() string { return r.key }

// Operator mirrors labels.Requirement.Operator.
func (r *Requirement) Operator() Operator { return r.operator }

// Values mirrors labels.Requirement.Values, which upstream returns as a set; here it is a
// sorted, deduplicated copy.
func (r *Requirement) Values() []string { return sortedSet(r.values) }

func (r *Requirement) hasValue(v string) bool { return slices.Contains(r.values, v) }

// Matches mirrors labels.Requirement.Matches in k8s.io/apimachinery/pkg/labels.
func (r *Requirement) Matches(ls Labels) bool {
	switch r.operator {
	case Equals, DoubleEquals, In:
		return ls.Has(r.key) && r.hasValue(ls.Get(r.key))
	case NotEquals, NotIn:
		// An object without the key is "not equal": that is what makes env!=prod also select
		// objects that carry no env label at all.
		return !ls.Has(r.key) || !r.hasValue(ls.Get(r.key))
	case Exists:
		return ls.Has(r.key)
	case DoesNotExist:
		return !ls.Has(r.key)
	case GreaterThan, LessThan:
		if !ls.Has(r.key) || len(r.values) != 1 {
			return false
		}
		have, err := strconv.ParseInt(ls.Get(r.key), 10, 64)
		if err != nil {
			return false // a non-numeric label is neither greater nor less
		}
		want, err := strconv.ParseInt(r.values[0], 10, 64)
		if err != nil {
			return false
		}
		if r.operator == GreaterThan {
			return have > want
		}
		return have < want
	}
	return false
}

// String mirrors labels.Requirement.String: the text Parse reads back, with set values sorted.
func (r *Requirement) String() string {
	var b strings.Builder
	if r.operator == DoesNotExist {
		b.WriteByte('!')
	}
	b.WriteString(r.key)
	switch r.operator {
	case Exists, DoesNotExist:
		return b.String()
	case In, NotIn:
		b.WriteString(" " + string(r.operator) + " (")
		b.WriteString(strings.Join(sortedSet(r.values), ","))
		b.WriteByte(')')
		return b.String()
	case GreaterThan:
		b.WriteByte('>')
	case LessThan:
		b.WriteByte('<')
	default:
		b.WriteString(string(r.operator))
	}
	if len(r.values) > 0 {
		b.WriteString(r.values[0])
	}
	return b.String()
}

// sortedSet returns a sorted copy of vs without duplicates.
func sortedSet(vs []string) []string {
	out := slices.Clone(vs)
	slices.Sort(out)
	return slices.Compact(out)
}

// internalSelector is a list of requirements kept sorted by key. It mirrors upstream's type
// of the same name. A nil or empty list is Everything.
type internalSelector []Requirement

// Everything mirrors labels.Everything in k8s.io/apimachinery/pkg/labels.
func Everything() Selector { return internalSelector(nil) }

func (s internalSelector) Matches(ls Labels) bool {
	for i := range s {
		if !s[i].Matches(ls) {
			return false
		}
	}
	return true
}

func (s internalSelector) Empty() bool { return len(s) == 0 }

func (s internalSelector) String() string {
	parts := make([]string, len(s))
	for i := range s {
		parts[i] = s[i].String()
	}
	return strings.Join(parts, ",")
}

func (s internalSelector) Add(reqs ...Requirement) Selector {
	out := make(internalSelector, 0, len(s)+len(reqs))
	out = append(append(out, s...), reqs...)
	sortByKey(out)
	return out
}

func (s internalSelector) Requirements() (Requirements, bool) {
	return Requirements(slices.Clone(s)), true
}

// sortByKey orders requirements by key. The sort is stable (upstream's is not) so that two
// requirements on one key keep their order and String stays canonical.
func sortByKey(rs []Requirement) {
	slices.SortStableFunc(rs, func(a, b Requirement) int { return strings.Compare(a.key, b.key) })
}

// nothingSelector matches no labels at all.
type nothingSelector struct{}

// Nothing mirrors labels.Nothing in k8s.io/apimachinery/pkg/labels. It prints as "" like
// Everything; tell them apart with MatchesNothing or Empty.
func Nothing() Selector { return nothingSelector{} }

// MatchesNothing mirrors labels.MatchesNothing in k8s.io/apimachinery/pkg/labels.
func MatchesNothing(s Selector) bool {
	_, ok := s.(nothingSelector)
	return ok
}

func (nothingSelector) Matches(Labels) bool                { return false }
func (nothingSelector) Empty() bool                        { return false }
func (nothingSelector) String() string                     { return "" }
func (n nothingSelector) Add(...Requirement) Selector      { return n }
func (nothingSelector) Requirements() (Requirements, bool) { return nil, false }

// SelectorFromSet mirrors labels.SelectorFromSet in k8s.io/apimachinery/pkg/labels: one
// equality requirement per entry. Like upstream it does not validate the set, because sets
// come from code, not from users; use ValidatedSelectorFromSet for untrusted input.
func SelectorFromSet(ls Set) Selector {
	if len(ls) == 0 {
		return Everything()
	}
	s := make(internalSelector, 0, len(ls))
	for k, v := range ls {
		s = append(s, Requirement{key: k, operator: Equals, values: []string{v}})
	}
	sortByKey(s)
	return s
}

// ValidatedSelectorFromSet mirrors labels.ValidatedSelectorFromSet in
// k8s.io/apimachinery/pkg/labels: like SelectorFromSet, but every key and value is checked.
func ValidatedSelectorFromSet(ls Set) (Selector, error) {
	if len(ls) == 0 {
		return Everything(), nil
	}
	// Visit keys in order so that, of several bad entries, the same one is always reported.
	keys := slices.Sorted(maps.Keys(ls))
	s := make(internalSelector, 0, len(ls))
	for _, k := range keys {
		r, err := NewRequirement(k, Equals, []string{ls[k]})
		if err != nil {
			return nil, err
		}
		s = append(s, *r)
	}
	return s, nil
}
