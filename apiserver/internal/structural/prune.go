package structural

import (
	"fmt"
	"slices"
	"strconv"
)

// Prune removes from obj, in place, every member s does not specify, and returns each
// removed member as the decoder's warning text (`unknown field "spec.bogus"`), sorted. It
// mirrors structuralpruning.PruneWithOptions (pkg/apiserver/schema/pruning) with
// ReturnPruned set: apiVersion, kind and metadata are kept at the root and in embedded
// resources, and x-kubernetes-preserve-unknown-fields keeps what it covers.
func Prune(obj map[string]any, s *Schema) []string {
	var pruned []string
	pruneObject(obj, s, "", true, &pruned)
	slices.Sort(pruned)
	out := make([]string, len(pruned))
	for i, p := range pruned {
		out[i] = "unknown field " + strconv.Quote(p)
	}
	return out
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func pruneObject(m map[string]any, s *Schema, path string, resourceRoot bool, pruned *[]string) {
	for name, val := range m {
		if resourceRoot && (name == "apiVersion" || name == "kind" || name == "metadata") {
			continue
		}
		var child *Schema
		switch {
		case s == nil:
		case s.Properties[name] != nil:
			child = s.Properties[name]
		case s.Additional != nil:
			child = s.Additional
		case s.PreserveUnknown || s.Type == "":
			// Kept whole, unless a deeper schema is known: nothing to prune below.
			continue
		default:
			*pruned = append(*pruned, join(path, name))
			delete(m, name)
			continue
		}
		pruneValue(val, child, join(path, name), pruned)
	}
}

func pruneValue(x any, s *Schema, path string, pruned *[]string) {
	if s == nil {
		return
	}
	switch v := x.(type) {
	case map[string]any:
		if s.Type != "object" && !s.EmbeddedResource {
			if s.Type == "" {
				return
			}
		}
		pruneObject(v, s, path, s.EmbeddedResource, pruned)
	case []any:
		for i, e := range v {
			pruneValue(e, s.Items, fmt.Sprintf("%s[%d]", path, i), pruned)
		}
	}
}

// Default fills in, in place, every absent member whose schema has a default, walking down
// into objects, maps and arrays. It mirrors structuraldefaulting.Default
// (pkg/apiserver/schema/defaulting/algorithm.go); a default is applied as a deep copy, and
// null members are defaulted as absent ones are, unless the schema is nullable.
func Default(x any, s *Schema) {
	if s == nil {
		return
	}
	switch v := x.(type) {
	case map[string]any:
		for _, name := range sortedKeys(s.Properties) {
			prop := s.Properties[name]
			cur, ok := v[name]
			if prop.HasDefault && (!ok || (cur == nil && !prop.Nullable)) {
				v[name] = deepCopy(prop.Default)
			}
		}
		for name, val := range v {
			if prop, ok := s.Properties[name]; ok {
				Default(val, prop)
			} else if s.Additional != nil {
				Default(val, s.Additional)
			}
		}
	case []any:
		for _, e := range v {
			Default(e, s.Items)
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
