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
		var seen *fp.Set
		for i, item := range l {
			pe := fp.Index(i)
			if at.List.Rel == Associative {
				var err error
				pe, err = itemElement(at.List, item)
				if err != nil {
					return append(errs, errorf("element %v: %v", i, err.Error())...)
				}
				if seen == nil {
					seen = fp.NewSet()
				}
				p := fp.Path{pe}
				if seen.Has(p) && !dup {
					errs = append(errs, errorf("duplicate entries for key %v", pe.String())...)
				}
				seen.Insert(p)
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
	s := fp.NewSet()
	toFieldSet(v, a, make(fp.Path, 0, 16), s)
	return s
}

func toFieldSet(v any, a *Atom, path fp.Path, s *fp.Set) {
	at := deduce(a, v, true)
	switch {
	case at.Map != nil:
		if at.Map.Rel == Atomic {
			s.Insert(path)
			return
		}
		m, _ := v.(map[string]any)
		for k, child := range m {
			t, known := at.Map.Field(k)
			p := append(path, fp.Field(k))
			if t != nil {
				toFieldSet(child, t, p, s)
			}
			if cm, isMap := child.(map[string]any); child == nil || (isMap && len(cm) == 0) || !known {
				s.Insert(p)
			}
		}
	case at.Scalar != NoScalar:
		s.Insert(path)
	case at.List != nil:
		if at.List.Rel == Atomic {
			s.Insert(path)
			return
		}
		l, _ := v.([]any)
		if len(l) == 0 {
			return
		}
		var seen, dups *fp.Set
		pes := make([]fp.PathElement, len(l))
		for i, item := range l {
			pes[i], _ = itemElement(at.List, item)
			one := fp.Path{pes[i]}
			if seen == nil {
				seen, dups = fp.NewSet(), fp.NewSet()
			}
			if seen.Has(one) {
				if !dups.Has(one) {
					s.Insert(append(path, pes[i]))
					dups.Insert(one)
				}
			} else {
				seen.Insert(one)
			}
		}
		for i, item := range l {
			if dups.Has(fp.Path{pes[i]}) {
				continue
			}
			p := append(path, pes[i])
			toFieldSet(item, at.List.Elem, p, s)
			s.Insert(p)
		}
	}
}
