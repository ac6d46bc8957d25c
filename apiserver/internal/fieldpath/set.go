package fieldpath

import (
	"sort"
	"strings"
)

// Set mirrors fieldpath.Set: the paths that end at this level (members) and, per element,
// the set of paths that continue below it (children). Both are kept sorted.
type Set struct {
	members  []PathElement
	children []setNode
}

type setNode struct {
	pe  PathElement
	set *Set
}

// NewSet mirrors fieldpath.NewSet.
func NewSet(paths ...Path) *Set {
	s := &Set{}
	for _, p := range paths {
		s.Insert(p)
	}
	return s
}

// Copy mirrors Set.Copy.
func (s *Set) Copy() *Set {
	out := &Set{members: append([]PathElement(nil), s.members...)}
	out.children = make([]setNode, len(s.children))
	for i, c := range s.children {
		out.children[i] = setNode{pe: c.pe, set: c.set.Copy()}
	}
	return out
}

func searchElems(elems []PathElement, pe PathElement) (int, bool) {
	i := sort.Search(len(elems), func(i int) bool { return !elems[i].Less(pe) })
	return i, i < len(elems) && elems[i].Equals(pe)
}

func searchNodes(nodes []setNode, pe PathElement) (int, bool) {
	i := sort.Search(len(nodes), func(i int) bool { return !nodes[i].pe.Less(pe) })
	return i, i < len(nodes) && nodes[i].pe.Equals(pe)
}

// insertMember adds pe to the members.
func (s *Set) insertMember(pe PathElement) {
	i, found := searchElems(s.members, pe)
	if found {
		return
	}
	s.members = append(s.members, PathElement{})
	copy(s.members[i+1:], s.members[i:])
	s.members[i] = pe
}

// Descend mirrors SetNodeMap.Descend: the child set under pe, created empty when absent.
func (s *Set) Descend(pe PathElement) *Set {
	i, found := searchNodes(s.children, pe)
	if found {
		return s.children[i].set
	}
	s.children = append(s.children, setNode{})
	copy(s.children[i+1:], s.children[i:])
	s.children[i] = setNode{pe: pe, set: &Set{}}
	return s.children[i].set
}

// Insert mirrors Set.Insert.
func (s *Set) Insert(p Path) {
	if len(p) == 0 {
		return
	}
	for len(p) > 1 {
		s = s.Descend(p[0])
		p = p[1:]
	}
	s.insertMember(p[0])
}

// Has mirrors Set.Has: p itself is a member.
func (s *Set) Has(p Path) bool {
	if len(p) == 0 {
		return false
	}
	for len(p) > 1 {
		i, found := searchNodes(s.children, p[0])
		if !found {
			return false
		}
		s = s.children[i].set
		p = p[1:]
	}
	_, found := searchElems(s.members, p[0])
	return found
}

// HasMember mirrors PathElementSet.Has on the members: whether pe is a member at this level.
func (s *Set) HasMember(pe PathElement) bool {
	_, found := searchElems(s.members, pe)
	return found
}

// Child mirrors SetNodeMap.Get: the set below pe, if any.
func (s *Set) Child(pe PathElement) (*Set, bool) {
	i, found := searchNodes(s.children, pe)
	if !found {
		return nil, false
	}
	return s.children[i].set, true
}

// WithPrefix mirrors Set.WithPrefix: the set below pe, empty when there is none.
func (s *Set) WithPrefix(pe PathElement) *Set {
	if c, ok := s.Child(pe); ok {
		return c
	}
	return &Set{}
}

// Empty mirrors Set.Empty: no member at any depth.
func (s *Set) Empty() bool {
	if len(s.members) > 0 {
		return false
	}
	for _, c := range s.children {
		if !c.set.Empty() {
			return false
		}
	}
	return true
}

// Size mirrors Set.Size: the number of paths.
func (s *Set) Size() int {
	n := len(s.members)
	for _, c := range s.children {
		n += c.set.Size()
	}
	return n
}

// Equals mirrors Set.Equals (structure included: an empty child counts).
func (s *Set) Equals(o *Set) bool {
	if len(s.members) != len(o.members) || len(s.children) != len(o.children) {
		return false
	}
	for i := range s.members {
		if !s.members[i].Equals(o.members[i]) {
			return false
		}
	}
	for i := range s.children {
		if !s.children[i].pe.Equals(o.children[i].pe) || !s.children[i].set.Equals(o.children[i].set) {
			return false
		}
	}
	return true
}

// Union mirrors Set.Union.
func (s *Set) Union(o *Set) *Set {
	out := &Set{members: make([]PathElement, 0, len(s.members)+len(o.members))}
	i, j := 0, 0
	for i < len(s.members) && j < len(o.members) {
		switch c := s.members[i].Compare(o.members[j]); {
		case c < 0:
			out.members = append(out.members, s.members[i])
			i++
		case c > 0:
			out.members = append(out.members, o.members[j])
			j++
		default:
			out.members = append(out.members, s.members[i])
			i++
			j++
		}
	}
	out.members = append(out.members, s.members[i:]...)
	out.members = append(out.members, o.members[j:]...)
	if n := len(s.children) + len(o.children); n > 0 {
		out.children = make([]setNode, 0, n) // at most: one allocation, not append's doublings
	}
	i, j = 0, 0
	for i < len(s.children) && j < len(o.children) {
		switch c := s.children[i].pe.Compare(o.children[j].pe); {
		case c < 0:
			out.children = append(out.children, s.children[i])
			i++
		case c > 0:
			out.children = append(out.children, o.children[j])
			j++
		default:
			out.children = append(out.children, setNode{pe: s.children[i].pe, set: s.children[i].set.Union(o.children[j].set)})
			i++
			j++
		}
	}
	out.children = append(out.children, s.children[i:]...)
	out.children = append(out.children, o.children[j:]...)
	return out
}

// Intersection mirrors Set.Intersection: empty children are dropped.
func (s *Set) Intersection(o *Set) *Set {
	out := &Set{}
	i, j := 0, 0
	for i < len(s.members) && j < len(o.members) {
		switch c := s.members[i].Compare(o.members[j]); {
		case c < 0:
			i++
		case c > 0:
			j++
		default:
			out.members = append(out.members, s.members[i])
			i++
			j++
		}
	}
	i, j = 0, 0
	for i < len(s.children) && j < len(o.children) {
		switch c := s.children[i].pe.Compare(o.children[j].pe); {
		case c < 0:
			i++
		case c > 0:
			j++
		default:
			if r := s.children[i].set.Intersection(o.children[j].set); !r.Empty() {
				out.children = append(out.children, setNode{pe: s.children[i].pe, set: r})
			}
			i++
			j++
		}
	}
	return out
}

// Difference mirrors Set.Difference: a member of o removes only that path, not what lies
// below it (see RecursiveDifference).
func (s *Set) Difference(o *Set) *Set {
	return s.difference(o, false)
}

// RecursiveDifference mirrors Set.RecursiveDifference: a member of o removes the path and
// everything below it.
func (s *Set) RecursiveDifference(o *Set) *Set {
	return s.difference(o, true)
}

func (s *Set) difference(o *Set, recursive bool) *Set {
	out := &Set{}
	// At most s's own: one allocation each, not append's doublings.
	if len(s.members) > 0 {
		out.members = make([]PathElement, 0, len(s.members))
	}
	if len(s.children) > 0 {
		out.children = make([]setNode, 0, len(s.children))
	}
	i, j := 0, 0
	for i < len(s.members) && j < len(o.members) {
		switch c := s.members[i].Compare(o.members[j]); {
		case c < 0:
			out.members = append(out.members, s.members[i])
			i++
		case c > 0:
			j++
		default:
			i++
			j++
		}
	}
	out.members = append(out.members, s.members[i:]...)
	i, j = 0, 0
	for i < len(s.children) {
		n := s.children[i]
		if recursive && o.HasMember(n.pe) {
			i++
			continue
		}
		for j < len(o.children) && o.children[j].pe.Less(n.pe) {
			j++
		}
		if j < len(o.children) && o.children[j].pe.Equals(n.pe) {
			if d := n.set.difference(o.children[j].set, recursive); !d.Empty() {
				out.children = append(out.children, setNode{pe: n.pe, set: d})
			}
			j++
		} else {
			out.children = append(out.children, n)
		}
		i++
	}
	return out
}

// Leaves mirrors Set.Leaves: the members that have no children.
func (s *Set) Leaves() *Set {
	out := &Set{}
	for _, m := range s.members {
		if _, ok := searchNodes(s.children, m); !ok {
			out.members = append(out.members, m)
		}
	}
	out.children = make([]setNode, len(s.children))
	for i, c := range s.children {
		out.children[i] = setNode{pe: c.pe, set: c.set.Leaves()}
	}
	return out
}

// Iterate mirrors Set.Iterate: every path, members of a level before its children. The
// path passed to f is reused; copy it to keep it.
func (s *Set) Iterate(f func(Path)) { s.iterate(make(Path, 0, 8), f) }

func (s *Set) iterate(prefix Path, f func(Path)) {
	for _, m := range s.members {
		f(append(prefix, m))
	}
	for _, c := range s.children {
		c.set.iterate(append(prefix, c.pe), f)
	}
}

// Members mirrors Set.Members.Iterate: it calls f for each member of this level, in order.
func (s *Set) Members(f func(PathElement)) {
	for _, m := range s.members {
		f(m)
	}
}

// Children mirrors Set.Children.Iterate: it calls f for each child of this level, in order.
func (s *Set) Children(f func(PathElement, *Set)) {
	for _, c := range s.children {
		f(c.pe, c.set)
	}
}

// String mirrors Set.String: one path a line.
func (s *Set) String() string {
	var lines []string
	s.Iterate(func(p Path) { lines = append(lines, p.String()) })
	return strings.Join(lines, "\n")
}

// Resolver mirrors the schema and TypeRef upstream's EnsureNamedFieldsAreMembers takes: it tells which field names a level's type declares and
// the type below an element. A nil Resolver declares nothing.
type Resolver interface {
	Declares(name string) bool
	Descend(pe PathElement) Resolver
}

// EnsureNamedFieldsAreMembers mirrors Set.EnsureNamedFieldsAreMembers: every child that is a
// field the type declares becomes a member too, at every level, so removing the set removes
// the struct fields themselves and not only what is below them.
func (s *Set) EnsureNamedFieldsAreMembers(r Resolver) *Set {
	out := &Set{members: make([]PathElement, 0, len(s.members)+len(s.children))}
	out.members = append(out.members, s.members...)
	out.children = make([]setNode, 0, len(s.children))
	for _, c := range s.children {
		if c.pe.Kind == FieldKind && r != nil && r.Declares(c.pe.Name) {
			out.insertMember(c.pe)
		}
		var sub Resolver
		if r != nil {
			sub = r.Descend(c.pe)
		}
		out.children = append(out.children, setNode{pe: c.pe, set: c.set.EnsureNamedFieldsAreMembers(sub)})
	}
	return out
}
