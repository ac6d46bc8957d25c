package patch

import (
	"encoding/json"

	"github.com/informer-lab/informer-lab/api"
)

// ApplyJSONPatchDetailed applies an RFC 6902 patch as the mutating webhook dispatcher's
// jsonpatch.Patch.Apply does: unlike a PATCH request, whose Status keeps only a generic
// text, a failed operation's own error is returned (wrapped in an internal error by the
// caller).
func ApplyJSONPatchDetailed(original, patch []byte) ([]byte, error) {
	ops, err := decodeJSONPatch(patch)
	if err != nil {
		return nil, err
	}
	doc, err := decodeJSONTree(original)
	if err != nil {
		return nil, err
	}
	copied := 0
	for _, op := range ops {
		if doc, err = applyJSONPatchOp(doc, op, &copied); err != nil {
			return nil, err
		}
	}
	out, err := json.Marshal(doc)
	if err != nil {
		return nil, api.NewInternalError(err)
	}
	return out, nil
}
