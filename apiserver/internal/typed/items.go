package typed

import (
	"errors"
	"fmt"

	fp "github.com/informer-lab/informer-lab/apiserver/internal/fieldpath"
)

// itemElement mirrors listItemToPathElement: the key of a map-list item or the value of a
// set item.
func itemElement(l *List, item any) (fp.PathElement, error) {
	if l.Rel != Associative {
		return fp.PathElement{}, errors.New("invalid indexing of non-associative list")
	}
	if len(l.Keys) > 0 {
		return keyElement(l, item)
	}
	switch kindOf(item) {
	case vMap:
		return fp.PathElement{}, errors.New("associative list without keys has an element that's a map type")
	case vList:
		return fp.PathElement{}, errors.New("not supported: associative list with lists as elements")
	case vNull:
		return fp.PathElement{}, errors.New("associative list without keys has an element that's an explicit null")
	}
	return fp.Value(item), nil
}

// keyElement mirrors keyedAssociativeListItemToPathElement: absent key fields take their
// schema default; an item with none of its keys is an error.
func keyElement(l *List, item any) (fp.PathElement, error) {
	if item == nil {
		return fp.PathElement{}, errors.New("associative list with keys may not have a null element")
	}
	m, ok := item.(map[string]any)
	if !ok {
		return fp.PathElement{}, errors.New("associative list with keys may not have non-map elements")
	}
	fields := make([]fp.KeyField, 0, len(l.Keys))
	for _, k := range l.Keys {
		if v, ok := m[k]; ok {
			fields = append(fields, fp.KeyField{Name: k, Value: v})
			continue
		}
		if l.Elem == nil || l.Elem.Map == nil {
			return fp.PathElement{}, fmt.Errorf("couldn't find default value for %v: %v", k, "associative list may not have non-map types")
		}
		if d, ok := l.Elem.Map.Defaults[k]; ok && d != nil {
			fields = append(fields, fp.KeyField{Name: k, Value: d})
		}
	}
	if len(fields) == 0 {
		return fp.PathElement{}, fmt.Errorf("associative list with keys has an element that omits all key fields %q (and doesn't have default values for any key fields)", l.Keys)
	}
	return fp.KeyOf(fields), nil
}
