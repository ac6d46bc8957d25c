package fieldmanager

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/typed"
)

// TestCh01_SSA_ConverterComparesAtEachVersion: with a Converter, a manager at another
// version loses (or conflicts on) the fields a write changed in that version's terms; an
// unreachable version's manager is dropped. Here v2's data.b is v1's data.a.
func TestCh01_SSA_ConverterComparesAtEachVersion(t *testing.T) {
	gvk := api.GroupVersionKind{Group: "g", Version: "v1", Kind: "Thing"}
	convert := func(o map[string]any, apiVersion string) (map[string]any, *typed.Atom, bool, error) {
		if apiVersion != "g/v2" {
			return nil, nil, false, nil
		}
		out, _ := api.DeepCopyJSONValue(o).(map[string]any)
		if out == nil {
			out = map[string]any{}
		}
		if d, ok := out["data"].(map[string]any); ok {
			if a, has := d["a"]; has {
				d["b"] = a
				delete(d, "a")
			}
		}
		out["apiVersion"] = apiVersion
		return out, typed.Deduced(), true, nil
	}
	fm := New(typed.Deduced(), gvk).WithVersions("g/v2", "g/v3").WithConverter(convert)
	live := obj(t, `{"apiVersion":"g/v1","kind":"Thing","metadata":{"name":"x","uid":"u","managedFields":[
		{"manager":"two","operation":"Apply","apiVersion":"g/v2","time":"2026-01-01T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:b":{}}}},
		{"manager":"three","operation":"Update","apiVersion":"g/v3","time":"2026-01-01T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:c":{}}}}]},
		"data":{"a":"1","c":"3"}}`)

	_, err := fm.Apply(live.DeepCopy(), obj(t, `{"apiVersion":"g/v1","kind":"Thing","metadata":{"name":"x"},"data":{"a":"2"}}`), "one", "", false, at(1))
	require.Error(t, err)
	assert.Equal(t, "Apply failed with 1 conflict: conflict with \"two\": .data.b", err.Error())

	changed := live.DeepCopy()
	changed.Object["data"] = map[string]any{"a": "2", "c": "3"}
	out, err := fm.Update(live.DeepCopy(), changed, "one", "", at(2))
	require.NoError(t, err)
	assert.Equal(t, []entrySummary{
		{"one", "Update", "g/v1", "", "2026-01-02T03:04:02Z", `{"f:data":{"f:a":{}}}`},
	}, entriesOf(t, out), "two lost data.b (v1's data.a); three, at a version out of reach, is dropped")
}
