package typed

import (
	"sync"

	fp "github.com/informer-lab/informer-lab/apiserver/internal/fieldpath"
)

// CreatedFields is ours, a shortcut for what the updater reads of Compare(zero, obj) on a
// create: Added ∪ Modified, less omit's members (Set.Difference: omit's paths themselves,
// not what lies below them; nil omits nothing). The create's manager owns exactly those
// paths, and walking obj once with the set builder (AppendMember, one Normalize) costs far
// less than Compare's sorted insert per path into three sets. ok is false when the walk
// meets anything Compare would report as an error, or a zero value this walk does not
// handle (a list with items, a value whose kind picks another part of the atom than
// obj's): the caller then compares as before, so the result is Compare's in every case.
func CreatedFields(zero, obj any, a *Atom, omit *fp.Set) (*fp.Set, bool) {
	root := &fp.Set{}
	w := createdWalkers.Get().(*createdWalker)
	w.sets, w.omits = append(w.sets, root), append(w.omits, omit)
	ok := w.walk(zero, true, obj, a)
	// Each step pops what it pushed; what the stacks held is dropped for the next walk.
	clear(w.path[:cap(w.path)])
	clear(w.sets[:cap(w.sets)])
	clear(w.omits[:cap(w.omits)])
	w.path, w.sets, w.omits = w.path[:0], w.sets[:0], w.omits[:0]
	createdWalkers.Put(w)
	if !ok {
		return nil, false
	}
	return root.Normalize(), true
}

// createdWalkers keeps a walker's stacks from one create to the next (they escape to the
// heap: the walk is recursive).
var createdWalkers = sync.Pool{New: func() any {
	return &createdWalker{path: make(fp.Path, 0, 8), sets: make([]*fp.Set, 0, 9), omits: make([]*fp.Set, 0, 9)}
}}

// createdWalker keeps the path walked and, per depth, its level of the set (nil until
// something is added below it: a value that adds nothing leaves no empty child behind,
// which FieldsV1 would read back as a member) and of omit (nil when omit has nothing
// there). sets[i] and omits[i] are the levels of path[:i].
type createdWalker struct {
	path  fp.Path
	sets  []*fp.Set
	omits []*fp.Set
}

func (w *createdWalker) push(pe fp.PathElement) {
	var omit *fp.Set
	if up := w.omits[len(w.omits)-1]; up != nil {
		omit, _ = up.Child(pe)
	}
	w.path = append(w.path, pe)
	w.sets = append(w.sets, nil)
	w.omits = append(w.omits, omit)
}

func (w *createdWalker) pop() {
	w.path = w.path[:len(w.path)-1]
	w.sets = w.sets[:len(w.sets)-1]
	w.omits = w.omits[:len(w.omits)-1]
}

// level is the set of the path walked, made (with its parents) on first use.
func (w *createdWalker) level() *fp.Set {
	i := len(w.sets) - 1
	for w.sets[i] == nil {
		i--
	}
	for ; i < len(w.sets)-1; i++ {
		w.sets[i+1] = w.sets[i].AppendChild(w.path[i])
	}
	return w.sets[i]
}

// member adds pe below the path walked, unless omit names it.
func (w *createdWalker) member(pe fp.PathElement) {
	if omit := w.omits[len(w.omits)-1]; omit != nil && omit.HasMember(pe) {
		return
	}
	w.level().AppendMember(pe)
}

// self makes the path walked a member (nothing at the root: the empty path).
func (w *createdWalker) self() {
	n := len(w.path)
	if n == 0 {
		return
	}
	pe := w.path[n-1]
	w.path, w.sets, w.omits = w.path[:n-1], w.sets[:n], w.omits[:n]
	w.member(pe)
	w.path, w.sets, w.omits = w.path[:n], w.sets[:n+1], w.omits[:n+1]
}

// walk mirrors compare(l, lhas, r, true, a) at the path walked, keeping only what it adds
// to Added and Modified.
func (w *createdWalker) walk(l any, lhas bool, r any, a *Atom) bool {
	ar := deduce(a, r, true)
	if lhas && !equalAtoms(deduce(a, l, true), ar) {
		return false
	}
	leaf := false
	switch {
	case ar.Map != nil:
		lm, _ := l.(map[string]any)
		rm, _ := r.(map[string]any)
		if ar.Map.Rel == Atomic || (len(lm) == 0 && len(rm) == 0) {
			w.leaf(l, lhas, r)
			leaf = true
			break
		}
		for k, lv := range lm {
			if _, ok := rm[k]; !ok {
				// Only in zero: Compare counts it removed, which a create's manager does
				// not read, but the walk must still fail where Compare's would.
				ft, _ := ar.Map.Field(k)
				if ft == nil || !removedWalks(lv, ft) {
					return false
				}
			}
		}
		for k, rv := range rm {
			ft, _ := ar.Map.Field(k)
			if ft == nil {
				return false // noType: Compare reports an invalid atom
			}
			lv, lok := lm[k]
			w.push(fp.Field(k))
			ok := w.walk(lv, lok, rv, ft)
			w.pop()
			if !ok {
				return false
			}
		}
	case ar.Scalar != NoScalar:
		if validateScalar(ar.Scalar, l, lhas, "") != nil && validateScalar(ar.Scalar, r, true, "") != nil {
			return false
		}
		w.leaf(l, lhas, r)
		leaf = true
	case ar.List != nil:
		ll, _ := l.([]any)
		rl, _ := r.([]any)
		if ar.List.Rel == Atomic || (len(ll) == 0 && len(rl) == 0) {
			w.leaf(l, lhas, r)
			leaf = true
			break
		}
		if len(ll) > 0 {
			return false
		}
		if !w.items(ar.List, rl) {
			return false
		}
	default:
		return false
	}
	if !leaf && !lhas {
		w.self()
	}
	return true
}

// createdLeaf mirrors comparer.leaf with the new side present: added when zero lacks it,
// modified when zero's differs.
func (w *createdWalker) leaf(l any, lhas bool, r any) {
	if !lhas || !fp.EqualValues(r, l) {
		w.self()
	}
}

// items mirrors doList's groups when zero's list is empty: an item whose key one
// other item shares is added whole (a member with nothing below it); any other item is
// walked as added.
func (w *createdWalker) items(t *List, items []any) bool {
	pes := make([]fp.PathElement, len(items))
	for i, item := range items {
		pe, err := itemElement(t, item)
		if err != nil {
			return false
		}
		pes[i] = pe
	}
	var count map[string]int
	if len(items) > 1 {
		// Grouped by elementKey exactly as doList groups them.
		count = make(map[string]int, len(items))
		for _, pe := range pes {
			count[elementKey(pe)]++
		}
	}
	for i, item := range items {
		if count != nil && count[elementKey(pes[i])] > 1 {
			w.member(pes[i])
			continue
		}
		w.push(pes[i])
		ok := w.walk(nil, false, item, t.Elem)
		w.pop()
		if !ok {
			return false
		}
	}
	return true
}

// removedWalks reports whether compare(l, true, nil, false, a) would walk l without an
// error (a value only zero has). A list with items is left to Compare.
func removedWalks(l any, a *Atom) bool {
	al := deduce(a, l, true)
	switch {
	case al.Map != nil:
		lm, _ := l.(map[string]any)
		if al.Map.Rel == Atomic {
			return true
		}
		for k, lv := range lm {
			ft, _ := al.Map.Field(k)
			if ft == nil || !removedWalks(lv, ft) {
				return false
			}
		}
		return true
	case al.Scalar != NoScalar:
		return true
	case al.List != nil:
		ll, _ := l.([]any)
		return al.List.Rel == Atomic || len(ll) == 0
	}
	return false
}
