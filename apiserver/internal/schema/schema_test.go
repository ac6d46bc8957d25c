package schema

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

var (
	podGVK    = api.GroupVersionKind{Version: "v1", Kind: "Pod"}
	deployGVK = api.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
)

// testDocument is a small hand-written OpenAPI v3 document in kube-openapi's shape: refs
// plain and wrapped in allOf, a recursive definition, a map, a free-form object and one
// that keeps unknown fields.
const testDocument = `{
  "openapi": "3.0.0",
  "components": {"schemas": {
    "io.example.v1.Widget": {
      "type": "object",
      "required": ["spec"],
      "properties": {
        "apiVersion": {"type": "string"}, "kind": {"type": "string"},
        "spec": {"allOf": [{"$ref": "#/components/schemas/io.example.v1.WidgetSpec"}], "default": {}},
        "extra": {"type": "object", "x-kubernetes-preserve-unknown-fields": true, "properties": {"n": {"type": "integer", "format": "int32"}}}
      },
      "x-kubernetes-group-version-kind": [{"group": "example.dev", "version": "v1", "kind": "Widget"}]
    },
    "io.example.v1.WidgetSpec": {
      "type": "object",
      "required": ["size"],
      "properties": {
        "size": {"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity"},
        "port": {"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.util.intstr.IntOrString"},
        "tags": {"type": "object", "additionalProperties": {"type": "string"}},
        "raw": {"type": "object"},
        "blob": {"type": "string", "format": "byte"},
        "ratio": {"type": "number", "format": "double"},
        "children": {"type": "array", "items": {"$ref": "#/components/schemas/io.example.v1.WidgetSpec"}}
      }
    },
    "io.k8s.apimachinery.pkg.api.resource.Quantity": {"oneOf": [{"type": "string"}, {"type": "number"}]},
    "io.k8s.apimachinery.pkg.util.intstr.IntOrString": {"format": "int-or-string", "oneOf": [{"type": "integer"}, {"type": "string"}]}
  }}
}`

var widgetGVK = api.GroupVersionKind{Group: "example.dev", Version: "v1", Kind: "Widget"}

func parseTestDocument(t testing.TB) *Definitions {
	t.Helper()
	d, err := ParseDefinitions([]byte(testDocument))
	require.NoError(t, err)
	return d
}

func TestCh01_SchemaForKind(t *testing.T) {
	tests := []struct {
		gvk  api.GroupVersionKind
		ok   bool
		name string
	}{
		{podGVK, true, "io.k8s.api.core.v1.Pod"},
		{deployGVK, true, "io.k8s.api.apps.v1.Deployment"},
		{api.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, true, "io.k8s.api.core.v1.ConfigMap"},
		{api.GroupVersionKind{Version: "v1", Kind: "Secret"}, true, "io.k8s.api.core.v1.Secret"},
		{api.GroupVersionKind{Version: "v1", Kind: "Bogus"}, false, ""},
		{api.GroupVersionKind{Group: "nope.dev", Version: "v1", Kind: "Pod"}, false, ""},
	}
	for _, tc := range tests {
		t.Run(tc.gvk.String(), func(t *testing.T) {
			s, ok := ForKind(tc.gvk)
			require.Equal(t, tc.ok, ok)
			if ok {
				assert.Equal(t, tc.name, s.Name)
				assert.Equal(t, KindObject, s.Kind)
				assert.Contains(t, s.GVKs, tc.gvk)
			}
		})
	}
}

func TestCh01_SchemaResolvesRefs(t *testing.T) {
	pod, ok := ForKind(podGVK)
	require.True(t, ok)
	spec := pod.Properties["spec"].Schema
	assert.Equal(t, "io.k8s.api.core.v1.PodSpec", spec.Name)
	assert.Equal(t, []string{"containers"}, spec.Required)
	containers := spec.Properties["containers"].Schema
	require.Equal(t, KindArray, containers.Kind)
	c := containers.Items
	assert.Equal(t, "io.k8s.api.core.v1.Container", c.Name)
	assert.Equal(t, []string{"name"}, c.Required)
	limits := c.Properties["resources"].Schema.Properties["limits"].Schema
	assert.Equal(t, KindMap, limits.Kind)
	assert.Equal(t, KindQuantity, limits.Values.Kind)
	port := c.Properties["ports"].Schema.Items.Properties["containerPort"].Schema
	assert.Equal(t, KindInteger, port.Kind)
	assert.Equal(t, "int32", port.Format)
	probePort := c.Properties["livenessProbe"].Schema.Properties["httpGet"].Schema.Properties["port"].Schema
	assert.Equal(t, KindIntOrString, probePort.Kind)
	meta := pod.Properties["metadata"].Schema
	assert.Equal(t, KindAny, meta.Properties["managedFields"].Schema.Items.Properties["fieldsV1"].Schema.Kind)
	assert.Equal(t, "date-time", meta.Properties["creationTimestamp"].Schema.Format)
	// Shared definitions are one node.
	initC := spec.Properties["initContainers"].Schema.Items
	assert.Same(t, c, initC)

	d := parseTestDocument(t)
	w, ok := d.ForKind(widgetGVK)
	require.True(t, ok)
	ws := w.Properties["spec"].Schema
	assert.Same(t, ws, ws.Properties["children"].Schema.Items, "a recursive definition points at itself")
	assert.Equal(t, KindFreeObject, ws.Properties["raw"].Schema.Kind)
	assert.True(t, w.Properties["extra"].Schema.PreservesUnknown())
	_, ok = d.Definition("io.example.v1.WidgetSpec")
	assert.True(t, ok)
}

func TestCh01_SchemaGroupVersionOfPath(t *testing.T) {
	tests := []struct {
		path string
		gv   string
		ok   bool
	}{
		{"api/v1", "v1", true},
		{"apis/apps/v1", "apps/v1", true},
		{"/openapi/v3/apis/batch/v1", "batch/v1", true},
		{"apis__apps__v1_openapi.json", "apps/v1", true},
		{"api__v1.json", "v1", true},
		{"apis/flowcontrol.apiserver.k8s.io/v1", "flowcontrol.apiserver.k8s.io/v1", true},
		{"version", "", false},
		{"apis/apps", "", false},
		{"api/", "", false},
	}
	for _, tc := range tests {
		gv, ok := groupVersionOf(tc.path)
		assert.Equal(t, tc.ok, ok, tc.path)
		assert.Equal(t, tc.gv, gv, tc.path)
	}
}

func TestCh01_SchemaGoType(t *testing.T) {
	pod, _ := ForKind(podGVK)
	spec := pod.Properties["spec"].Schema
	c := spec.Properties["containers"].Schema.Items
	tests := []struct {
		s    *Schema
		want string
	}{
		{pod, "v1.Pod"},
		{spec, "v1.PodSpec"},
		{spec.Properties["containers"].Schema, "[]v1.Container"},
		{spec.Properties["nodeSelector"].Schema, "map[string]string"},
		{spec.Properties["activeDeadlineSeconds"].Schema, "int64"},
		{spec.Properties["hostNetwork"].Schema, "bool"},
		{c.Properties["command"].Schema, "[]string"},
		{c.Properties["resources"].Schema.Properties["limits"].Schema, "v1.ResourceList"},
		{c.Properties["resources"].Schema.Properties["limits"].Schema.Values, "resource.Quantity"},
		{c.Properties["ports"].Schema.Items.Properties["containerPort"].Schema, "int32"},
		{pod.Properties["metadata"].Schema, "v1.ObjectMeta"},
		{pod.Properties["metadata"].Schema.Properties["creationTimestamp"].Schema, "v1.Time"},
		{c.Properties["livenessProbe"].Schema.Properties["httpGet"].Schema.Properties["port"].Schema, "intstr.IntOrString"},
		{&Schema{Kind: KindString, Format: "byte"}, "[]uint8"},
		{&Schema{Kind: KindNumber, Format: "double"}, "float64"},
		{&Schema{Kind: KindAny}, "interface {}"},
		{&Schema{Kind: KindFreeObject}, "map[string]interface {}"},
		{nil, "interface {}"},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, tc.s.GoType())
	}
	assert.Equal(t, "PodSpec", spec.StructName())
}

// TestCh01_SchemaForKindConcurrent loads documents from many goroutines at once: under
// -race this checks that the lazy loading is safe, and every caller sees the same node.
func TestCh01_SchemaForKindConcurrent(t *testing.T) {
	gvks := []api.GroupVersionKind{podGVK, deployGVK, {Group: "batch", Version: "v1", Kind: "Job"}}
	var wg sync.WaitGroup
	got := make([]*Schema, 24)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], _ = ForKind(gvks[i%len(gvks)])
		}()
	}
	wg.Wait()
	for i, s := range got {
		require.NotNil(t, s, i)
		assert.Same(t, got[i%len(gvks)], s)
	}
}

func ExampleForKind() {
	s, ok := ForKind(api.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"})
	fmt.Println(ok, s.Name)
	replicas := s.Properties["spec"].Schema.Properties["replicas"].Schema
	fmt.Println(replicas.GoType())
	fmt.Println(replicas.Check(JSONString, "3"))
	// Output:
	// true io.k8s.api.apps.v1.Deployment
	// int32
	// json: cannot unmarshal string into Go value of type int32
}

// TestCh01_SchemaInlineStructsMatchTheDocuments keeps the table of inline embedded structs
// honest: every definition it names exists, and every member it lists is a property.
func TestCh01_SchemaInlineStructsMatchTheDocuments(t *testing.T) {
	// The definition's document: the core one, or its group's (io.k8s.api.<group>.<v>.Kind).
	docFor := func(name string) *Definitions {
		gv := "v1"
		if parts := strings.Split(name, "."); len(parts) == 6 && parts[3] != "core" {
			gv = parts[3] + ".k8s.io/" + parts[4]
		}
		lazy, ok := index()[gv]
		require.True(t, ok, gv)
		d := lazy.get()
		require.NotNil(t, d)
		return d
	}
	for name, in := range inlineStructs {
		s, ok := docFor(name).Definition(name)
		require.True(t, ok, name)
		for _, m := range append(append([]string(nil), in.own...), in.promoted...) {
			assert.Contains(t, s.Properties, m, "%s.%s", name, m)
		}
		promoted := 0
		for m, p := range s.Properties {
			if p.Via != "" {
				promoted++
				assert.Equal(t, in.field, p.Via, "%s.%s", name, m)
			}
		}
		assert.Positive(t, promoted, name)
	}
}

// BenchmarkParseDefinitions is the cost of reading a whole document checked, as the tests
// do; a kind's first ForKind costs what BenchmarkFirstUse measures.
func BenchmarkParseDefinitions(b *testing.B) {
	for _, path := range []string{"api/v1", "apis/apps/v1"} {
		data, ok := Document(path)
		require.True(b, ok)
		b.Run(path, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := ParseDefinitions(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
