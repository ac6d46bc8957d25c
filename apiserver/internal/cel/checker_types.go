package cel

import (
	"fmt"
	"strings"
)

// mapping binds type parameters to types during overload resolution; it mirrors
// cel-go's checker mapping and the unification in checker/types.go.
type mapping map[string]*Type

func (m mapping) copy() mapping {
	c := make(mapping, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

func isDyn(t *Type) bool { return t.Kind == DynKind || t.Kind == AnyKind }

func isEqualOrLessSpecific(t1, t2 *Type) bool {
	if isDyn(t1) || t1.Kind == ParamKind {
		return true
	}
	if isDyn(t2) || t2.Kind == ParamKind {
		return false
	}
	if t1.Kind != t2.Kind {
		return false
	}
	switch t1.Kind {
	case OpaqueKind, ListKind, MapKind:
		if t1.Name != t2.Name || len(t1.Params) != len(t2.Params) {
			return false
		}
		for i := range t1.Params {
			if !isEqualOrLessSpecific(t1.Params[i], t2.Params[i]) {
				return false
			}
		}
		return true
	case TypeKind:
		return true
	}
	return exactType(t1, t2)
}

// exactType is cel-go's Type.IsExactType: same kind, name and parameters.
func exactType(a, b *Type) bool { return equalTypes(a, b) }

func assignable(m mapping, t1, t2 *Type) bool {
	if t2.Kind == ParamKind {
		valid, hasSub := validSubstitution(m, t1, t2)
		if valid {
			return true
		}
		if hasSub {
			return false
		}
	}
	if t1.Kind == ParamKind {
		valid, _ := validSubstitution(m, t2, t1)
		return valid
	}
	if isDyn(t1) || t1.Kind == ErrorKind || isDyn(t2) || t2.Kind == ErrorKind {
		return true
	}
	if t1.Kind == NullKind {
		return assignableNull(t2)
	}
	if t2.Kind == NullKind {
		return assignableNull(t1)
	}
	switch t1.Kind {
	case TypeKind:
		return t2.Kind == TypeKind
	case OpaqueKind, ListKind, MapKind:
		if t1.Kind != t2.Kind || t1.Name != t2.Name || len(t1.Params) != len(t2.Params) {
			return false
		}
		for i := range t1.Params {
			if !assignable(m, t1.Params[i], t2.Params[i]) {
				return false
			}
		}
		return true
	case ObjectKind:
		return t2.Kind == ObjectKind && t1.Name == t2.Name
	}
	return t1.Kind == t2.Kind
}

func assignableNull(t *Type) bool {
	switch t.Kind {
	case OpaqueKind, ObjectKind, AnyKind, DurationKind, TimestampKind, NullKind:
		return true
	}
	return false
}

func validSubstitution(m mapping, t1, t2 *Type) (valid, hasSub bool) {
	if t1.Kind == t2.Kind && exactType(t1, t2) {
		return true, true
	}
	if sub, ok := m[t2.Name]; ok {
		if t1.Kind == sub.Kind && exactType(t1, sub) {
			return true, true
		}
		if assignable(m, t1, sub) {
			general := sub
			if isEqualOrLessSpecific(t1, sub) {
				general = t1
			}
			if notReferencedIn(m, t2, general) {
				m[t2.Name] = general
			}
			return true, true
		}
		return false, true
	}
	if notReferencedIn(m, t2, t1) {
		m[t2.Name] = t1
		return true, false
	}
	return false, false
}

func notReferencedIn(m mapping, t, within *Type) bool {
	if exactType(t, within) {
		return false
	}
	switch within.Kind {
	case ParamKind:
		sub, ok := m[within.Name]
		if !ok {
			return true
		}
		return notReferencedIn(m, t, sub)
	case OpaqueKind, ListKind, MapKind, TypeKind:
		for _, p := range within.Params {
			if !notReferencedIn(m, t, p) {
				return false
			}
		}
	}
	return true
}

// substitute replaces bound type parameters; with toDyn, unbound ones become dyn.
func substitute(m mapping, t *Type, toDyn bool) *Type {
	if t.Kind == ParamKind {
		if sub, ok := m[t.Name]; ok {
			return substitute(m, sub, toDyn)
		}
		if toDyn {
			return DynType
		}
		return t
	}
	if len(t.Params) == 0 {
		return t
	}
	c := *t
	c.Params = make([]*Type, len(t.Params))
	changed := false
	for i, p := range t.Params {
		c.Params[i] = substitute(m, p, toDyn)
		changed = changed || c.Params[i] != p
	}
	if !changed {
		return t
	}
	return &c
}

// formatType prints a type as cel-go's checker.FormatCELType does in its messages.
func formatType(t *Type) string {
	switch t.Kind {
	case AnyKind:
		return "any"
	case DurationKind:
		return "duration"
	case TimestampKind:
		return "timestamp"
	case ErrorKind:
		return "!error!"
	case NullKind:
		return "null"
	case ParamKind:
		return t.Name
	}
	if len(t.Params) == 0 {
		return t.Name
	}
	var ps []string
	for _, p := range t.Params {
		ps = append(ps, formatType(p))
	}
	return fmt.Sprintf("%s(%s)", t.Name, strings.Join(ps, ", "))
}

func formatSignature(args []*Type, member bool) string {
	var b strings.Builder
	if member {
		b.WriteString(formatType(args[0]))
		b.WriteString(".")
		args = args[1:]
	}
	b.WriteString("(")
	for i, a := range args {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(formatType(a))
	}
	b.WriteString(")")
	return b.String()
}
