package patch

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/informer-lab/informer-lab/api"
)

// maxJSONPatchOperations mirrors the constant of the same name in apiserver
// endpoints/handlers/patch.go (docs/behaviour/wire.md E48).
const maxJSONPatchOperations = 10000

// maxJSONPatchCopyBytes mirrors the apiserver's default JSONPatchMaxCopyBytes: "copy"
// operations may grow a document by at most this much in total, so that a short patch cannot
// blow an object up exponentially.
const maxJSONPatchCopyBytes = 3 * 1024 * 1024

// jsonPatchOp is one decoded RFC 6902 operation.
type jsonPatchOp struct {
	op, path, from string
	hasPath        bool
	hasFrom        bool
	value          any // nil when absent: adds and tests a JSON null, as upstream
}

// applyJSONPatch applies an RFC 6902 JSON patch to the JSON document original, as the real
// server does through gopkg.in/evanphx/json-patch.v4 (docs/behaviour/wire.md X1, X5):
//
//   - a body that is not JSON → 400 "invalid JSON patch" (E23); JSON that is not a list of
//     operation objects → 400 with the decode error;
//   - more than 10000 operations → 413 "Request entity too large: The allowed maximum
//     operations in a JSON patch is 10000, got N" (E48);
//   - an operation that fails (missing path, failed test, bad index, unknown op) → 422
//     Invalid "the server rejected our request due to an error in our request" (E24); like
//     the real server, the Status does not say which operation failed.
//
// Pointers follow RFC 6901 (~1 is '/', ~0 is '~'); "-" appends to an array. As in
// json-patch v4, negative array indices count from the end, "add" at the root path "" is
// refused and "replace" at "" swaps the whole document. Numbers keep their exact text.
func applyJSONPatch(original, patch []byte) ([]byte, error) {
	if !json.Valid(patch) {
		return nil, api.NewBadRequest("invalid JSON patch")
	}
	ops, err := decodeJSONPatch(patch)
	if err != nil {
		return nil, api.NewBadRequest(err.Error())
	}
	if len(ops) > maxJSONPatchOperations {
		return nil, api.NewRequestEntityTooLargeError(fmt.Sprintf(
			"The allowed maximum operations in a JSON patch is %d, got %d", maxJSONPatchOperations, len(ops)))
	}
	doc, err := decodeJSONTree(original)
	if err != nil {
		return nil, api.NewBadRequest(err.Error())
	}
	copied := 0
	for _, op := range ops {
		if doc, err = applyJSONPatchOp(doc, op, &copied); err != nil {
			return nil, jsonPatchFailed(err)
		}
	}
	out, err := json.Marshal(doc)
	if err != nil {
		return nil, api.NewInternalError(err)
	}
	return out, nil
}

// jsonPatchFailed is the 422 of a failed operation; upstream keeps only the generic text.
func jsonPatchFailed(error) error {
	return api.NewGenericServerResponse(http.StatusUnprocessableEntity, "", api.GroupResource{}, "", "", 0, false)
}

// decodeJSONPatch reads the operation list. The texts copy what encoding/json says about
// json-patch's Patch ([]Operation) and Operation (map of raw members) types.
func decodeJSONPatch(patch []byte) ([]jsonPatchOp, error) {
	v, err := decodeJSONTree(patch)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, nil // null decodes as an empty patch upstream
	}
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("json: cannot unmarshal %s into Go value of type jsonpatch.Patch", jsonTypeName(v))
	}
	ops := make([]jsonPatchOp, 0, len(list))
	for _, item := range list {
		if item == nil {
			ops = append(ops, jsonPatchOp{})
			continue
		}
		m, ok := item.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("json: cannot unmarshal %s into Go value of type jsonpatch.Operation", jsonTypeName(item))
		}
		var op jsonPatchOp
		op.op, _ = m["op"].(string)
		op.path, op.hasPath = m["path"].(string)
		op.from, op.hasFrom = m["from"].(string)
		op.value = m["value"]
		ops = append(ops, op)
	}
	return ops, nil
}

// applyJSONPatchOp applies one operation and returns the (possibly new) root.
func applyJSONPatchOp(doc any, op jsonPatchOp, copied *int) (any, error) {
	switch op.op {
	case "add", "remove", "replace", "move", "copy", "test":
	default:
		kind := op.op
		if kind == "" {
			kind = "unknown"
		}
		return nil, fmt.Errorf("unexpected kind: %s", kind)
	}
	if !op.hasPath {
		return nil, fmt.Errorf("%s operation missing path field", op.op)
	}
	switch op.op {
	case "add":
		return pointerAdd(doc, op.path, deepCopyJSON(op.value))
	case "remove":
		_, root, err := pointerRemove(doc, op.path)
		return root, err
	case "replace":
		if op.path == "" {
			switch op.value.(type) {
			case map[string]any, []any:
				return deepCopyJSON(op.value), nil
			}
			return nil, errors.New("replace operation value must be object or array")
		}
		if _, err := pointerGet(doc, op.path); err != nil {
			return nil, fmt.Errorf("replace operation does not apply: %w", err)
		}
		return pointerSet(doc, op.path, deepCopyJSON(op.value))
	case "move":
		if !op.hasFrom {
			return nil, errors.New("move operation missing from field")
		}
		val, root, err := pointerRemove(doc, op.from)
		if err != nil {
			return nil, err
		}
		return pointerAdd(root, op.path, val)
	case "copy":
		if !op.hasFrom {
			return nil, errors.New("copy operation missing from field")
		}
		val, err := pointerGet(doc, op.from)
		if err != nil {
			return nil, err
		}
		b, _ := json.Marshal(val)
		if *copied += len(b); *copied > maxJSONPatchCopyBytes {
			return nil, fmt.Errorf("the accumulated size increase of copy is %d, exceeding the limit %d", *copied, maxJSONPatchCopyBytes)
		}
		return pointerAdd(doc, op.path, deepCopyJSON(val))
	default: // test
		var got any = doc
		if op.path != "" {
			v, err := pointerGet(doc, op.path)
			if err != nil {
				return nil, err
			}
			got = v
		}
		if !jsonEqual(got, op.value) {
			return nil, fmt.Errorf("testing value %s failed", op.path)
		}
		return doc, nil
	}
}

// splitPointer turns an RFC 6901 pointer into unescaped tokens. "" is the root (no tokens).
func splitPointer(p string) ([]string, error) {
	if p == "" {
		return nil, nil
	}
	if p[0] != '/' {
		return nil, fmt.Errorf("JSON pointer %q does not start with '/'", p)
	}
	parts := strings.Split(p[1:], "/")
	for i, s := range parts {
		if strings.Contains(s, "~") {
			parts[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
		}
	}
	return parts, nil
}

// arrayIndex parses an index token for an array of length n. allowEnd accepts n itself
// (insertion at the end); negative indices count from the end, as json-patch v4 allows.
func arrayIndex(tok string, n int, allowEnd bool) (int, error) {
	i, err := strconv.Atoi(tok)
	if err != nil {
		return 0, fmt.Errorf("value was not a proper array index: '%s'", tok)
	}
	limit := n
	if allowEnd {
		limit = n + 1
	}
	if i < 0 {
		if i < -limit {
			return 0, fmt.Errorf("unable to access invalid index: %d", i)
		}
		i += limit
	}
	if i >= limit {
		return 0, fmt.Errorf("unable to access invalid index: %d", i)
	}
	return i, nil
}

// parentOf walks to the container holding the last token of p.
func parentOf(doc any, p string) (parent any, last string, err error) {
	toks, err := splitPointer(p)
	if err != nil {
		return nil, "", err
	}
	if len(toks) == 0 {
		return nil, "", fmt.Errorf("doc is missing path: %q", p)
	}
	cur := doc
	for _, t := range toks[:len(toks)-1] {
		switch c := cur.(type) {
		case map[string]any:
			next, ok := c[t]
			if !ok || next == nil {
				return nil, "", fmt.Errorf("doc is missing path: %q", p)
			}
			cur = next
		case []any:
			i, err := arrayIndex(t, len(c), false)
			if err != nil {
				return nil, "", fmt.Errorf("doc is missing path: %q", p)
			}
			cur = c[i]
		default:
			return nil, "", fmt.Errorf("doc is missing path: %q", p)
		}
	}
	return cur, toks[len(toks)-1], nil
}

func pointerGet(doc any, p string) (any, error) {
	if p == "" {
		return doc, nil
	}
	parent, last, err := parentOf(doc, p)
	if err != nil {
		return nil, err
	}
	switch c := parent.(type) {
	case map[string]any:
		v, ok := c[last]
		if !ok {
			return nil, fmt.Errorf("doc is missing key: %q", p)
		}
		return v, nil
	case []any:
		i, err := arrayIndex(last, len(c), false)
		if err != nil {
			return nil, err
		}
		return c[i], nil
	}
	return nil, fmt.Errorf("doc is missing path: %q", p)
}

// replaceIn rebuilds the chain of containers from the root so that a changed array (a new
// slice header) is stored back into its parent. It applies fn to the container at the end
// of toks and returns the new root.
func replaceIn(cur any, toks []string, fn func(container any) (any, error)) (any, error) {
	if len(toks) == 0 {
		return fn(cur)
	}
	switch c := cur.(type) {
	case map[string]any:
		next, err := replaceIn(c[toks[0]], toks[1:], fn)
		if err != nil {
			return nil, err
		}
		c[toks[0]] = next
		return c, nil
	case []any:
		i, err := arrayIndex(toks[0], len(c), false)
		if err != nil {
			return nil, err
		}
		next, err := replaceIn(c[i], toks[1:], fn)
		if err != nil {
			return nil, err
		}
		c[i] = next
		return c, nil
	}
	return nil, errors.New("doc is missing path")
}

// containerOp finds the parent of p (checking it exists) and applies fn to it.
func containerOp(doc any, p string, fn func(container any, last string) (any, error)) (any, error) {
	if _, _, err := parentOf(doc, p); err != nil {
		return nil, err
	}
	toks, _ := splitPointer(p)
	last := toks[len(toks)-1]
	return replaceIn(doc, toks[:len(toks)-1], func(c any) (any, error) { return fn(c, last) })
}

func pointerAdd(doc any, p string, val any) (any, error) {
	if p == "" {
		return nil, errors.New("add operation does not apply: doc is missing path: \"\"")
	}
	return containerOp(doc, p, func(c any, last string) (any, error) {
		switch t := c.(type) {
		case map[string]any:
			t[last] = val
			return t, nil
		case []any:
			if last == "-" {
				return append(t, val), nil
			}
			i, err := arrayIndex(last, len(t), true)
			if err != nil {
				return nil, err
			}
			out := make([]any, 0, len(t)+1)
			out = append(out, t[:i]...)
			out = append(out, val)
			return append(out, t[i:]...), nil
		}
		return nil, fmt.Errorf("add operation does not apply: doc is missing path: %q", p)
	})
}

func pointerSet(doc any, p string, val any) (any, error) {
	return containerOp(doc, p, func(c any, last string) (any, error) {
		switch t := c.(type) {
		case map[string]any:
			t[last] = val
			return t, nil
		case []any:
			i, err := arrayIndex(last, len(t), false)
			if err != nil {
				return nil, err
			}
			t[i] = val
			return t, nil
		}
		return nil, fmt.Errorf("doc is missing path: %q", p)
	})
}

func pointerRemove(doc any, p string) (removed, root any, err error) {
	if p == "" {
		return nil, nil, errors.New("remove operation does not apply: doc is missing path: \"\"")
	}
	root, err = containerOp(doc, p, func(c any, last string) (any, error) {
		switch t := c.(type) {
		case map[string]any:
			v, ok := t[last]
			if !ok {
				return nil, fmt.Errorf("unable to remove nonexistent key: %s", last)
			}
			removed = v
			delete(t, last)
			return t, nil
		case []any:
			i, err := arrayIndex(last, len(t), false)
			if err != nil {
				return nil, err
			}
			removed = t[i]
			out := make([]any, 0, len(t)-1)
			out = append(out, t[:i]...)
			return append(out, t[i+1:]...), nil
		}
		return nil, fmt.Errorf("doc is missing path: %q", p)
	})
	return removed, root, err
}
