package patch

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
)

// Strategic merge patch of lists with the merge strategy: lists of objects merge by their
// merge key, lists of scalars as a set, and the result is ordered as upstream's
// normalizeElementOrder orders it. The entry point is smpMergeList, called from
// smpMergeMap and smpSetElementOrders in strategic.go and strategic_directives.go.

// smpMergeList merges two lists whose field has the merge strategy (or a deletion list).
func smpMergeList(original, patch []any, field smpField, isDeleteList bool) ([]any, error) {
	if len(original) == 0 && len(patch) == 0 {
		return original, nil
	}
	isMap, err := listOfObjects(original, patch)
	if err != nil {
		return nil, err
	}
	mergeKey := field.mergeKey
	var merged []any
	if !isMap {
		if isDeleteList {
			return deleteScalars(original, patch), nil
		}
		merged = dedupScalars(append(slices.Clip(original), patch...))
	} else {
		if mergeKey == "" {
			return nil, errors.New("cannot merge lists without merge key")
		}
		if original, patch, err = smpListDirectives(original, patch, mergeKey); err != nil {
			return nil, err
		}
		if merged, err = smpMergeByKey(original, patch, mergeKey, field.sub); err != nil {
			return nil, err
		}
	}
	var inPatch, serverOnly []any
	if mergeKey == "" {
		inPatch, serverOnly = partitionScalars(merged, patch)
	} else if inPatch, serverOnly, err = partitionByKey(merged, patch, mergeKey); err != nil {
		return nil, err
	}
	return smpNormalizeOrder(inPatch, serverOnly, patch, original, mergeKey, isMap)
}

// listOfObjects reports whether the items of the lists are objects; all items must share one
// JSON type and lists of lists are refused, as upstream's sliceElementType.
func listOfObjects(lists ...[]any) (bool, error) {
	kind := ""
	for _, l := range lists {
		for _, v := range l {
			var k string
			switch v.(type) {
			case map[string]any:
				k = "object"
			case []any:
				return false, errSMPNoListOfLists
			case string:
				k = "string"
			case json.Number:
				k = "number"
			case bool:
				k = "bool"
			default:
				k = "null"
			}
			if kind != "" && k != kind {
				return false, fmt.Errorf("list element types are not identical: %v", smpGoValue(anyLists(lists)))
			}
			kind = k
		}
	}
	if kind == "" {
		return false, errors.New("no elements in any of the given slices")
	}
	if kind == "null" {
		return false, fmt.Errorf("list elements may not be null: %v", smpGoValue(anyLists(lists)))
	}
	return kind == "object", nil
}

// smpListDirectives applies the "$patch" elements of a patch list of objects: "delete"
// removes every original item with that merge key, "replace" makes the patch items the
// whole list. It returns the new original and the patch without directive elements.
func smpListDirectives(original, patch []any, mergeKey string) ([]any, []any, error) {
	rest := []any{}
	replace := false
	var deleted *valueSet // the merge keys of the "delete" directives, removed at the end
	for _, v := range patch {
		m := v.(map[string]any) // listOfObjects checked every item
		d, ok := m[smpDirective]
		if !ok {
			rest = append(rest, v)
			continue
		}
		switch d {
		case smpDelete:
			key, ok := m[mergeKey]
			if !ok {
				return nil, nil, errNoMergeKey(m, mergeKey)
			}
			if deleted == nil {
				for _, o := range original {
					if _, isMap := o.(map[string]any); !isMap {
						return nil, nil, errors.New("value for key is not a map")
					}
				}
				deleted = newValueSet(nil)
			}
			deleted.add(key)
		case smpReplace:
			replace = true
		case smpMerge:
			return nil, nil, errors.New("merging lists cannot yet be specified in the patch")
		default:
			return nil, nil, errSMPBadPatchType(d, m)
		}
	}
	if deleted != nil {
		kept := original[:0:0]
		for _, o := range original {
			if ov, has := o.(map[string]any)[mergeKey]; has && deleted.has(ov) {
				continue
			}
			kept = append(kept, o)
		}
		original = kept
	}
	if replace {
		return rest, nil, nil
	}
	return original, rest, nil
}

// smpMergeByKey merges each patch item into the original item with the same merge key, or
// appends it.
func smpMergeByKey(original, patch []any, mergeKey string, sub *smpSchema) ([]any, error) {
	idx := newKeyIndex(original, mergeKey)
	for _, v := range patch {
		pm := v.(map[string]any)
		key, ok := pm[mergeKey]
		if !ok {
			return nil, errNoMergeKey(pm, mergeKey)
		}
		i, err := idx.find(key)
		if err != nil {
			return nil, err
		}
		if i < 0 {
			original = append(original, v)
			idx.append(v)
			continue
		}
		merged, err := smpMergeMap(original[i].(map[string]any), pm, sub)
		if err != nil {
			return nil, err
		}
		original[i] = merged
	}
	return original, nil
}

// deleteScalars removes every value of toDelete from list.
func deleteScalars(list, toDelete []any) []any {
	del := newValueSet(toDelete)
	out := make([]any, 0, len(list))
	for _, v := range list {
		if !del.has(v) {
			out = append(out, v)
		}
	}
	return out
}

// dedupScalars keeps the first occurrence of each value.
func dedupScalars(list []any) []any {
	seen := newValueSet(nil)
	out := make([]any, 0, len(list))
	for _, v := range list {
		if !seen.has(v) {
			seen.add(v)
			out = append(out, v)
		}
	}
	return out
}

// partitionScalars splits list into the values present in by and the others.
func partitionScalars(list, by []any) (in, out []any) {
	set := newValueSet(by)
	in, out = make([]any, 0, len(list)), make([]any, 0, len(list))
	for _, v := range list {
		if set.has(v) {
			in = append(in, v)
		} else {
			out = append(out, v)
		}
	}
	return in, out
}

// partitionByKey splits a list of objects into those whose merge key appears in by and the
// others.
func partitionByKey(list, by []any, mergeKey string) (in, out []any, err error) {
	in, out = make([]any, 0, len(list)), make([]any, 0, len(list))
	keys := newKeyIndex(by, mergeKey)
	for _, v := range list {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, nil, fmt.Errorf("expected a map[string]interface {}, but received a %s", goTypeName(v))
		}
		key, ok := m[mergeKey]
		if !ok {
			return nil, nil, errNoMergeKey(m, mergeKey)
		}
		found, err := keys.has(key)
		if err != nil {
			return nil, nil, err
		}
		if found {
			in = append(in, v)
		} else {
			out = append(out, v)
		}
	}
	return in, out, nil
}

// splitDeletes separates "$patch": "delete" items from the others.
func splitDeletes(list []any) (keep, del []any, err error) {
	for _, v := range list {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, nil, fmt.Errorf("expected a map[string]interface {}, but received a %s", goTypeName(v))
		}
		if d, found := m[smpDirective]; found && d == smpDelete {
			del = append(del, v)
		} else {
			keep = append(keep, v)
		}
	}
	return keep, del, nil
}

// smpNormalizeOrder orders the merged list: patch items by patchOrder, server-only items by
// their old order, then the two interleaved so that each keeps its relative order and
// server-only items sit where the old list had them (upstream normalizeElementOrder).
func smpNormalizeOrder(patchItems, serverOnly, patchOrder, serverOrder []any, mergeKey string, isMap bool) ([]any, error) {
	patchItems, err := smpSortBy(patchItems, patchOrder, mergeKey, isMap)
	if err != nil {
		return nil, err
	}
	serverOnly, err = smpSortBy(serverOnly, serverOrder, mergeKey, isMap)
	if err != nil {
		return nil, err
	}
	server := newOrderPositions(serverOrder, mergeKey, isMap)
	out := make([]any, 0, len(patchItems)+len(serverOnly))
	i, j := 0, 0
	for i < len(serverOnly) || j < len(patchItems) {
		switch {
		case j >= len(patchItems):
			out = append(out, serverOnly[i])
			i++
		case i >= len(serverOnly):
			out = append(out, patchItems[j])
			j++
		default:
			li, ri := server.index(serverOnly[i]), server.index(patchItems[j])
			if li >= 0 && ri >= 0 && li < ri {
				out = append(out, serverOnly[i])
				i++
			} else {
				out = append(out, patchItems[j])
				j++
			}
		}
	}
	return out, nil
}

// smpSortBy sorts items by their position in order, with "$patch": "delete" items last.
// The comparison is upstream's, including its treatment of items missing from order (they
// move forward), and sort.SliceStable makes the result match upstream's exactly.
func smpSortBy(items, order []any, mergeKey string, isMap bool) ([]any, error) {
	var deletes []any
	if isMap {
		for _, l := range [][]any{items, order} {
			for _, v := range l {
				m, ok := v.(map[string]any)
				if !ok {
					return nil, fmt.Errorf("expected a map[string]interface {}, but received a %s", goTypeName(v))
				}
				if _, has := m[mergeKey]; !has {
					return nil, errNoMergeKey(m, mergeKey)
				}
			}
		}
		var err error
		if items, deletes, err = splitDeletes(items); err != nil {
			return nil, err
		}
	}
	pos := newOrderPositions(order, mergeKey, isMap)
	sort.SliceStable(items, func(a, b int) bool {
		ia, ib := pos.index(items[a]), pos.index(items[b])
		if ia >= 0 && ib >= 0 {
			return ia < ib
		}
		return true
	})
	return append(items, deletes...), nil
}

// anyLists turns lists into one JSON list, for smpGoValue.
func anyLists(lists [][]any) []any {
	out := make([]any, len(lists))
	for i, l := range lists {
		out[i] = l
	}
	return out
}
