package typed

import (
	fp "github.com/informer-lab/informer-lab/apiserver/internal/fieldpath"
)

// RemoveItems mirrors TypedValue.RemoveItems: v without the fields of set. A map or list
// left with nothing becomes null, as upstream leaves it.
func RemoveItems(v any, a *Atom, set *fp.Set) any {
	return removeItems(v, a, set, false)
}

// ExtractItems mirrors TypedValue.ExtractItems: only the fields of set (with everything
// below a member that is a whole atomic value or a set item).
func ExtractItems(v any, a *Atom, set *fp.Set) any {
	return removeItems(v, a, set, true)
}

func removeItems(v any, a *Atom, set *fp.Set, extract bool) any {
	at := deduce(a, v, true)
	switch {
	case at.Map != nil:
		return removeFromMap(at.Map, v, set, extract)
	case at.Scalar != NoScalar:
		return v
	case at.List != nil:
		return removeFromList(at.List, v, set, extract)
	}
	return nil
}

func removeFromList(t *List, v any, set *fp.Set, extract bool) any {
	l, ok := v.([]any)
	if !ok {
		return nil
	}
	if len(l) == 0 || t.Rel == Atomic {
		if extract {
			return v
		}
		return nil
	}
	var items []any
	for _, item := range l {
		pe, _ := itemElement(t, item)
		exact := set.HasMember(pe)
		sub, prefix := set.Child(pe)
		prefix = prefix && !sub.Empty()
		if extract {
			if prefix {
				item = removeItems(item, t.Elem, sub, true)
			}
			if exact || prefix {
				items = append(items, item)
			}
			continue
		}
		if exact {
			continue
		}
		if prefix {
			item = removeItems(item, t.Elem, sub, false)
		}
		items = append(items, item)
	}
	if len(items) == 0 {
		return nil
	}
	return items
}

func removeFromMap(t *Map, v any, set *fp.Set, extract bool) any {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	if len(m) == 0 || t.Rel == Atomic {
		if extract {
			return v
		}
		return nil
	}
	out := map[string]any{}
	for k, val := range m {
		pe := fp.Field(k)
		ft, _ := t.Field(k)
		if ft == nil {
			ft = noType
		}
		if set.HasMember(pe) {
			if extract {
				out[k] = removeItems(val, ft, set, true)
			}
			continue
		}
		if sub, ok := set.Child(pe); ok && !sub.Empty() {
			val = removeItems(val, ft, sub, extract)
		} else if extract {
			continue
		}
		out[k] = val
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
