package ssacheck

import (
	"sort"

	"k8s.io/kube-openapi/pkg/validation/spec"
)

// subset draws an applied configuration from the sequence's universe object: each member
// and item kept with probability keep (list keys and the name always), some scalars
// redrawn, so that managers apply overlapping but different configurations.
func (g *gen) subset(v any, s *spec.Schema, keep float64, depth int) any {
	s, def := g.resolve(s)
	if s == g.defs[objectMetaDef] {
		def = objectMetaDef
	}
	switch t := v.(type) {
	case map[string]any:
		out := map[string]any{}
		var elem *spec.Schema
		if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
			elem = s.AdditionalProperties.Schema
		}
		for _, k := range sortedKeys(t) {
			child := t[k]
			if (depth == 0 && (k == "apiVersion" || k == "kind" || k == "metadata")) || (def == objectMetaDef && k == "name") {
				out[k] = child
				continue
			}
			if !g.chance(keep) {
				continue
			}
			cs := elem
			if p, ok := s.Properties[k]; ok {
				cs = &p
			}
			if cs == nil {
				out[k] = child
				continue
			}
			out[k] = g.subset(child, cs, keep, depth+1)
		}
		if depth == 0 {
			if md, ok := out["metadata"].(map[string]any); ok {
				out["metadata"] = g.subset(md, g.defs[objectMetaDef], keep, depth+1)
			}
		}
		return out
	case []any:
		keys, _ := listKeys(s)
		var out []any
		for _, item := range t {
			if !g.chance(keep) {
				continue
			}
			if s.Items == nil || s.Items.Schema == nil {
				out = append(out, item)
				continue
			}
			sub := g.subset(item, s.Items.Schema, keep, depth+1)
			if m, ok := sub.(map[string]any); ok {
				orig := item.(map[string]any)
				for _, k := range keys {
					if kv, ok := orig[k]; ok {
						m[k] = kv
					}
				}
			}
			out = append(out, sub)
		}
		if out == nil {
			return []any{}
		}
		return out
	}
	if g.chance(0.15) && def != objectMetaDef {
		return g.scalar(s, def)
	}
	return v
}

// mutate changes a stored object as a non-apply writer would: a few members removed,
// scalars changed, members added from a fresh draw. Metadata other than labels,
// annotations and finalizers, and managedFields, are left alone.
func (g *gen) mutate(v any, s *spec.Schema, depth int) any {
	s, def := g.resolve(s)
	if s == g.defs[objectMetaDef] {
		def = objectMetaDef
	}
	if v == nil {
		return nil
	}
	switch t := v.(type) {
	case map[string]any:
		out := map[string]any{}
		var elem *spec.Schema
		if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
			elem = s.AdditionalProperties.Schema
		}
		for _, k := range sortedKeys(t) {
			child := t[k]
			if depth == 0 && (k == "apiVersion" || k == "kind" || k == "metadata") && def != objectMetaDef {
				if k == "metadata" {
					out[k] = g.mutate(child, g.defs[objectMetaDef], depth+1)
					continue
				}
				out[k] = child
				continue
			}
			if def == objectMetaDef && k != "labels" && k != "annotations" && k != "finalizers" {
				out[k] = child
				continue
			}
			if g.chance(0.08) {
				continue // removed
			}
			cs := elem
			if p, ok := s.Properties[k]; ok {
				cs = &p
			}
			if cs == nil {
				out[k] = child
				continue
			}
			out[k] = g.mutate(child, cs, depth+1)
		}
		if g.chance(0.15) && depth < maxDepth {
			var add *spec.Schema
			name := g.pickString(namePool)
			if def == objectMetaDef {
				name = "labels"
				add = &spec.Schema{}
				out[name] = mergeLabel(out[name], g.pickString(namePool), g.pickString([]string{"1", "2", "3"}))
			} else if len(s.Properties) > 0 {
				names := sortedProps(s)
				name = names[g.r.Intn(len(names))]
				if name != "apiVersion" && name != "kind" && name != "metadata" {
					p := s.Properties[name]
					add = &p
				}
			} else {
				add = elem
			}
			if add != nil && def != objectMetaDef {
				if nv, ok := g.value(add, depth+1); ok {
					out[name] = nv
				}
			}
		}
		return out
	case []any:
		if s.Items == nil || s.Items.Schema == nil {
			return v
		}
		keys, assoc := listKeys(s)
		var out []any
		for _, item := range t {
			if g.chance(0.08) {
				continue
			}
			m := g.mutate(item, s.Items.Schema, depth+1)
			if mm, ok := m.(map[string]any); ok && len(keys) > 0 {
				orig, _ := item.(map[string]any)
				for _, k := range keys {
					if kv, ok := orig[k]; ok {
						mm[k] = kv
					}
				}
			}
			if assoc && len(keys) == 0 {
				m = item // a set item's value is its identity
			}
			out = append(out, m)
		}
		if out == nil {
			return []any{}
		}
		return out
	}
	if g.chance(0.1) {
		return g.scalar(s, def)
	}
	return v
}

func mergeLabel(v any, k, val string) map[string]any {
	out := map[string]any{}
	if m, ok := v.(map[string]any); ok {
		for a, b := range m {
			out[a] = b
		}
	}
	out[k] = val
	return out
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
