package openapi

import (
	"encoding/json"
	"os"
	"testing"

	"gopkg.in/yaml.v3"
)

func TestTmpFix(t *testing.T) {
	data, err := os.ReadFile("/tmp/oa/fix/crd.yaml")
	if err != nil {
		t.Skip()
	}
	var crd map[string]any
	if err := yaml.Unmarshal(data, &crd); err != nil {
		t.Fatal(err)
	}
	j, _ := json.Marshal(crd)
	var m map[string]any
	_ = json.Unmarshal(j, &m)
	spec := m["spec"].(map[string]any)
	var d2 struct{ Definitions map[string]json.RawMessage }
	b, _ := os.ReadFile("/tmp/oa/fix/v2.json")
	_ = json.Unmarshal(b, &d2)
	for _, vv := range spec["versions"].([]any) {
		v := vv.(map[string]any)
		c := CustomResource{Group: "openapi.example.com", Version: v["name"].(string), Kind: "Widget", ListKind: "WidgetList", Plural: "widgets", Namespaced: true}
		c.Schema = v["schema"].(map[string]any)["openAPIV3Schema"].(map[string]any)
		if c.Version == "v1" {
			c.Status, c.Scale, c.SelectableFields = true, true, []string{".spec.color"}
		}
		var d3 struct {
			Components struct{ Schemas map[string]json.RawMessage }
		}
		b, _ := os.ReadFile("/tmp/oa/fix/v3-" + c.Version + ".json")
		_ = json.Unmarshal(b, &d3)
		comp, err := CustomResourceComponents([]CustomResource{c})
		if err != nil {
			t.Fatal(err)
		}
		for i, name := range comp.Get("schemas").Keys {
			if string(comp.Get("schemas").Values[i].JSONHTMLEscaped()) != string(d3.Components.Schemas[name]) {
				t.Errorf("v3 %s\n got %s\nwant %s", name, comp.Get("schemas").Values[i].JSON(), d3.Components.Schemas[name])
			}
		}
		if len(comp.Get("schemas").Keys) != len(d3.Components.Schemas) {
			t.Errorf("v3 %s: %d vs %d", c.Version, len(comp.Get("schemas").Keys), len(d3.Components.Schemas))
		}
		obj, list := c.Definitions(true)
		for name, n := range map[string]*Node{"com.example.openapi." + c.Version + ".Widget": obj, "com.example.openapi." + c.Version + ".WidgetList": list} {
			if string(n.JSON()) != string(d2.Definitions[name]) {
				t.Errorf("v2 %s\n got %s\nwant %s", name, n.JSON(), d2.Definitions[name])
			}
		}
	}
	want, _ := os.ReadFile("/tmp/oa/fix/v2.pb")
	n, _ := Parse(b)
	_ = n
	full, _ := os.ReadFile("/tmp/oa/fix/v2.json")
	n, _ = Parse(full)
	got, err := ToProto(n)
	if err != nil || string(got) != string(want) {
		t.Errorf("proto differs: %v", err)
	}
}

func TestTmpV3Builtin(t *testing.T) {
	for path, file := range map[string]string{"apis/apps/v1": "/tmp/oa/v3-apps.json", "apis/admissionregistration.k8s.io/v1": "/tmp/oa/v3-adm.json"} {
		var d3 struct {
			Components struct{ Schemas map[string]json.RawMessage }
		}
		b, err := os.ReadFile(file)
		if err != nil {
			t.Skip()
		}
		_ = json.Unmarshal(b, &d3)
		defs, err := DefinitionsV3(path)
		if err != nil {
			t.Fatal(err)
		}
		bad := 0
		for i, name := range defs.Keys {
			if string(defs.Values[i].JSONHTMLEscaped()) != string(d3.Components.Schemas[name]) {
				bad++
				if bad < 3 {
					t.Errorf("%s\n got %s\nwant %s", name, defs.Values[i].JSONHTMLEscaped(), d3.Components.Schemas[name])
				}
			}
		}
		t.Logf("%s: %d of %d differ (real has %d)", path, bad, len(defs.Keys), len(d3.Components.Schemas))
	}
}
