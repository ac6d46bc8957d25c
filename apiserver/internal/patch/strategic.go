package patch

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/informer-lab/informer-lab/api"
)

// This file implements the server side of Kubernetes strategic merge patch (SMP), after
// apimachinery pkg/util/strategicpatch (mergeMap and friends) as the real patch handler
// calls it: MergeParallelList and IgnoreUnmatchedNulls on. The patch metadata upstream
// reads by reflection comes from the OpenAPI documents (strategic_openapi.go,
// strategic_schema.go), the directives $retainKeys and $setElementOrder are in
// strategic_directives.go, list merging and ordering in strategic_lists.go.

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

// applyStrategicMergePatch applies a Kubernetes strategic merge patch to original, a JSON
// object of kind (docs/behaviour/wire.md X1, X3). It mirrors strategicPatchObject in apiserver
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
//     unknown $patch value, a "$setElementOrder/<name>" whose name is not a list field of
//     the Go type at that level) → 500 reason "" with the SMP text, as upstream, numbers
//     printed as the int64 or float64 upstream decodes them to;
//   - what upstream ignores is ignored: a "$deleteFromPrimitiveList/<list>" whose value is
//     not a list, or names a field the object lacks, deletes nothing;
//   - a kind no embedded OpenAPI document defines, as a custom resource, → 415 listing the
//     other patch types (E22).
//
// Numbers keep their exact text; the result is compact JSON with sorted keys.
func applyStrategicMergePatch(original, patch []byte, gvk api.GroupVersionKind) ([]byte, error) {
	return smpApply(original, patch, smpSchemaFor(gvk))
}

// smpApply is applyStrategicMergePatch with the schema looked up; nil means 415.
func smpApply(original, patch []byte, schema *smpSchema) ([]byte, error) {
	if schema == nil {
		return nil, unsupported(withoutStrategic)
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
func smpMergeMap(original, patch map[string]any, schema *smpSchema) (map[string]any, error) {
	if d, ok := patch[smpDirective]; ok {
		switch d {
		case smpReplace:
			delete(patch, smpDirective)
			return patch, nil
		case smpDelete:
			return map[string]any{}, nil
		}
		return nil, errSMPBadPatchType(d, patch)
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
	for _, k := range slices.Sorted(maps.Keys(patch)) {
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

func errNoMergeKey(m map[string]any, key string) error {
	return fmt.Errorf("map: %v does not contain declared merge key: %s", smpGoValue(m), key)
}

// errSMPBadPatchType is upstream's answer to a "$patch" it does not know. It formats the
// value with %s, so anything but a string prints as %!s(int64=1) and the like: the message
// a client sees from the real server.
func errSMPBadPatchType(directive any, m map[string]any) error {
	return fmt.Errorf("unknown patch type: %s in map: %v", smpGoValue(directive), smpGoValue(m))
}

// smpGoValue converts a decoded JSON value to the Go values upstream holds when it formats
// an error: the patch handler decodes integers as int64 and other numbers as float64
// (sigs.k8s.io/json's UnmarshalCaseSensitivePreserveInts), and so does the unstructured
// form of the stored object. Objects and lists are copied, not changed.
func smpGoValue(v any) any {
	switch t := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(t), 10, 64); err == nil {
			return i
		}
		if f, err := t.Float64(); err == nil {
			return f
		}
		return string(t)
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = smpGoValue(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = smpGoValue(e)
		}
		return out
	}
	return v
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
		if _, ok := smpGoValue(v).(int64); ok {
			return "int64"
		}
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
