package typed

// Merge mirrors TypedValue.Merge: rhs (an applied configuration) over lhs (the live
// object). Leaves and atomic lists and maps take rhs's value; granular maps merge member by
// member; sets and map-lists merge item by item, in an order that keeps rhs's order for
// its items and places lhs-only items where they were relative to shared ones.
func Merge(lhs, rhs any, a *Atom) (any, error) {
	out, has, errs := merge(lhs, true, rhs, true, a)
	if len(errs) > 0 {
		return nil, errs
	}
	if !has {
		return nil, nil
	}
	return out, nil
}

// merge returns the merged value and whether there is one.
func merge(l any, lhas bool, r any, rhas bool, a *Atom) (any, bool, ValidationErrors) {
	al := deduce(a, l, lhas)
	ar := deduce(a, r, rhas)
	if !rhas {
		return handleMerge(al, l, lhas, r, rhas)
	}
	if !lhas || equalAtoms(al, ar) {
		return handleMerge(ar, l, lhas, r, rhas)
	}
	_, _, e1 := handleMerge(al, l, lhas, r, rhas)
	out, has, e2 := handleMerge(ar, l, lhas, r, rhas)
	return out, has, append(e1, e2...)
}

func keepRHS(l any, lhas bool, r any, rhas bool) (any, bool) {
	if rhas {
		return r, true
	}
	return l, lhas
}

func handleMerge(at Atom, l any, lhas bool, r any, rhas bool) (any, bool, ValidationErrors) {
	switch {
	case at.Map != nil:
		return mergeMap(at.Map, l, lhas, r, rhas)
	case at.Scalar != NoScalar:
		le := validateScalar(at.Scalar, l, lhas, "lhs: ")
		re := validateScalar(at.Scalar, r, rhas, "rhs: ")
		if len(le) > 0 && len(re) > 0 {
			return nil, false, append(le, re...)
		}
		out, has := keepRHS(l, lhas, r, rhas)
		return out, has, nil
	case at.List != nil:
		return mergeList(at.List, l, lhas, r, rhas)
	}
	return nil, false, errorf("schema error: invalid atom: inlined")
}

func mergeMap(t *Map, l any, lhas bool, r any, rhas bool) (any, bool, ValidationErrors) {
	lm, _ := l.(map[string]any)
	rm, _ := r.(map[string]any)
	if t.Rel == Atomic || (len(lm) == 0 && len(rm) == 0) {
		out, has := keepRHS(l, lhas, r, rhas)
		return out, has, nil
	}
	out := make(map[string]any, max(len(lm), len(rm)))
	var errs ValidationErrors
	visit := func(k string, lv any, lok bool, rv any, rok bool) {
		ft, _ := t.Field(k)
		if ft == nil {
			ft = noType
		}
		v, has, e := merge(lv, lok, rv, rok, ft)
		errs = append(errs, e.withPrefix(func() string { return "." + k })...)
		if has {
			out[k] = v
		}
	}
	for k, lv := range lm {
		rv, ok := rm[k]
		visit(k, lv, true, rv, ok)
	}
	for k, rv := range rm {
		if _, ok := lm[k]; !ok {
			visit(k, nil, false, rv, true)
		}
	}
	if len(out) == 0 {
		return nil, false, errs
	}
	return out, true, errs
}

func mergeList(t *List, l any, lhas bool, r any, rhas bool) (any, bool, ValidationErrors) {
	ll, _ := l.([]any)
	rl, _ := r.([]any)
	if t.Rel == Atomic || (len(ll) == 0 && len(rl) == 0) {
		out, has := keepRHS(l, lhas, r, rhas)
		return out, has, nil
	}
	rPEs, rObserved, errs := indexItems(t, rl, false)
	lPEs, lObserved, lerrs := indexItems(t, ll, true)
	errs = append(errs, lerrs...)
	if len(errs) != 0 {
		return nil, false, errs
	}
	// The rhs items lhs has too, in rhs order: the next one is where lhs-only items stop
	// being copied in place.
	var sharedOrder []string
	for _, pe := range rPEs {
		if _, ok := lObserved[pe.key]; ok {
			sharedOrder = append(sharedOrder, pe.key)
		}
	}
	next := ""
	hasNext := false
	advance := func() {
		hasNext = len(sharedOrder) > 0
		if hasNext {
			next, sharedOrder = sharedOrder[0], sharedOrder[1:]
		} else {
			next = ""
		}
	}
	advance()
	out := make([]any, 0, max(len(ll), len(rl)))
	merged := make(map[string]bool, len(rPEs))
	// Item merge errors are dropped, as upstream's loop shadows them.
	mergeItem := func(key string, lval any, lok bool) {
		rv, rok := rObserved[key]
		if v, has, _ := merge(lval, lok, rv.v, rok, t.Elem); has {
			out = append(out, v)
		}
	}
	shared := func(key string) {
		lv, lok := lObserved[key]
		mergeItem(key, lv.v, lok)
	}
	for li, ri := 0, 0; li < len(lPEs) || ri < len(rPEs); {
		if li < len(lPEs) && ri < len(rPEs) {
			pe := lPEs[li]
			if pe.key == rPEs[ri].key {
				merged[pe.key] = true
				shared(pe.key)
				li++
				ri++
				advance()
				continue
			}
			if _, ok := rObserved[pe.key]; ok && hasNext && next != pe.key {
				li++
				continue
			}
		}
		if li < len(lPEs) {
			pe := lPEs[li]
			if _, ok := rObserved[pe.key]; !ok {
				if v, has, _ := merge(ll[pe.index], true, nil, false, t.Elem); has {
					out = append(out, v)
				}
				li++
				continue
			} else if merged[pe.key] {
				li++
			}
		}
		if ri < len(rPEs) {
			pe := rPEs[ri]
			merged[pe.key] = true
			shared(pe.key)
			ri++
			if hasNext && next == pe.key {
				advance()
			}
		}
	}
	if len(out) == 0 {
		return nil, false, nil
	}
	return out, true, nil
}

// observed is an item seen under a key; v is null for a key seen twice in lhs.
type observed struct{ v any }

type indexedPE struct {
	key   string
	index int
}

// indexItems mirrors indexListPathElements: each item's key, and the value observed under
// each key (null when lhs repeats it; a repeat in rhs is an error).
func indexItems(t *List, list []any, allowDuplicates bool) ([]indexedPE, map[string]observed, ValidationErrors) {
	var errs ValidationErrors
	seen := make(map[string]observed, len(list))
	pes := make([]indexedPE, 0, len(list))
	for i, item := range list {
		pe, err := itemElement(t, item)
		if err != nil {
			errs = append(errs, errorf("element %v: %v", i, err.Error())...)
			continue
		}
		k := elementKey(pe)
		if _, found := seen[k]; found && !allowDuplicates {
			errs = append(errs, errorf("duplicate entries for key %v", pe.String())...)
			continue
		} else if !found {
			seen[k] = observed{v: item}
		} else {
			seen[k] = observed{v: nil}
		}
		pes = append(pes, indexedPE{key: k, index: i})
	}
	return pes, seen, errs
}
