package openapi

import (
	"encoding/hex"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCh01_NodeKeepsOrderAndNumbers(t *testing.T) {
	tests := []struct{ name, in, out, html string }{
		{"member order", `{"b":1,"a":[true,null,"x"]}`, `{"b":1,"a":[true,null,"x"]}`, ""},
		{"number text", `[1.50,1e3,-0,12345678901234567890]`, `[1.50,1e3,-0,12345678901234567890]`, ""},
		{"escapes", `"a\"b\\c\n\t\u0001é"`, `"a\"b\\c\n\t\u0001é"`, ""},
		{"html", `"<a & b>"`, `"<a & b>"`, `"\u003ca \u0026 b\u003e"`},
		{"line separators", "\"\u2028\"", "\"\u2028\"", `"\u2028"`},
		{"empty", `{"a":{},"b":[]}`, `{"a":{},"b":[]}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := Parse([]byte(tt.in))
			require.NoError(t, err)
			assert.Equal(t, tt.out, string(n.JSON()))
			html := tt.html
			if html == "" {
				html = tt.out
			}
			assert.Equal(t, html, string(n.JSONHTMLEscaped()))
		})
	}
	_, err := Parse([]byte(`{} {}`))
	assert.Error(t, err)
}

func TestCh01_SchemaOrderAndV2Form(t *testing.T) {
	tests := []struct{ name, v3, v2 string }{
		{"keywords in kube-openapi's order, extensions last",
			`{"x-b":1,"properties":{"z":{"type":"string"},"a":{"type":"integer"}},"type":"object","description":"d","x-a":2}`,
			`{"description":"d","type":"object","properties":{"a":{"type":"integer"},"z":{"type":"string"}},"x-a":2,"x-b":1}`},
		{"a wrapped $ref unwraps, defaults go",
			`{"allOf":[{"$ref":"#/components/schemas/io.k8s.X"}],"default":{},"description":"d"}`,
			`{"description":"d","$ref":"#/definitions/io.k8s.X"}`},
		{"deep", `{"items":{"additionalProperties":{"default":"","type":"string"},"type":"object"},"type":"array"}`,
			`{"type":"array","items":{"type":"object","additionalProperties":{"type":"string"}}}`},
		{"an allOf of two stays", `{"allOf":[{"$ref":"#/components/schemas/A"},{"$ref":"#/components/schemas/B"}]}`,
			`{"allOf":[{"$ref":"#/definitions/A"},{"$ref":"#/definitions/B"}]}`},
		{"a property named default stays", `{"properties":{"default":{"type":"string","default":"x"}}}`,
			`{"properties":{"default":{"type":"string"}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := Parse([]byte(tt.v3))
			require.NoError(t, err)
			toV2(n)
			assert.Equal(t, tt.v2, string(n.JSON()))
		})
	}
}

func TestCh01_CustomResourceSchemaForms(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		v3, v2 string // the spec property as published
	}{
		{"int-or-string gets its anyOf in v3 only", `{"x-kubernetes-int-or-string":true}`,
			`{"anyOf":[{"type":"integer"},{"type":"string"}],"x-kubernetes-int-or-string":true}`,
			`{"x-kubernetes-int-or-string":true}`},
		{"an int-or-string with another anyOf gets it as first allOf", `{"x-kubernetes-int-or-string":true,"anyOf":[{"minimum":1},{"pattern":"x"}]}`,
			`{"allOf":[{"anyOf":[{"type":"integer"},{"type":"string"}]}],"anyOf":[{"minimum":1},{"pattern":"x"}],"x-kubernetes-int-or-string":true}`,
			`{"x-kubernetes-int-or-string":true}`},
		{"nullable loses its type and members in v2", `{"type":"array","nullable":true,"items":{"type":"string"}}`,
			`{"type":"array","nullable":true,"items":{"type":"string"}}`, `{}`},
		{"an object keeping unknown fields loses type and properties in v2",
			`{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{"a":{"type":"string"}}}`,
			`{"type":"object","properties":{"a":{"type":"string"}},"x-kubernetes-preserve-unknown-fields":true}`,
			`{"x-kubernetes-preserve-unknown-fields":true}`},
		{"false flags and empty lists go, a false default stays",
			`{"type":"boolean","default":false,"nullable":false,"enum":[],"description":""}`,
			`{"type":"boolean","default":false}`, `{"type":"boolean"}`},
		{"keywords a structural schema lacks go", `{"type":"string","x-custom":1,"id":"x"}`,
			`{"type":"string"}`, `{"type":"string"}`},
		{"a nullable required member is no longer required in v2",
			`{"type":"object","required":["a","b"],"properties":{"a":{"type":"string","nullable":true},"b":{"type":"string"}}}`,
			`{"type":"object","required":["a","b"],"properties":{"a":{"type":"string","nullable":true},"b":{"type":"string"}}}`,
			`{"type":"object","required":["b"],"properties":{"a":{},"b":{"type":"string"}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var spec map[string]any
			require.NoError(t, json.Unmarshal([]byte(tt.schema), &spec))
			c := CustomResource{Group: "g.example.com", Version: "v1", Kind: "K", ListKind: "KList", Plural: "ks",
				Schema: map[string]any{"type": "object", "properties": map[string]any{"spec": spec}}}
			v3, _ := c.Definitions(false)
			v2, _ := c.Definitions(true)
			assert.Equal(t, tt.v3, string(v3.Get("properties").Get("spec").JSON()), "v3")
			assert.Equal(t, tt.v2, string(v2.Get("properties").Get("spec").JSON()), "v2")
		})
	}
	root := CustomResource{Group: "g.example.com", Version: "v1", Kind: "K", ListKind: "KList", Plural: "ks",
		Schema: map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}}
	v2, list := root.Definitions(true)
	assert.Equal(t, `{"type":"object","x-kubernetes-group-version-kind":[{"group":"g.example.com","kind":"K","version":"v1"}]}`, string(v2.JSON()))
	assert.Equal(t, "#/definitions/com.example.g.v1.K", list.Get("properties").Get("items").Get("items").Get("$ref").Text)
}

func TestCh01_OperationIDs(t *testing.T) {
	tests := []struct{ group, version, id, tag string }{
		{"", "v1", "CoreV1", "core_v1"},
		{"apps", "v1", "AppsV1", "apps_v1"},
		{"rbac.authorization.k8s.io", "v1", "RbacAuthorizationV1", "rbacAuthorization_v1"},
		{"flowcontrol.apiserver.k8s.io", "v1", "FlowcontrolApiserverV1", "flowcontrolApiserver_v1"},
		{"samplecontroller.k8s.io", "v1alpha1", "SamplecontrollerV1alpha1", "samplecontroller_v1alpha1"},
		{"cert-manager.io", "v1", "CertManagerIoV1", "certManagerIo_v1"},
	}
	for _, tt := range tests {
		id, tag := operationGroup(tt.group, tt.version)
		assert.Equal(t, tt.id, id, tt.group)
		assert.Equal(t, tt.tag, tag, tt.group)
	}
}

func TestCh01_ToProtoWire(t *testing.T) {
	tests := []struct{ name, doc, hex string }{
		// swagger (1) "2.0", info (2) {title (1) "t", version (2) "v"}, paths (8) {}.
		{"minimal", `{"swagger":"2.0","info":{"title":"t","version":"v"},"paths":{}}`,
			"0a03322e30" + "1206" + "0a0174120176" + "4200"},
		// definitions (9) {additional_properties (1) {name (1) "A", value (2) Schema{
		// type (22) {value (1) "object"}, additionalProperties (21) {boolean (2) false}}}}.
		{"schema", `{"swagger":"2.0","info":{"title":"t","version":"v"},"paths":{},"definitions":{"A":{"type":"object","additionalProperties":false}}}`,
			"0a03322e30" + "12060a0174120176" + "4200" + "4a17" + "0a15" + "0a0141" + "1210" + "aa01021000" + "b201080a066f626a656374"},
		// A vendor extension is an Any whose YAML text is field 2.
		{"extension", `{"swagger":"2.0","info":{"title":"t","version":"v"},"paths":{},"x-a":[1]}`,
			"0a03322e30" + "12060a0174120176" + "4200" + "82010d" + "0a03782d61" + "1206" + "12042d20310a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := Parse([]byte(tt.doc))
			require.NoError(t, err)
			got, err := ToProto(n)
			require.NoError(t, err)
			assert.Equal(t, tt.hex, hex.EncodeToString(got))
		})
	}
}

func TestCh01_ToProtoRefusesWhatGnosticRefuses(t *testing.T) {
	const head = `{"swagger":"2.0","info":{"title":"t","version":"v"},"paths":{}`
	tests := []struct{ name, doc, err string }{
		{"unknown top-level keyword", head + `,"bogus":1}`, "invalid property: bogus"},
		{"swagger version", `{"swagger":"3.0","info":{"title":"t","version":"v"},"paths":{}}`, "unexpected value for swagger"},
		{"missing info", `{"swagger":"2.0","paths":{}}`, "missing required property: info"},
		{"oneOf in a schema", head + `,"definitions":{"A":{"oneOf":[]}}}`, "invalid property: oneOf"},
		{"nullable in a schema", head + `,"definitions":{"A":{"nullable":true}}}`, "invalid property: nullable"},
		{"integer keyword with a fraction", head + `,"definitions":{"A":{"maxLength":1.5}}}`, "unexpected value"},
		{"a path not starting with /", `{"swagger":"2.0","info":{"title":"t","version":"v"},"paths":{"a":{}}}`, "invalid property: a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := Parse([]byte(tt.doc))
			require.NoError(t, err)
			_, err = ToProto(n)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.err)
		})
	}
}
