package patch

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// The strategic merge patch directives that act on a whole object level before its members
// merge: "$retainKeys" and "$setElementOrder/<list>", after upstream's
// applyRetainKeysDirective and mergePatchIntoOriginal. smpMergeMap calls them.

// smpDirectiveKey returns the list name after "<prefix>/".
func smpDirectiveKey(k, prefix string, bad error) (string, error) {
	head, rest, ok := strings.Cut(k, "/")
	if !ok || head != prefix {
		return "", bad
	}
	return rest, nil
}

// smpRetainKeysDirective applies "$retainKeys": original keeps only the listed keys, and
// every key the patch sets must be listed.
func smpRetainKeysDirective(original, patch map[string]any) error {
	rk, ok := patch[smpRetainKeys]
	if !ok {
		return nil
	}
	delete(patch, smpRetainKeys)
	list, ok := rk.([]any)
	if !ok {
		return errSMPBadRetainKeys
	}
	keep := map[string]bool{}
	for _, v := range list {
		if s, ok := v.(string); ok {
			keep[s] = true
		}
	}
	for k, v := range patch {
		if v == nil || strings.HasPrefix(k, smpDeleteFromPrimList) || strings.HasPrefix(k, smpSetElementOrder) {
			continue
		}
		if !keep[k] {
			return errSMPBadRetainKeys
		}
	}
	for k := range original {
		if !keep[k] {
			delete(original, k)
		}
	}
	return nil
}

// smpSetElementOrders handles every "$setElementOrder/<list>" of patch: the list is merged
// now, then ordered as the directive says, with items only the server has placed by their
// old order. Both the directive and the list leave patch afterwards.
func smpSetElementOrders(original, patch map[string]any, schema *smpSchema) error {
	for _, key := range slices.Sorted(maps.Keys(patch)) {
		if !strings.HasPrefix(key, smpSetElementOrder) {
			continue
		}
		orderV := patch[key]
		delete(patch, key)
		order, ok := orderV.([]any)
		if !ok {
			return fmt.Errorf("expected a []interface {}, but received a %s", goTypeName(orderV))
		}
		listKey, err := smpDirectiveKey(key, smpSetElementOrder, errSMPBadSetOrderList)
		if err != nil {
			return err
		}
		origV, foundOrig := original[listKey]
		patchV, foundPatch := patch[listKey]
		var origList, patchList []any
		if foundOrig {
			if origList, ok = origV.([]any); !ok {
				return fmt.Errorf("expected a []interface {}, but received a %s", goTypeName(origV))
			}
		}
		if foundPatch {
			if patchList, ok = patchV.([]any); !ok {
				return fmt.Errorf("expected a []interface {}, but received a %s", goTypeName(patchV))
			}
		}
		// Upstream looks the list up in the type before anything else: a name that is not a
		// list field of this level is refused even when there is nothing to order.
		if err := schema.checkListField(listKey); err != nil {
			return err
		}
		field := schema.lookup(listKey)
		if err := smpValidateSetOrder(patchList, order, field.mergeKey); err != nil {
			return err
		}
		var merged []any
		switch {
		case foundOrig && !foundPatch:
			merged = origList
		case !foundOrig && foundPatch:
			v, _ := smpRemoveDirectives(patchList)
			merged, _ = v.([]any)
		case foundOrig && foundPatch:
			if field.strategy == smpMerge {
				if merged, err = smpMergeList(origList, patchList, field, false); err != nil {
					return err
				}
			} else {
				merged = patchList
			}
		default:
			continue
		}
		var inOrder, serverOnly []any
		if field.mergeKey == "" {
			inOrder, serverOnly = partitionScalars(merged, order)
		} else if inOrder, serverOnly, err = partitionByKey(merged, order, field.mergeKey); err != nil {
			return err
		}
		isMap, err := listOfObjects(origList, patchList)
		if err != nil {
			return err
		}
		both, err := smpNormalizeOrder(inOrder, serverOnly, order, origList, field.mergeKey, isMap)
		if err != nil {
			return err
		}
		original[listKey] = both
		delete(patch, listKey)
	}
	return nil
}

// smpValidateSetOrder checks that the patch list's items (deletions aside) appear in the
// $setElementOrder list in the same relative order.
func smpValidateSetOrder(patchList, order []any, mergeKey string) error {
	if len(order) == 0 || len(patchList) == 0 {
		return nil
	}
	items := patchList
	if mergeKey != "" {
		var err error
		if items, _, err = splitDeletes(patchList); err != nil {
			return err
		}
	}
	p, o := 0, 0
	for p < len(items) && o < len(order) {
		if hasDirective(items[p]) {
			p++
			continue
		}
		eq, err := sameMergeKey(items[p], order[o], mergeKey)
		if err != nil {
			return err
		}
		if eq {
			p++
		}
		o++
	}
	if p < len(items) && o >= len(order) {
		//lint:ignore ST1005 the text is upstream's, capital letter and trailing newline included
		return fmt.Errorf("The order in patch list:\n%v\n doesn't match %s list:\n%v\n", smpGoValue(patchList), smpSetElementOrder, smpGoValue(order))
	}
	return nil
}

func hasDirective(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	_, found := m[smpDirective]
	return found
}

// sameMergeKey compares two list items by merge key, or as scalars without one.
func sameMergeKey(a, b any, mergeKey string) (bool, error) {
	if mergeKey == "" {
		return jsonScalarEqual(a, b), nil
	}
	am, ok := a.(map[string]any)
	if !ok {
		return false, fmt.Errorf("expected a map[string]interface {}, but received a %s", goTypeName(a))
	}
	bm, ok := b.(map[string]any)
	if !ok {
		return false, fmt.Errorf("expected a map[string]interface {}, but received a %s", goTypeName(b))
	}
	av, ok := am[mergeKey]
	if !ok {
		return false, errNoMergeKey(am, mergeKey)
	}
	bv, ok := bm[mergeKey]
	if !ok {
		return false, errNoMergeKey(bm, mergeKey)
	}
	return jsonScalarEqual(av, bv), nil
}
