package typed

import (
	fp "github.com/informer-lab/informer-lab/apiserver/internal/fieldpath"
)

// Comparison mirrors typed.Comparison: the fields an update removed, modified and added.
type Comparison struct {
	Removed  *fp.Set
	Modified *fp.Set
	Added    *fp.Set
}

// IsSame mirrors Comparison.IsSame.
func (c *Comparison) IsSame() bool {
	return c.Removed.Empty() && c.Modified.Empty() && c.Added.Empty()
}

// ExcludeFields mirrors Comparison.ExcludeFields: fields (and all below them) are dropped.
func (c *Comparison) ExcludeFields(fields *fp.Set) *Comparison {
	if fields == nil || fields.Empty() {
		return c
	}
	c.Removed = c.Removed.RecursiveDifference(fields)
	c.Modified = c.Modified.RecursiveDifference(fields)
	c.Added = c.Added.RecursiveDifference(fields)
	return c
}

// Compare mirrors TypedValue.Compare: walking old (lhs) and new (rhs) together, a leaf
// present on one side only is removed or added, a leaf on both sides that differs is
// modified; items of sets and map-lists are matched by key.
func Compare(lhs, rhs any, a *Atom) (*Comparison, error) {
	c := &Comparison{Removed: fp.NewSet(), Modified: fp.NewSet(), Added: fp.NewSet()}
	w := &comparer{c: c}
	if errs := w.compare(lhs, true, rhs, true, a, make(fp.Path, 0, 16)); len(errs) > 0 {
		return nil, errs
	}
	return c, nil
}

type comparer struct {
	c *Comparison
}

// compare mirrors compareWalker.compare. inLeaf reports back whether the node was a leaf.
func (w *comparer) compare(l any, lhas bool, r any, rhas bool, a *Atom, path fp.Path) ValidationErrors {
	al := deduce(a, l, lhas)
	ar := deduce(a, r, rhas)
	var errs ValidationErrors
	leaf := false
	switch {
	case !rhas:
		errs, leaf = w.handle(al, l, lhas, r, rhas, path)
	case !lhas || equalAtoms(al, ar):
		errs, leaf = w.handle(ar, l, lhas, r, rhas, path)
	default:
		e1, _ := w.handle(al, l, lhas, r, rhas, path)
		e2, l2 := w.handle(ar, l, lhas, r, rhas, path)
		errs, leaf = append(e1, e2...), l2
	}
	if !leaf {
		if !lhas {
			w.c.Added.Insert(path)
		} else if !rhas {
			w.c.Removed.Insert(path)
		}
	}
	return errs
}

func (w *comparer) handle(at Atom, l any, lhas bool, r any, rhas bool, path fp.Path) (ValidationErrors, bool) {
	switch {
	case at.Map != nil:
		return w.doMap(at.Map, l, lhas, r, rhas, path)
	case at.Scalar != NoScalar:
		le := validateScalar(at.Scalar, l, lhas, "lhs: ")
		re := validateScalar(at.Scalar, r, rhas, "rhs: ")
		if len(le) > 0 && len(re) > 0 {
			return append(le, re...), false
		}
		w.leaf(l, lhas, r, rhas, path)
		return nil, true
	case at.List != nil:
		return w.doList(at.List, l, lhas, r, rhas, path)
	}
	return errorf("schema error: invalid atom: inlined"), false
}

func (w *comparer) leaf(l any, lhas bool, r any, rhas bool, path fp.Path) {
	switch {
	case !lhas:
		w.c.Added.Insert(path)
	case !rhas:
		w.c.Removed.Insert(path)
	case !fp.EqualValues(r, l):
		w.c.Modified.Insert(path)
	}
}

func (w *comparer) doMap(t *Map, l any, lhas bool, r any, rhas bool, path fp.Path) (ValidationErrors, bool) {
	lm, _ := l.(map[string]any)
	rm, _ := r.(map[string]any)
	if t.Rel == Atomic || (len(lm) == 0 && len(rm) == 0) {
		w.leaf(l, lhas, r, rhas, path)
		return nil, true
	}
	var errs ValidationErrors
	for k, lv := range lm {
		rv, ok := rm[k]
		errs = append(errs, w.item(t, k, lv, true, rv, ok, path)...)
	}
	for k, rv := range rm {
		if _, ok := lm[k]; !ok {
			errs = append(errs, w.item(t, k, nil, false, rv, true, path)...)
		}
	}
	return errs, false
}

func (w *comparer) item(t *Map, k string, l any, lhas bool, r any, rhas bool, path fp.Path) ValidationErrors {
	ft, _ := t.Field(k)
	if ft == nil {
		ft = noType
	}
	return w.compare(l, lhas, r, rhas, ft, append(path, fp.Field(k))).withPrefix(func() string { return "." + k })
}

// noType stands for an empty type reference (a member a struct does not declare): resolving
// it fails upstream, and so do the walks here.
var noType = &Atom{}

func (w *comparer) doList(t *List, l any, lhas bool, r any, rhas bool, path fp.Path) (ValidationErrors, bool) {
	ll, _ := l.([]any)
	rl, _ := r.([]any)
	if t.Rel == Atomic || (len(ll) == 0 && len(rl) == 0) {
		w.leaf(l, lhas, r, rhas, path)
		return nil, true
	}
	var errs ValidationErrors
	type group struct {
		pe   fp.PathElement
		l, r []any
	}
	var groups []*group
	index := map[string]*group{}
	find := func(pe fp.PathElement) *group {
		k := elementKey(pe)
		return index[k]
	}
	for i, item := range ll {
		pe, err := itemElement(t, item)
		if err != nil {
			errs = append(errs, errorf("element %v: %v", i, err.Error())...)
			continue
		}
		if g := find(pe); g != nil {
			g.l = append(g.l, item)
		} else {
			g := &group{pe: pe, l: []any{item}}
			groups = append(groups, g)
			index[elementKey(pe)] = g
		}
	}
	for i, item := range rl {
		pe, err := itemElement(t, item)
		if err != nil {
			errs = append(errs, errorf("element %v: %v", i, err.Error())...)
			continue
		}
		if g := find(pe); g != nil {
			g.r = append(g.r, item)
		} else {
			g := &group{pe: pe, r: []any{item}}
			groups = append(groups, g)
			index[elementKey(pe)] = g
		}
	}
	for _, g := range groups {
		p := append(path, g.pe)
		switch {
		case len(g.l) <= 1 && len(g.r) <= 1:
			var lv, rv any
			if len(g.l) == 1 {
				lv = g.l[0]
			}
			if len(g.r) == 1 {
				rv = g.r[0]
			}
			errs = append(errs, w.compare(lv, len(g.l) == 1, rv, len(g.r) == 1, t.Elem, p).withPrefix(g.pe.String)...)
		case len(g.l) >= 2 && len(g.r) >= 2:
			if !equalLists(g.l, g.r) {
				w.c.Modified.Insert(p)
			}
		case len(g.l) >= 2:
			if len(g.r) != 0 {
				errs = append(errs, w.compare(nil, false, g.r[0], true, t.Elem, p).withPrefix(g.pe.String)...)
			}
			w.c.Removed.Insert(p)
		default:
			if len(g.l) != 0 {
				errs = append(errs, w.compare(g.l[0], true, nil, false, t.Elem, p).withPrefix(g.pe.String)...)
			}
			w.c.Added.Insert(p)
		}
	}
	return errs, false
}

func equalLists(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !fp.EqualValues(a[i], b[i]) {
			return false
		}
	}
	return true
}
