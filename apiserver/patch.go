package apiserver

import (
	"encoding/json"
	"strings"

	"github.com/informer-lab/informer-lab/api"
)

// Patch types, as patchTypeFromContentType returns them.
const (
	patchTypeJSON      = "json"
	patchTypeMerge     = "merge"
	patchTypeStrategic = "strategic"
	patchTypeApply     = "apply"
)

// patchContentTypes maps each PATCH Content-Type the real server accepts to our patch type,
// in the order the real 415 lists them (installer.go supportedTypes).
var patchContentTypes = []struct{ contentType, patchType string }{
	{"application/json-patch+json", patchTypeJSON},
	{"application/merge-patch+json", patchTypeMerge},
	{"application/strategic-merge-patch+json", patchTypeStrategic},
	{"application/apply-patch+yaml", patchTypeApply},
}

// patchTypeFromContentType mirrors the Content-Type check of PatchResource in apiserver
// endpoints/handlers/patch.go: parameters after ';' are dropped, the rest must be one of the
// four patch media types exactly (case and spaces count, as upstream). It returns "json",
// "merge", "strategic" or "apply"; anything else, an empty Content-Type included, is 415
// UnsupportedMediaType listing the accepted types (wire spec X1, E22).
func patchTypeFromContentType(ct string) (string, error) {
	if i := strings.IndexByte(ct, ';'); i > 0 {
		ct = ct[:i]
	}
	for _, p := range patchContentTypes {
		if p.contentType == ct {
			return p.patchType, nil
		}
	}
	accepted := make([]string, len(patchContentTypes))
	for i, p := range patchContentTypes {
		accepted[i] = p.contentType
	}
	return "", api.NewUnsupportedMediaType(accepted)
}

// applyPatch applies patch to original (the stored object's JSON) by patchType, as the patch
// handler's mechanisms do (wire spec X1–X5): "json" → applyJSONPatch, "merge" →
// applyMergePatch, "strategic" → applyStrategicMergePatch for built-in kinds (builtin false
// means a registered custom kind, which gets 415 like a real custom resource), "apply" →
// applyApplyPatch. An unknown patchType is 415. It returns the patched JSON; the caller
// decodes it, checks name and resourceVersion (E17, E20) and stores it. Errors are *api.Status.
func applyPatch(patchType string, original, patch []byte, kind string, builtin bool) ([]byte, error) {
	switch patchType {
	case patchTypeJSON:
		return applyJSONPatch(original, patch)
	case patchTypeMerge:
		return applyMergePatch(original, patch)
	case patchTypeStrategic:
		if !builtin {
			return nil, api.NewUnsupportedMediaType(patchTypesWithoutSMP)
		}
		return applyStrategicMergePatch(original, patch, kind)
	case patchTypeApply:
		return applyApplyPatch(original, patch)
	}
	_, err := patchTypeFromContentType("")
	return nil, err
}

// applyApplyPatch is the simulator's stand-in for server-side apply (wire spec X4): the
// applied configuration is merged into original as a JSON merge patch, so fields it sets
// win, fields it omits stay, and lists it carries replace the stored ones. original may be
// empty (the object does not exist yet and the caller creates it from the result). Real SSA
// also tracks field managers, removes fields a manager stopped applying and reports
// conflicts; none of that is modelled. The real server accepts YAML or JSON bodies; this one
// takes JSON only (kubectl --server-side sends JSON), and a YAML body gets a 400 saying so.
func applyApplyPatch(original, patch []byte) ([]byte, error) {
	if !json.Valid(patch) {
		return nil, api.NewBadRequest("error decoding patch: the simulated apiserver accepts application/apply-patch+yaml bodies in JSON only; YAML apply bodies are not supported")
	}
	pv, err := decodeJSONTree(patch)
	if err != nil {
		return nil, api.NewBadRequest("error decoding patch: " + err.Error())
	}
	if _, ok := pv.(map[string]any); !ok {
		return nil, api.NewBadRequest("error decoding patch: an apply patch must be a JSON object, got " + jsonTypeName(pv))
	}
	if len(strings.TrimSpace(string(original))) == 0 {
		original = []byte("{}")
	}
	return applyMergePatch(original, patch)
}
