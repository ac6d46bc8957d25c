package typed

import (
	fp "github.com/informer-lab/informer-lab/apiserver/internal/fieldpath"
)

// resolver walks a type for fieldpath's EnsureNamedFieldsAreMembers, resolving by type
// alone (no value to deduce from), as upstream's Schema.Resolve does.
type resolver struct{ a *Atom }

// Declares mirrors Map.FindField on the resolved type.
func (r resolver) Declares(name string) bool {
	if r.a == nil || r.a.Map == nil {
		return false
	}
	_, ok := r.a.Map.Fields[name]
	return ok
}

// Descend mirrors how SetNodeMap.EnsureNamedFieldsAreMembers picks the child's TypeRef.
func (r resolver) Descend(pe fp.PathElement) fp.Resolver {
	if r.a == nil {
		return nil
	}
	switch {
	case pe.Kind == fp.FieldKind && r.a.Map != nil:
		t, _ := r.a.Map.Field(pe.Name)
		if t == nil {
			return nil
		}
		return resolver{t}
	case pe.Kind == fp.KeyKind && r.a.List != nil:
		return resolver{r.a.List.Elem}
	}
	return nil
}

// EnsureNamedFieldsAreMembers mirrors Set.EnsureNamedFieldsAreMembers under type a.
func EnsureNamedFieldsAreMembers(s *fp.Set, a *Atom) *fp.Set {
	return s.EnsureNamedFieldsAreMembers(resolver{a})
}
