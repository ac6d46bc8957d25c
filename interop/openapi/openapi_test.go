package openapi

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"

	openapi_v2 "github.com/google/gnostic-models/openapiv2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	yamlv3 "go.yaml.in/yaml/v3"
	"google.golang.org/protobuf/proto"
	"k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/discovery"
	openapiproto "k8s.io/kube-openapi/pkg/util/proto"
	"k8s.io/kube-openapi/pkg/util/proto/validation"

	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/interop/internal/wiretest"
)

const protobufV2 = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf"

// manifests reads the main module's round-trip manifests: file name → JSON documents, the
// kind's object last.
func manifests(t *testing.T) map[string][][]byte {
	t.Helper()
	_, file, _, _ := goruntime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "apiserver", "testdata", "roundtrip")
	paths, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, paths)
	out := map[string][][]byte{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		r := yaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
		for {
			doc, err := r.Read()
			if err == io.EOF {
				break
			}
			require.NoError(t, err)
			js, err := yaml.ToJSON(doc)
			require.NoError(t, err)
			if s := strings.TrimSpace(string(js)); s != "" && s != "null" {
				out[strings.TrimSuffix(filepath.Base(p), ".yaml")] = append(out[strings.TrimSuffix(filepath.Base(p), ".yaml")], js)
			}
		}
	}
	return out
}

func get(t *testing.T, url, accept string) []byte {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	require.NoError(t, err)
	req.Header.Set("Accept", accept)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", body)
	return body
}

// startWithCRD serves a simulator holding the round-trip manifests' CRD, so the documents
// carry a custom resource too.
func startWithCRD(t *testing.T) *wiretest.Env {
	t.Helper()
	env := wiretest.Start(t, apiserver.Options{})
	crd := manifests(t)["apiextensions.k8s.io_customresourcedefinition"]
	require.NotEmpty(t, crd)
	resp, err := http.Post(env.URL+"/apis/apiextensions.k8s.io/v1/customresourcedefinitions", "application/json", bytes.NewReader(crd[len(crd)-1]))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusCreated, resp.StatusCode)
	return env
}

func TestCh01_OpenAPIV2ProtobufIsGnostics(t *testing.T) {
	env := startWithCRD(t)
	js := get(t, env.URL+"/openapi/v2", "application/json")
	pb := get(t, env.URL+"/openapi/v2", protobufV2)
	doc, err := openapi_v2.ParseDocument(js)
	require.NoError(t, err)
	want, err := proto.Marshal(doc)
	require.NoError(t, err)
	require.True(t, bytes.Equal(want, pb), "the protobuf answer differs from gnostic's (%d and %d bytes)", len(want), len(pb))

	dc, err := discovery.NewDiscoveryClientForConfig(wiretest.RESTConfig(env.URL))
	require.NoError(t, err)
	read, err := dc.OpenAPISchema()
	require.NoError(t, err)
	var defs struct {
		Definitions map[string]json.RawMessage `json:"definitions"`
	}
	require.NoError(t, json.Unmarshal(js, &defs))
	assert.Len(t, read.GetDefinitions().GetAdditionalProperties(), len(defs.Definitions))
}

// models reads the document as kubectl does (NewOpenAPIData) and indexes its definitions
// by the group-version-kind they declare, as kubectl's openapi.Resources does.
func models(t *testing.T, env *wiretest.Env) (openapiproto.Models, map[string]string) {
	t.Helper()
	dc, err := discovery.NewDiscoveryClientForConfig(wiretest.RESTConfig(env.URL))
	require.NoError(t, err)
	doc, err := dc.OpenAPISchema()
	require.NoError(t, err)
	m, err := openapiproto.NewOpenAPIData(doc)
	require.NoError(t, err, "kubectl's reader takes every definition")
	byGVK := map[string]string{}
	for _, d := range doc.GetDefinitions().GetAdditionalProperties() {
		for _, ext := range d.GetValue().GetVendorExtension() {
			if ext.GetName() != "x-kubernetes-group-version-kind" {
				continue
			}
			var gvks []map[string]string
			require.NoError(t, yamlv3.Unmarshal([]byte(ext.GetValue().GetYaml()), &gvks), d.GetName())
			for _, g := range gvks {
				byGVK[g["group"]+"/"+g["version"]+"/"+g["kind"]] = d.GetName()
			}
		}
	}
	return m, byGVK
}

// TestCh01_OpenAPIV2ClientSideValidation runs kubectl's client-side validation over every
// round-trip manifest: valid as written, and an unknown field (at the top and in spec)
// reported as unknown, with the definition it is not in.
func TestCh01_OpenAPIV2ClientSideValidation(t *testing.T) {
	env := startWithCRD(t)
	m, byGVK := models(t, env)
	for name, docs := range manifests(t) {
		t.Run(name, func(t *testing.T) {
			var obj map[string]any
			require.NoError(t, json.Unmarshal(docs[len(docs)-1], &obj))
			gv, _ := obj["apiVersion"].(string)
			group, version, ok := strings.Cut(gv, "/")
			if !ok {
				group, version = "", gv
			}
			kind := obj["kind"].(string)
			def, ok := byGVK[group+"/"+version+"/"+kind]
			require.True(t, ok, "no definition declares %s %s", gv, kind)
			schema := m.LookupModel(def)
			require.NotNil(t, schema, def)
			assert.Empty(t, validation.ValidateModel(obj, schema, kind), "the manifest as written")

			obj["bogusField"] = "x"
			if spec, ok := obj["spec"].(map[string]any); ok {
				spec["bogusSpecField"] = "x"
			}
			errs := validation.ValidateModel(obj, schema, kind)
			text := ""
			for _, e := range errs {
				text += e.Error() + "\n"
			}
			assert.Contains(t, text, `unknown field "bogusField" in `+def)
			if _, ok := obj["spec"].(map[string]any); ok {
				assert.Contains(t, text, `unknown field "bogusSpecField"`)
			}
		})
	}
}

// TestCh01_OpenAPIV2ExplainPaths walks what kubectl explain --output=plaintext-openapiv2
// walks: pods.spec.containers down to a container's image, a Role's rules, and the custom
// resource's spec.
func TestCh01_OpenAPIV2ExplainPaths(t *testing.T) {
	env := startWithCRD(t)
	m, byGVK := models(t, env)
	tests := []struct {
		gvk  string
		path []string
	}{
		{"/v1/Pod", []string{"spec", "containers", "image"}},
		{"apps/v1/Deployment", []string{"spec", "template", "spec", "containers", "resources", "limits"}},
		{"db.example.com/v1/Backup", []string{"spec", "retentionDays"}},
	}
	for _, tt := range tests {
		def, ok := byGVK[tt.gvk]
		require.True(t, ok, tt.gvk)
		s := m.LookupModel(def)
		for _, field := range tt.path {
			s = fieldOf(t, s, field)
		}
		assert.NotNil(t, s, "%s %v", tt.gvk, tt.path)
	}
}

// fieldOf returns a field's schema, through references, arrays and maps as explain does.
func fieldOf(t *testing.T, s openapiproto.Schema, name string) openapiproto.Schema {
	t.Helper()
	for {
		switch x := s.(type) {
		case *openapiproto.Ref:
			s = x.SubSchema()
			continue
		case *openapiproto.Array:
			s = x.SubType
			continue
		case *openapiproto.Map:
			return x.SubType
		case *openapiproto.Kind:
			f, ok := x.Fields[name]
			require.True(t, ok, "%s has no field %s", x.GetPath(), name)
			return f
		}
		t.Fatalf("%s: cannot look up %s in %T", s.GetPath(), name, s)
	}
}
