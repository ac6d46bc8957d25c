package apiserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"

	"github.com/informer-lab/informer-lab/api"
)

// This file implements the server side of Kubernetes strategic merge patch (SMP), after
// apimachinery pkg/util/strategicpatch (mergeMap and friends) as the real patch handler
// calls it: MergeParallelList and IgnoreUnmatchedNulls on. The Go struct tags
// patchStrategy/patchMergeKey that upstream reads by reflection are written out below as a
// small schema per kind, taken from k8s.io/api core/v1 and apimachinery meta/v1.

// The SMP directives.
const (
	smpDirective          = "$patch"
	smpRetainKeys         = "$retainKeys"
	smpDeleteFromPrimList = "$deleteFromPrimitiveList"
	smpSetElementOrder    = "$setElementOrder"
	smpReplace            = "replace"
	smpDelete             = "delete"
	smpMerge              = "merge"
)

// smpSchema describes the fields of one object level that do not use the default
// strategy (objects merge, lists are replaced). Fields it does not list use the default.
type smpSchema map[string]smpField

// smpField is one field's patch metadata: strategy "merge" or "replace" (or "" for the
// default), the merge key of a list of objects, and the schema of its object or elements.
type smpField struct {
	strategy string
	mergeKey string
	sub      smpSchema
}

func (s smpSchema) lookup(key string) smpField {
	if s == nil {
		return smpField{}
	}
	return s[key]
}

var (
	smpObjectMeta = smpSchema{
		"finalizers":      {strategy: smpMerge},
		"ownerReferences": {strategy: smpMerge, mergeKey: "uid"},
	}
	smpContainer = smpSchema{
		"ports":         {strategy: smpMerge, mergeKey: "containerPort"},
		"env":           {strategy: smpMerge, mergeKey: "name"},
		"volumeMounts":  {strategy: smpMerge, mergeKey: "mountPath"},
		"volumeDevices": {strategy: smpMerge, mergeKey: "devicePath"},
	}
	smpPodSpec = smpSchema{
		"volumes":                   {strategy: smpMerge, mergeKey: "name"}, // also retainKeys
		"initContainers":            {strategy: smpMerge, mergeKey: "name", sub: smpContainer},
		"containers":                {strategy: smpMerge, mergeKey: "name", sub: smpContainer},
		"ephemeralContainers":       {strategy: smpMerge, mergeKey: "name", sub: smpContainer},
		"imagePullSecrets":          {strategy: smpMerge, mergeKey: "name"},
		"hostAliases":               {strategy: smpMerge, mergeKey: "ip"},
		"topologySpreadConstraints": {strategy: smpMerge, mergeKey: "topologyKey"},
		"schedulingGates":           {strategy: smpMerge, mergeKey: "name"},
		"resourceClaims":            {strategy: smpMerge, mergeKey: "name"}, // also retainKeys
		"evictionResponders":        {strategy: smpMerge, mergeKey: "name"},
	}
	smpPodStatus = smpSchema{
		"conditions":                           {strategy: smpMerge, mergeKey: "type"},
		"hostIPs":                              {strategy: smpMerge, mergeKey: "ip"},
		"podIPs":                               {strategy: smpMerge, mergeKey: "ip"},
		"resourceClaimStatuses":                {strategy: smpMerge, mergeKey: "name"},
		"nodeAllocatableResourceClaimStatuses": {strategy: smpMerge, mergeKey: "resourceClaimName"},
	}
	// smpSchemas holds the kinds SMP serves; any other kind gets 415, as custom resources do.
	smpSchemas = map[string]smpSchema{
		"Pod": {
			"metadata": {sub: smpObjectMeta},
			"spec":     {sub: smpPodSpec},
			"status":   {sub: smpPodStatus},
		},
		"ConfigMap": {"metadata": {sub: smpObjectMeta}},
		"Namespace": {
			"metadata": {sub: smpObjectMeta},
			"status":   {sub: smpSchema{"conditions": {strategy: smpMerge, mergeKey: "type"}}},
		},
	}
)

// The errors of apimachinery pkg/util/mergepatch that the patch handler maps to 400 or 422
// (interpretStrategicMergePatchError); every other SMP error becomes a 500.
var (
	errSMPBadPrimitiveList  = errors.New("invalid patch format of primitive list")
	errSMPBadRetainKeys     = errors.New("invalid patch format of retainKeys")
	errSMPBadSetOrderList   = errors.New("invalid patch format of setElementOrder list")
	errSMPNoListOfLists     = errors.New("lists of lists are not supported")
	errSMPRetainKeysContent = errors.New("patch content doesn't match retainKeys list")
)

// smpStatus maps an SMP error to the Status the real handler sends.
func smpStatus(err error) error {
	switch {
	case errors.Is(err, errSMPBadPrimitiveList), errors.Is(err, errSMPBadRetainKeys), errors.Is(err, errSMPBadSetOrderList):
		return api.NewBadRequest(err.Error())
	case errors.Is(err, errSMPNoListOfLists), errors.Is(err, errSMPRetainKeysContent):
		return api.NewGenericServerResponse(http.StatusUnprocessableEntity, "", api.GroupResource{}, "", err.Error(), 0, false)
	}
	return api.ErrorToAPIStatus(err)
}

// patchTypesWithoutSMP are the patch types of an endpoint that cannot do SMP (custom
// resources), as the 415 lists them (wire spec X1, E22).
var patchTypesWithoutSMP = []string{"application/json-patch+json", "application/merge-patch+json", "application/apply-patch+yaml"}

// applyStrategicMergePatch applies a Kubernetes strategic merge patch to original, a JSON
// object of kind (wire spec X1, X3). It mirrors strategicPatchObject in apiserver
// endpoints/handlers/patch.go and StrategicMergeMapPatch in apimachinery
// pkg/util/strategicpatch:
//
//   - objects merge member by member, null deletes; lists are replaced, except lists with
//     the merge strategy: lists of objects merge by their merge key (pod
//     spec.containers/initContainers/ephemeralContainers, volumes, imagePullSecrets and
//     schedulingGates by name, containers[].ports by containerPort, env by name,
//     volumeMounts by mountPath, status.conditions by type, metadata.ownerReferences by
//     uid, …) and lists of scalars (metadata.finalizers) merge as a set;
//   - directives: "$patch": "replace" | "delete" on an object or a list element,
//     "$retainKeys", "$setElementOrder/<list>", "$deleteFromPrimitiveList/<list>";
//   - a body that is not JSON → 400 "invalid JSON patch" (E23), JSON that is not an object
//     → 400; malformed directives → 400; a list of lists → 422; other failures (no merge key,
//     unknown $patch value) → 500 reason "" with the SMP text, as upstream;
//   - a kind without a schema here (anything but Pod, ConfigMap and Namespace) → 415
//     listing the other patch types, as a custom resource answers (E22).
//
// Numbers keep their exact text; the result is compact JSON with sorted keys.
func applyStrategicMergePatch(original, patch []byte, kind string) ([]byte, error) {
	schema, ok := smpSchemas[kind]
	if !ok {
		return nil, api.NewUnsupportedMediaType(patchTypesWithoutSMP)
	}
	if !json.Valid(patch) {
		return nil, api.NewBadRequest("invalid JSON patch")
	}
	pv, err := decodeJSONTree(patch)
	if err != nil {
		return nil, api.NewBadRequest("invalid JSON patch")
	}
	var patchMap map[string]any
	switch p := pv.(type) {
	case map[string]any:
		patchMap = p
	case nil:
	default:
		return nil, api.NewBadRequest(fmt.Sprintf("json: cannot unmarshal %s into Go value of type map[string]interface {}", jsonTypeName(pv)))
	}
	ov, err := decodeJSONTree(original)
	if err != nil {
		return nil, api.NewInternalError(fmt.Errorf("decoding the stored object: %w", err))
	}
	orig, ok := ov.(map[string]any)
	if !ok {
		return nil, api.NewInternalError(errors.New("the stored object is not a JSON object"))
	}
	merged, err := smpMergeMap(orig, patchMap, schema)
	if err != nil {
		return nil, smpStatus(err)
	}
	out, err := json.Marshal(merged)
	if err != nil {
		return nil, api.NewInternalError(err)
	}
	return out, nil
}

// smpMergeMap merges patch into original (both may be changed) and returns the result.
func smpMergeMap(original, patch map[string]any, schema smpSchema) (map[string]any, error) {
	if d, ok := patch[smpDirective]; ok {
		switch d {
		case smpReplace:
			delete(patch, smpDirective)
			return patch, nil
		case smpDelete:
			return map[string]any{}, nil
		}
		return nil, fmt.Errorf("unknown patch type: %v in map: %v", d, patch)
	}
	if original == nil {
		original = map[string]any{}
	}
	if err := smpRetainKeysDirective(original, patch); err != nil {
		return nil, err
	}
	if err := smpSetElementOrders(original, patch, schema); err != nil {
		return nil, err
	}
	// Upstream walks the patch in Go map order; sorted keys make the result deterministic
	// where that order could matter (a list and its deletion list in one patch).
	for _, k := range sortedStringKeys(patch) {
		patchV := patch[k]
		isDeleteList := false
		if strings.HasPrefix(k, smpDeleteFromPrimList) {
			key, err := smpDirectiveKey(k, smpDeleteFromPrimList, errSMPBadPrimitiveList)
			if err != nil {
				return nil, err
			}
			k, isDeleteList = key, true
		}
		if patchV == nil {
			delete(original, k)
			continue
		}
		origV, ok := original[k]
		if !ok || !sameJSONKind(origV, patchV) {
			if !isDeleteList {
				discardNulls(patchV)
				if v, keep := smpRemoveDirectives(patchV); keep {
					original[k] = v
				} else {
					delete(original, k)
				}
			}
			continue
		}
		field := schema.lookup(k)
		var err error
		switch ov := origV.(type) {
		case map[string]any:
			if field.strategy == smpReplace {
				original[k] = patchV
				continue
			}
			original[k], err = smpMergeMap(ov, patchV.(map[string]any), field.sub)
		case []any:
			if field.strategy != smpMerge && !isDeleteList {
				original[k] = patchV
				continue
			}
			original[k], err = smpMergeList(ov, patchV.([]any), field, isDeleteList)
		default:
			original[k] = patchV
		}
		if err != nil {
			return nil, err
		}
	}
	return original, nil
}

// sameJSONKind reports whether a and b have the same JSON type, upstream's reflect.TypeOf
// comparison: an object replaces a string, a list replaces an object, and so on.
func sameJSONKind(a, b any) bool {
	switch a.(type) {
	case map[string]any:
		_, ok := b.(map[string]any)
		return ok
	case []any:
		_, ok := b.([]any)
		return ok
	case string:
		_, ok := b.(string)
		return ok
	case json.Number:
		_, ok := b.(json.Number)
		return ok
	case bool:
		_, ok := b.(bool)
		return ok
	}
	return a == nil && b == nil
}

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
func smpSetElementOrders(original, patch map[string]any, schema smpSchema) error {
	for _, key := range sortedStringKeys(patch) {
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
		return fmt.Errorf("The order in patch list:\n%v\n doesn't match %s list:\n%v\n", patchList, smpSetElementOrder, order)
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

func errNoMergeKey(m map[string]any, key string) error {
	return fmt.Errorf("map: %v does not contain declared merge key: %s", m, key)
}

// goTypeName prints a decoded JSON value's Go type as upstream's ErrBadArgType does.
func goTypeName(v any) string {
	switch v.(type) {
	case map[string]any:
		return "map[string]interface {}"
	case []any:
		return "[]interface {}"
	case string:
		return "string"
	case json.Number:
		return "float64"
	case bool:
		return "bool"
	}
	return "%!s(<nil>)"
}

// jsonScalarEqual is == for JSON values that never panics: objects and lists compare deeply.
func jsonScalarEqual(a, b any) bool {
	switch a.(type) {
	case map[string]any, []any:
		return jsonEqual(a, b)
	}
	switch b.(type) {
	case map[string]any, []any:
		return false
	}
	return a == b
}

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
				return false, fmt.Errorf("list element types are not identical: %v", lists)
			}
			kind = k
		}
	}
	if kind == "" {
		return false, errors.New("no elements in any of the given slices")
	}
	if kind == "null" {
		return false, fmt.Errorf("list elements may not be null: %v", lists)
	}
	return kind == "object", nil
}

// smpListDirectives applies the "$patch" elements of a patch list of objects: "delete"
// removes every original item with that merge key, "replace" makes the patch items the
// whole list. It returns the new original and the patch without directive elements.
func smpListDirectives(original, patch []any, mergeKey string) ([]any, []any, error) {
	rest := []any{}
	replace := false
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
			kept := original[:0:0]
			for _, o := range original {
				om, isMap := o.(map[string]any)
				if !isMap {
					return nil, nil, errors.New("value for key is not a map")
				}
				if ov, has := om[mergeKey]; has && jsonScalarEqual(ov, key) {
					continue
				}
				kept = append(kept, o)
			}
			original = kept
		case smpReplace:
			replace = true
		case smpMerge:
			return nil, nil, errors.New("merging lists cannot yet be specified in the patch")
		default:
			return nil, nil, fmt.Errorf("unknown patch type: %v in map: %v", d, m)
		}
	}
	if replace {
		return rest, nil, nil
	}
	return original, rest, nil
}

// smpMergeByKey merges each patch item into the original item with the same merge key, or
// appends it.
func smpMergeByKey(original, patch []any, mergeKey string, sub smpSchema) ([]any, error) {
	for _, v := range patch {
		pm := v.(map[string]any)
		key, ok := pm[mergeKey]
		if !ok {
			return nil, errNoMergeKey(pm, mergeKey)
		}
		i, err := findByKey(original, mergeKey, key)
		if err != nil {
			return nil, err
		}
		if i < 0 {
			original = append(original, v)
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

// findByKey is the index of the object in list whose mergeKey equals key, or -1.
func findByKey(list []any, mergeKey string, key any) (int, error) {
	for i, v := range list {
		m, ok := v.(map[string]any)
		if !ok {
			return -1, fmt.Errorf("value for key %v is not a map", i)
		}
		if mv, has := m[mergeKey]; has && jsonScalarEqual(mv, key) {
			return i, nil
		}
	}
	return -1, nil
}

// deleteScalars removes every value of toDelete from list.
func deleteScalars(list, toDelete []any) []any {
	out := make([]any, 0, len(list))
	for _, v := range list {
		if !slices.ContainsFunc(toDelete, func(d any) bool { return jsonScalarEqual(d, v) }) {
			out = append(out, v)
		}
	}
	return out
}

// dedupScalars keeps the first occurrence of each value.
func dedupScalars(list []any) []any {
	out := make([]any, 0, len(list))
	for _, v := range list {
		if !slices.ContainsFunc(out, func(o any) bool { return jsonScalarEqual(o, v) }) {
			out = append(out, v)
		}
	}
	return out
}

// partitionScalars splits list into the values present in by and the others.
func partitionScalars(list, by []any) (in, out []any) {
	in, out = make([]any, 0, len(list)), make([]any, 0, len(list))
	for _, v := range list {
		if slices.ContainsFunc(by, func(b any) bool { return jsonScalarEqual(b, v) }) {
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
	for _, v := range list {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, nil, fmt.Errorf("expected a map[string]interface {}, but received a %s", goTypeName(v))
		}
		key, ok := m[mergeKey]
		if !ok {
			return nil, nil, errNoMergeKey(m, mergeKey)
		}
		i, err := findByKey(by, mergeKey, key)
		if err != nil {
			return nil, nil, err
		}
		if i >= 0 {
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

// orderIndex is the position of v in order, comparing merge keys for objects; -1 if absent.
func orderIndex(order []any, v any, mergeKey string, isMap bool) int {
	key := func(x any) any {
		if !isMap {
			return x
		}
		m, ok := x.(map[string]any)
		if !ok {
			return nil
		}
		return m[mergeKey]
	}
	want := key(v)
	for i, o := range order {
		if jsonScalarEqual(key(o), want) {
			return i
		}
	}
	return -1
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
			li := orderIndex(serverOrder, serverOnly[i], mergeKey, isMap)
			ri := orderIndex(serverOrder, patchItems[j], mergeKey, isMap)
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
	sort.SliceStable(items, func(a, b int) bool {
		ia := orderIndex(order, items[a], mergeKey, isMap)
		ib := orderIndex(order, items[b], mergeKey, isMap)
		if ia >= 0 && ib >= 0 {
			return ia < ib
		}
		return true
	})
	return append(items, deletes...), nil
}

// smpRemoveDirectives strips "$patch" objects from a value that is being added whole: an
// object carrying "$patch" is dropped (keep false), lists lose such items.
func smpRemoveDirectives(v any) (any, bool) {
	switch t := v.(type) {
	case map[string]any:
		if _, ok := t[smpDirective]; ok {
			return nil, false
		}
		for k, e := range t {
			if ne, keep := smpRemoveDirectives(e); keep {
				t[k] = ne
			} else {
				delete(t, k)
			}
		}
		return t, true
	case []any:
		out := make([]any, 0, len(t))
		for _, e := range t {
			if ne, keep := smpRemoveDirectives(e); keep {
				out = append(out, ne)
			}
		}
		return out, true
	}
	return v, true
}

// discardNulls deletes null members of objects at any depth (IgnoreUnmatchedNulls).
func discardNulls(v any) {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			if e == nil {
				delete(t, k)
			} else {
				discardNulls(e)
			}
		}
	case []any:
		for _, e := range t {
			discardNulls(e)
		}
	}
}
