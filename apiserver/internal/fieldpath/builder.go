package fieldpath

import (
	"encoding/json"
	"fmt"
	"slices"
)

// Building a set in bulk: AppendMember and AppendChild add in any order, without keeping
// the levels sorted, and Normalize sorts and merges once at the end. Walking an object
// (whose maps have no order) this way costs a sort per level instead of a sorted insert
// per path.

// AppendMember is ours (upstream inserts in order): it adds pe as a member of this level; call Normalize before using the set.
func (s *Set) AppendMember(pe PathElement) { s.members = append(s.members, pe) }

// AppendChild is ours, like AppendMember: it adds a child under pe and returns it; call Normalize before using the set.
func (s *Set) AppendChild(pe PathElement) *Set {
	c := &Set{}
	s.children = append(s.children, setNode{pe: pe, set: c})
	return c
}

// Normalize is ours, finishing AppendMember and AppendChild: it sorts every level and merges repeated members and children.
func (s *Set) Normalize() *Set {
	if len(s.members) > 1 {
		if !slices.IsSortedFunc(s.members, PathElement.Compare) {
			slices.SortFunc(s.members, PathElement.Compare)
		}
		out := s.members[:1]
		for _, m := range s.members[1:] {
			if !m.Equals(out[len(out)-1]) {
				out = append(out, m)
			}
		}
		s.members = out
	}
	for _, c := range s.children {
		c.set.Normalize()
	}
	if len(s.children) > 1 {
		byElement := func(a, b setNode) int { return a.pe.Compare(b.pe) }
		if !slices.IsSortedFunc(s.children, byElement) {
			slices.SortStableFunc(s.children, byElement)
		}
		out := s.children[:1]
		for _, c := range s.children[1:] {
			last := &out[len(out)-1]
			if c.pe.Equals(last.pe) {
				last.set = last.set.Union(c.set)
				continue
			}
			out = append(out, c)
		}
		s.children = out
	}
	return s
}

// FromUnstructured mirrors Set.FromJSON on FieldsV1 already decoded into a JSON tree (map[string]any, as
// an object read back from storage holds it), with FromJSON's rules.
func FromUnstructured(v any) (*Set, error) {
	s, _, err := fromTree(v, 0)
	if err != nil {
		return nil, err
	}
	if s == nil {
		s = &Set{}
	}
	return s.Normalize(), nil
}

func fromTree(v any, depth int) (*Set, bool, error) {
	if depth > maxDepth {
		return nil, false, fmt.Errorf("FieldsV1 nested too deeply")
	}
	if v == nil {
		return nil, true, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false, fmt.Errorf("FieldsV1: expected an object, found %v", v)
	}
	var children *Set
	isMember := false
	for k, child := range m {
		if k == "." {
			isMember = true
			continue
		}
		pe, err := DeserializeElement(k)
		if err == ErrUnknownElementType {
			continue
		} else if err != nil {
			return nil, false, fmt.Errorf("parsing key as path element: %v", err)
		}
		grand, childIsMember, err := fromTree(child, depth+1)
		if err != nil {
			return nil, false, err
		}
		if children == nil && (childIsMember || grand != nil) {
			children = &Set{}
		}
		if childIsMember {
			children.AppendMember(pe)
		}
		if grand != nil {
			children.children = append(children.children, setNode{pe: pe, set: grand})
		}
	}
	if children == nil {
		isMember = true
	}
	return children, isMember, nil
}

// ToUnstructured mirrors Set.ToJSON, decoded: the FieldsV1 of s as a JSON tree.
func (s *Set) ToUnstructured() (map[string]any, error) {
	b, err := s.ToJSON()
	if err != nil {
		return nil, err
	}
	var m map[string]any
	err = json.Unmarshal(b, &m)
	return m, err
}
