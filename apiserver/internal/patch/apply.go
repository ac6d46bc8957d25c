package patch

import (
	"encoding/json"

	"github.com/informer-lab/informer-lab/api"
	"gopkg.in/yaml.v3"
)

// AppliedConfiguration reads the body of an apply patch (docs/behaviour/wire.md X4) as the real apply
// patcher does, YAML or JSON (JSON is YAML), and returns it as a JSON object: the applied
// configuration the field manager merges by ownership (apiserver's apply.go). Nulls stay:
// an applied null is a field the applier sets to nothing.
func AppliedConfiguration(patch []byte) ([]byte, error) {
	var pv any
	if json.Valid(patch) {
		var err error
		if pv, err = decodeJSONTree(patch); err != nil {
			return nil, api.NewBadRequest("error decoding patch: " + err.Error())
		}
	} else {
		var y any
		if err := yaml.Unmarshal(patch, &y); err != nil {
			return nil, api.NewBadRequest("error decoding YAML: " + err.Error())
		}
		var err error
		if pv, err = jsonFromYAML(y); err != nil {
			return nil, api.NewBadRequest("error decoding YAML: " + err.Error())
		}
	}
	if _, ok := pv.(map[string]any); !ok {
		return nil, api.NewBadRequest("error decoding patch: an apply patch must be a JSON object, got " + jsonTypeName(pv))
	}
	return json.Marshal(pv)
}

// jsonFromYAML turns what yaml.v3 decodes into what encoding/json can write: maps keyed by
// strings only.
func jsonFromYAML(v any) (any, error) {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			c, err := jsonFromYAML(e)
			if err != nil {
				return nil, err
			}
			t[k] = c
		}
		return t, nil
	case map[any]any:
		return nil, &json.UnsupportedTypeError{}
	case []any:
		for i, e := range t {
			c, err := jsonFromYAML(e)
			if err != nil {
				return nil, err
			}
			t[i] = c
		}
	}
	return v, nil
}
