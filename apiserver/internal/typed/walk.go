package typed

import (
	fp "github.com/informer-lab/informer-lab/apiserver/internal/fieldpath"
)

// Validate mirrors TypedValue.Validate (AsTyped): every member known to the schema, every
// scalar of its type, every set and map-list item keyed and, unless allowDuplicates, unique.
func Validate(v any, a *Atom, allowDuplicates bool) error {
	if errs := validate(v, a, allowDuplicates); len(errs) > 0 {
		return errs
	}
	return nil
}

func validate(v any, a *Atom, dup bool) ValidationErrors {
	at := deduce(a, v, true)
	switch {
	case at.Map != nil:
		if v == nil {
			return nil
		}
		m, ok := v.(map[string]any)
		if !ok {
			return errorf("expected map, got %v", describe(v))
		}
		var errs ValidationErrors
		for k, child := range m {
			t, known := at.Map.Field(k)
			if !known && t == nil {
				return append(errs, ValidationError{Path: "." + k, Message: "field not declared in schema"})
			}
			key := k
			errs = append(errs, validate(child, t, dup).withPrefix(func() string { return "." + key })...)
		}
		return errs
	case at.Scalar != NoScalar:
		return validateScalar(at.Scalar, v, true, "")
	case at.List != nil:
		if v == nil {
			return nil
		}
		l, ok := v.([]any)
		if !ok {
			return errorf("expected list, got %v", describe(v))
		}
		var errs ValidationErrors
		var seen map[string]bool
		for i, item := range l {
			pe := fp.Index(i)
			if at.List.Rel == Associative {
				var err error
				pe, err = itemElement(at.List, item)
				if err != nil {
					return append(errs, errorf("element %v: %v", i, err.Error())...)
				}
				if seen == nil {
					seen = make(map[string]bool, len(l))
				}
				k := elementKey(pe)
				if seen[k] && !dup {
					errs = append(errs, errorf("duplicate entries for key %v", pe.String())...)
				}
				seen[k] = true
			}
			errs = append(errs, validate(item, at.List.Elem, dup).withPrefix(pe.String)...)
		}
		return errs
	}
	return errorf("schema error: invalid atom: inlined")
}

// validateScalar mirrors validateScalar; has false (absent) and null always pass.
func validateScalar(s Scalar, v any, has bool, prefix string) ValidationErrors {
	if !has || v == nil {
		return nil
	}
	switch s {
	case Numeric:
		if !isNumber(v) {
			return errorf("%vexpected numeric (int or float), got %T", prefix, v)
		}
	case String:
		if _, ok := v.(string); !ok {
			return errorf("%vexpected string, got %v", prefix, describe(v))
		}
	case Boolean:
		if _, ok := v.(bool); !ok {
			return errorf("%vexpected boolean, got %v", prefix, describe(v))
		}
	case Untyped:
		if kindOf(v) != vScalar {
			return errorf("%vexpected any scalar, got %v", prefix, describe(v))
		}
	}
	return nil
}

func isNumber(v any) bool {
	switch v.(type) {
	case int64, float64, int, int32, float32:
		return true
	}
	return false
}

// ToFieldSet mirrors TypedValue.ToFieldSet: the set of fields v sets. Scalars, atomic lists
// and maps, null and empty-map members, and members a struct does not declare are leaves;
// set and map-list items are members themselves; a duplicated item is one member with
// nothing below it.
func ToFieldSet(v any, a *Atom) *fp.Set {
	root := &fp.Set{}
	w := fieldSetWalker{}
	w.walk(v, a, &level{set: root})
	return root.Normalize()
}

// ToFieldSetEnsured mirrors EnsureNamedFieldsAreMembers(ToFieldSet(v, a), a) in one walk: a
// struct field with anything below it is a member too.
func ToFieldSetEnsured(v any, a *Atom) *fp.Set {
	root := &fp.Set{}
	w := fieldSetWalker{ensure: true}
	w.walk(v, a, &level{set: root})
	return root.Normalize()
}

type fieldSetWalker struct {
	ensure bool
}

// level is a set level created on first use, so that walking a value that adds nothing
// leaves no empty child behind (FieldsV1 would read one back as a member).
type level struct {
	up  *level
	pe  fp.PathElement
	set *fp.Set
	// declared: pe is a field its parent's type declares (EnsureNamedFieldsAreMembers
	// makes such a field a member once it has children).
	declared bool
}

func (l *level) get() *fp.Set {
	if l.set == nil {
		parent := l.up.get()
		l.set = parent.AppendChild(l.pe)
		if l.declared {
			parent.AppendMember(l.pe)
		}
	}
	return l.set
}

// self makes the path of this level a member (nothing at the root: the empty path).
func (l *level) self() {
	if l.up != nil {
		l.up.get().AppendMember(l.pe)
	}
}

func (w *fieldSetWalker) walk(v any, a *Atom, here *level) {
	at := deduce(a, v, true)
	switch {
	case at.Map != nil:
		if at.Map.Rel == Atomic {
			here.self()
			return
		}
		m, _ := v.(map[string]any)
		for k, child := range m {
			t, known := at.Map.Field(k)
			pe := fp.Field(k)
			if t != nil {
				w.walk(child, t, &level{up: here, pe: pe, declared: w.ensure && known})
			}
			if cm, isMap := child.(map[string]any); child == nil || (isMap && len(cm) == 0) || !known {
				here.get().AppendMember(pe)
			}
		}
	case at.Scalar != NoScalar:
		here.self()
	case at.List != nil:
		if at.List.Rel == Atomic {
			here.self()
			return
		}
		l, _ := v.([]any)
		if len(l) == 0 {
			return
		}
		pes := make([]fp.PathElement, len(l))
		for i, item := range l {
			pes[i], _ = itemElement(at.List, item)
		}
		dup := duplicates(pes)
		for i, item := range l {
			if dup != nil && dup[i] {
				// A duplicated item is a member with nothing below it.
				here.get().AppendMember(pes[i])
				continue
			}
			w.walk(item, at.List.Elem, &level{up: here, pe: pes[i]})
			here.get().AppendMember(pes[i])
		}
	}
}

// duplicates marks the items whose element another item shares; nil when none does.
func duplicates(pes []fp.PathElement) []bool {
	var dup []bool
	if len(pes) <= 16 {
		for i := range pes {
			for j := i + 1; j < len(pes); j++ {
				if pes[i].Equals(pes[j]) {
					if dup == nil {
						dup = make([]bool, len(pes))
					}
					dup[i], dup[j] = true, true
				}
			}
		}
		return dup
	}
	first := make(map[string]int, len(pes))
	for i, pe := range pes {
		k := elementKey(pe)
		if j, ok := first[k]; ok {
			if dup == nil {
				dup = make([]bool, len(pes))
			}
			dup[i], dup[j] = true, true
			continue
		}
		first[k] = i
	}
	return dup
}
