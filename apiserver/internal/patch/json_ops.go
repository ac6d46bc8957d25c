package patch

import (
	"encoding/json"
	"fmt"
	"strings"
)

// ApplyJSONPatchOps applies an RFC 6902 patch to a JSON document as the JSON patch of a
// request does, but returns the failing operation's own error (json-patch's text), as the
// mutating admission policies report it, where a PATCH request keeps only a generic 422.
// testFailed reports a failed test operation, which leaves a policy's object unchanged.
func ApplyJSONPatchOps(original, patch []byte) (out []byte, testFailed bool, err error) {
	ops, err := decodeJSONPatch(patch)
	if err != nil {
		return nil, false, err
	}
	doc, err := decodeJSONTree(original)
	if err != nil {
		return nil, false, err
	}
	copied := 0
	for _, op := range ops {
		if doc, err = applyJSONPatchOp(doc, op, &copied); err != nil {
			return nil, op.op == "test" && strings.HasPrefix(err.Error(), "testing value"), opError(op, err)
		}
	}
	out, err = json.Marshal(doc)
	return out, false, err
}

// opError words the errors json-patch v4 (the library the policies use) wraps with the
// operation and path; the others keep the text a PATCH request would have.
func opError(op jsonPatchOp, err error) error {
	if key, ok := strings.CutPrefix(err.Error(), "unable to remove nonexistent key: "); ok && op.op == "remove" {
		return fmt.Errorf("error in remove for path: '%s': Unable to remove nonexistent key: %s: missing value", op.path, key)
	}
	return err
}
