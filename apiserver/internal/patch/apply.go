package patch

import (
	"encoding/json"
	"strings"

	"github.com/informer-lab/informer-lab/api"
)

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
