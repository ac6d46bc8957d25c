package structural

import (
	"encoding/json"
	"fmt"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// ValidateListSetsAndMaps mirrors listtype.ValidateListSetsAndMaps
// (pkg/apiserver/schema/listtype): the items of an x-kubernetes-list-type=set list are
// unique, and so are the keys (x-kubernetes-list-map-keys) of a map list's items. Each
// repeated item (its second occurrence) is a `Duplicate value` cause; a map list item that
// is not an object is Invalid.
func ValidateListSetsAndMaps(s *Schema, obj map[string]any) []api.StatusCause {
	return listsOfObject("", s, obj)
}

func listsOfObject(path string, s *Schema, obj map[string]any) []api.StatusCause {
	if s == nil || obj == nil {
		return nil
	}
	var causes []api.StatusCause
	keys := sortedKeys(obj)
	if s.AdditionalProperties != nil {
		for _, k := range keys {
			causes = append(causes, listsOf(path+"["+k+"]", s.AdditionalProperties, obj[k])...)
		}
	}
	if s.Properties != nil {
		for _, k := range keys {
			if sub, ok := s.Properties[k]; ok {
				causes = append(causes, listsOf(join(path, k), sub, obj[k])...)
			}
		}
	}
	return causes
}

func listsOf(path string, s *Schema, x any) []api.StatusCause {
	switch v := x.(type) {
	case []any:
		return listsOfArray(path, s, v)
	case map[string]any:
		return listsOfObject(path, s, v)
	}
	return nil
}

func listsOfArray(path string, s *Schema, l []any) []api.StatusCause {
	var causes []api.StatusCause
	if s.ListType != nil {
		switch *s.ListType {
		case "set":
			for _, i := range duplicates(l) {
				causes = append(causes, duplicate(fmt.Sprintf("%s[%d]", path, i), l[i]))
			}
		case "map":
			causes = append(causes, mapListDuplicates(path, s, l)...)
		}
	}
	if s.Items != nil {
		for i, e := range l {
			causes = append(causes, listsOf(fmt.Sprintf("%s[%d]", path, i), s.Items, e)...)
		}
	}
	return causes
}

// duplicate mirrors field.Duplicate.
func duplicate(path string, value any) api.StatusCause {
	c := validation.Invalid(path, value, "")
	c.Type = api.CauseTypeFieldValueDuplicate
	c.Message = "Duplicate" + c.Message[len("Invalid"):]
	return c
}

// duplicates returns the index of the second occurrence of each repeated item: scalars
// compared as Go values (1 and 1.0 differ), objects and lists by their JSON.
func duplicates(l []any) []int {
	if len(l) <= 1 {
		return nil
	}
	seen := map[any]int{}
	var out []int
	for i, x := range l {
		key := x
		switch x.(type) {
		case map[string]any, []any:
			b, _ := json.Marshal(x)
			key = "\x00json:" + string(b)
		}
		seen[key]++
		if seen[key] == 2 {
			out = append(out, i)
		}
	}
	return out
}

type unspecifiedKey struct{}

func mapListDuplicates(path string, s *Schema, l []any) []api.StatusCause {
	for i, x := range l {
		if _, ok := x.(map[string]any); x != nil && !ok {
			return []api.StatusCause{validation.Invalid(fmt.Sprintf("%s[%d]", path, i), x, "must be an object for an array of list-type map")}
		}
	}
	if len(l) <= 1 {
		return nil
	}
	var causes []api.StatusCause
	if len(s.ListMapKeys) == 1 {
		k := s.ListMapKeys[0]
		keys := make([]any, len(l))
		for i, x := range l {
			m, _ := x.(map[string]any)
			v, ok := m[k]
			if !ok {
				keys[i] = unspecifiedKey{}
				continue
			}
			keys[i] = v
		}
		for _, i := range duplicates(keys) {
			if keys[i] == (unspecifiedKey{}) {
				causes = append(causes, duplicate(fmt.Sprintf("%s[%d]", path, i), map[string]any{}))
			} else {
				causes = append(causes, duplicate(fmt.Sprintf("%s[%d]", path, i), map[string]any{k: keys[i]}))
			}
		}
		return causes
	}
	keys := make([]any, len(l))
	for i, x := range l {
		key := map[string]any{}
		m, _ := x.(map[string]any)
		for _, k := range s.ListMapKeys {
			if v, ok := m[k]; ok {
				key[k] = v
			}
		}
		keys[i] = key
	}
	for _, i := range duplicates(keys) {
		causes = append(causes, duplicate(fmt.Sprintf("%s[%d]", path, i), keys[i]))
	}
	return causes
}
