package structural

import (
	"slices"
	"strconv"
	"strings"
)

// Prune removes from obj, in place, every member s does not specify, and returns the paths
// removed ("spec.bogus", "spec.items[0].x"), sorted. It mirrors
// structuralpruning.PruneWithOptions (pkg/apiserver/schema/pruning) with isResourceRoot
// set: apiVersion, kind and metadata are kept at the root and in embedded resources (their
// metadata is Coerce's), and x-kubernetes-preserve-unknown-fields keeps what it covers
// unless properties or additionalProperties say more further down.
func Prune(obj any, s *Schema, isResourceRoot bool) []string {
	if isResourceRoot {
		root := Schema{}
		if s != nil {
			root = *s
		}
		root.EmbeddedResource = true
		s = &root
	}
	p := pruner{}
	p.prune(obj, s)
	slices.Sort(p.unknown)
	return p.unknown
}

var metaFields = map[string]bool{"apiVersion": true, "kind": true, "metadata": true}

type pruner struct {
	path    []string
	unknown []string
}

func (p *pruner) push(k string) {
	if len(p.path) > 0 {
		p.path = append(p.path, ".")
	}
	p.path = append(p.path, k)
}

func (p *pruner) record(k string) {
	n := len(p.path)
	p.push(k)
	p.unknown = append(p.unknown, strings.Join(p.path, ""))
	p.path = p.path[:n]
}

func (p *pruner) prune(x any, s *Schema) {
	if s.preserves() {
		p.skip(x, s)
		return
	}
	n := len(p.path)
	switch v := x.(type) {
	case map[string]any:
		if s == nil {
			for k := range v {
				p.record(k)
				delete(v, k)
			}
			return
		}
		for k, e := range v {
			if s.EmbeddedResource && metaFields[k] {
				continue
			}
			if c, ok := s.Properties[k]; ok {
				p.push(k)
				p.prune(e, c)
			} else if s.AdditionalProperties != nil || s.AdditionalPropertiesBool != nil {
				p.push(k)
				p.prune(e, s.AdditionalProperties)
			} else {
				if !metaFields[k] || len(p.path) > 0 {
					p.record(k)
				}
				delete(v, k)
			}
			p.path = p.path[:n]
		}
	case []any:
		var items *Schema
		if s != nil {
			items = s.Items
		}
		for i, e := range v {
			p.path = append(p.path, "[", strconv.Itoa(i), "]")
			p.prune(e, items)
			p.path = p.path[:n]
		}
	}
}

// skip walks what x-kubernetes-preserve-unknown-fields keeps, pruning only below the
// properties and additionalProperties it declares.
func (p *pruner) skip(x any, s *Schema) {
	if s == nil {
		return
	}
	n := len(p.path)
	switch v := x.(type) {
	case map[string]any:
		for k, e := range v {
			if s.EmbeddedResource && metaFields[k] {
				continue
			}
			if c, ok := s.Properties[k]; ok {
				p.push(k)
				p.prune(e, c)
			} else if s.AdditionalProperties != nil || s.AdditionalPropertiesBool != nil {
				p.push(k)
				p.prune(e, s.AdditionalProperties)
			}
			p.path = p.path[:n]
		}
	case []any:
		for i, e := range v {
			p.path = append(p.path, "[", strconv.Itoa(i), "]")
			p.skip(e, s.Items)
			p.path = p.path[:n]
		}
	}
}

// PruneNulls mirrors structuraldefaulting.PruneNonNullableNullsWithoutDefaults: a null
// member or item whose schema is neither nullable nor defaulted is removed.
func PruneNulls(x any, s *Schema) {
	switch v := x.(type) {
	case map[string]any:
		for k, e := range v {
			c := memberSchema(s, k)
			if e == nil && c != nil && !c.Nullable && !c.HasDefault {
				delete(v, k)
			} else {
				PruneNulls(e, c)
			}
		}
	case []any:
		var items *Schema
		if s != nil {
			items = s.Items
		}
		for _, e := range v {
			PruneNulls(e, items)
		}
	}
}

func memberSchema(s *Schema, k string) *Schema {
	if s == nil {
		return nil
	}
	if c, ok := s.Properties[k]; ok {
		return c
	}
	return s.AdditionalProperties
}

// Default mirrors structuraldefaulting.Default (pkg/apiserver/schema/defaulting): every
// absent member whose schema has a default gets a copy of it, and so does a null one whose
// schema is not nullable (in maps and lists too), walking down after filling each level.
func Default(x any, s *Schema) {
	if s == nil {
		return
	}
	switch v := x.(type) {
	case map[string]any:
		for _, k := range sortedKeys(s.Properties) {
			c := s.Properties[k]
			if !c.HasDefault {
				continue
			}
			if cur, found := v[k]; !found || (cur == nil && !c.Nullable) {
				v[k] = deepCopy(c.Default)
			}
		}
		for k := range v {
			if c, ok := s.Properties[k]; ok {
				Default(v[k], c)
			} else if a := s.AdditionalProperties; a != nil {
				if v[k] == nil && !a.Nullable {
					v[k] = deepCopy(a.Default)
				}
				Default(v[k], a)
			}
		}
	case []any:
		for i := range v {
			if it := s.Items; it != nil && v[i] == nil && !it.Nullable {
				v[i] = deepCopy(it.Default)
			}
			Default(v[i], s.Items)
		}
	}
}

func deepCopy(x any) any {
	switch v := x.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = deepCopy(e)
		}
		return out
	}
	return x
}
