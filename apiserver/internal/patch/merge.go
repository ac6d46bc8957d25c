package patch

import (
	"encoding/json"

	"github.com/informer-lab/informer-lab/api"
)

// applyMergePatch applies an RFC 7386 JSON merge patch to the JSON document original, as the
// real server does through json-patch v4's MergePatch (docs/behaviour/wire.md X1):
//
//   - a body that is not JSON → 400 "invalid JSON patch" (E23, the handler's check);
//   - JSON null or a scalar → 400 "Invalid JSON Patch" (json-patch's own error);
//   - an object merges member by member: null deletes, an object merges recursively into an
//     object (or replaces anything else, with its nulls dropped), anything else replaces;
//   - lists are replaced whole, never merged (that is what strategic merge patch adds);
//   - a top-level array replaces the whole document (with nulls dropped inside its objects).
//
// Numbers keep their exact text. The result is compact JSON with sorted keys.
func applyMergePatch(original, patch []byte) ([]byte, error) {
	if !json.Valid(patch) {
		return nil, api.NewBadRequest("invalid JSON patch")
	}
	p, err := decodeJSONTree(patch)
	if err != nil {
		return nil, api.NewBadRequest("invalid JSON patch")
	}
	var result any
	switch pv := p.(type) {
	case map[string]any:
		doc, err := decodeJSONTree(original)
		if err != nil {
			return nil, api.NewBadRequest("Invalid JSON Document")
		}
		result = mergeValue(doc, pv)
	case []any:
		result = pruneNulls(pv)
	default:
		return nil, api.NewBadRequest("Invalid JSON Patch")
	}
	out, err := json.Marshal(result)
	if err != nil {
		return nil, api.NewInternalError(err)
	}
	return out, nil
}

// mergeValue merges patch into target per RFC 7386 and returns the result. target may be
// changed in place.
func mergeValue(target, patch any) any {
	pm, ok := patch.(map[string]any)
	if !ok {
		return pruneNulls(patch)
	}
	tm, ok := target.(map[string]any)
	if !ok {
		return pruneNulls(pm)
	}
	for k, v := range pm {
		if v == nil {
			delete(tm, k)
			continue
		}
		if cur, ok := tm[k]; ok && cur != nil {
			tm[k] = mergeValue(cur, v)
		} else {
			tm[k] = pruneNulls(v)
		}
	}
	return tm
}

// pruneNulls drops null members of objects, at any depth, as a merge patch value that lands
// where nothing was must not store nulls. Nulls inside arrays stay, as upstream.
func pruneNulls(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			if e == nil {
				delete(t, k)
			} else {
				t[k] = pruneNulls(e)
			}
		}
	case []any:
		for i, e := range t {
			if e != nil {
				t[i] = pruneNulls(e)
			}
		}
	}
	return v
}
