package gen

import (
	"encoding/json"
	"testing"

	"github.com/informer-lab/informer-lab/conformance/runner"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAltQuantity(t *testing.T) {
	tests := []struct{ in, want string }{
		{"500m", "0.5"}, {"0.5", "500m"}, {"2", "2000m"}, {"1Gi", "1073741824"}, {"100Mi", "104857600"}, {"1k", "1000"},
	}
	for _, tt := range tests {
		got, ok := altQuantity(tt.in)
		assert.True(t, ok, tt.in)
		assert.Equal(t, tt.want, got, tt.in)
	}
	_, ok := altQuantity("lots")
	assert.False(t, ok)
}

// testSchemas builds a Schemas with one kind from a components map.
func testSchemas(t *testing.T, components string) Node {
	t.Helper()
	var c map[string]map[string]any
	require.NoError(t, json.Unmarshal([]byte(components), &c))
	d := &doc{schemas: c}
	return Node{d: d, m: c["Root"]}
}

func TestMutations(t *testing.T) {
	root := testSchemas(t, `{
	  "Root": {"type":"object","required":["spec"],"properties":{"spec":{"allOf":[{"$ref":"#/components/schemas/Spec"}]},"metadata":{"type":"object"}}},
	  "Spec": {"type":"object","required":["policy"],"properties":{
	    "policy":{"type":"string","enum":["A","B"]},
	    "replicas":{"type":"integer","format":"int32"},
	    "cpu":{"$ref":"#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity"},
	    "port":{"x-kubernetes-int-or-string":true},
	    "items":{"type":"array","items":{"$ref":"#/components/schemas/Item"}}}},
	  "Item": {"type":"object","properties":{"n":{"type":"integer"}}},
	  "io.k8s.apimachinery.pkg.api.resource.Quantity": {"type":"string"}
	}`)
	var obj map[string]any
	require.NoError(t, json.Unmarshal([]byte(`{"metadata":{"name":"x"},"spec":{"policy":"A","replicas":2,"cpu":"500m","port":"80","items":[{"n":1},{"n":2},{"n":3}]}}`), &obj))
	var variants []string
	for _, m := range Mutations(obj, root) {
		variants = append(variants, m.Variant)
	}
	assert.ElementsMatch(t, []string{
		"remove-required:spec", "remove-required:spec.policy", "quantity:spec.cpu",
		"negative:spec.items[].n", "huge:spec.items[].n", "enum:spec.policy", "int-or-string:spec.port",
		"negative:spec.replicas", "huge:spec.replicas",
	}, variants)

	for _, m := range Mutations(obj, root) {
		if m.Variant == "huge:spec.replicas" {
			got := m.Apply(obj)
			assert.Equal(t, 2147483648.0, got["spec"].(map[string]any)["replicas"])
			assert.Equal(t, 2.0, obj["spec"].(map[string]any)["replicas"], "the original is not changed")
		}
		if m.Variant == "remove-required:spec.policy" {
			_, has := m.Apply(obj)["spec"].(map[string]any)["policy"]
			assert.False(t, has)
		}
	}
}

func TestPrepareNames(t *testing.T) {
	ns := prepare(map[string]any{"metadata": map[string]any{"name": "a", "namespace": "prod"}}, Resource{GroupVersion: "v1", Kind: "ConfigMap", Plural: "configmaps", Namespaced: true})
	assert.Equal(t, "/api/v1/namespaces/__NS__/configmaps/a", ns.itemPath)
	assert.Equal(t, "__NS__", ns.obj["metadata"].(map[string]any)["namespace"])
	cl := prepare(map[string]any{"metadata": map[string]any{"name": "admin"}}, Resource{GroupVersion: "rbac.authorization.k8s.io/v1", Kind: "ClusterRole", Plural: "clusterroles"})
	assert.Equal(t, "/apis/rbac.authorization.k8s.io/v1/clusterroles/admin-__SFX__", cl.itemPath)
	gen := prepare(map[string]any{"metadata": map[string]any{"generateName": "x-"}}, Resource{GroupVersion: "v1", Kind: "Pod", Plural: "pods", Namespaced: true})
	assert.True(t, gen.generated)
	assert.Equal(t, "/api/v1/namespaces/__NS__/pods/${name}", gen.itemPath)
	crd := prepare(map[string]any{"metadata": map[string]any{"name": "foos.example.com"}, "spec": map[string]any{"group": "example.com", "names": map[string]any{"plural": "foos"}}},
		Resource{GroupVersion: "apiextensions.k8s.io/v1", Kind: "CustomResourceDefinition", Plural: "customresourcedefinitions"})
	assert.Equal(t, "foos.c__SFX__.example.com", crd.name)
	assert.Equal(t, "c__SFX__.example.com", crd.obj["spec"].(map[string]any)["group"])
}

func TestScenarioIDsUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Scenarios() {
		assert.False(t, seen[c.ID], c.ID)
		seen[c.ID] = true
		assert.NotEmpty(t, c.Steps, c.ID)
	}
	assert.Greater(t, len(seen), 100)
}

func TestSerialiseGlobalAllocations(t *testing.T) {
	cases := []runner.Case{
		{ID: "a", Steps: []runner.Step{{Body: []byte(`{"spec":{"ports":[{"port":80,"nodePort":30900}]}}`)}}},
		{ID: "b", Steps: []runner.Step{{Body: []byte(`{"spec":{"ports":[{"port":80,"nodePort":0}]}}`)}}},
		{ID: "c", Steps: []runner.Step{{Body: []byte(`{"spec":{"clusterIP":"10.0.0.9"}}`)}}},
		{ID: "d", Steps: []runner.Step{{Body: []byte(`{"spec":{"clusterIP":"None"}}`)}}},
		{ID: "e", Steps: []runner.Step{{Stdin: []byte(`{"spec":{"clusterIPs":["10.0.0.9"]}}`)}}},
	}
	assert.Equal(t, 3, SerialiseGlobalAllocations(cases))
	var serial []string
	for _, c := range cases {
		if c.Serial {
			serial = append(serial, c.ID)
		}
	}
	assert.Equal(t, []string{"a", "c", "e"}, serial)
}
