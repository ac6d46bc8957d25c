package openapi

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/apiserver/internal/schema"
	"github.com/informer-lab/informer-lab/internal/sha256sums"
)

// The OpenAPI documents of a real kube-apiserver v1.36.3 with default flags and one CRD
// (openapi-crd.json, with every schema feature the publishers treat apart), captured by
// the conformance suite (make discovery-reference): /openapi/v2 in JSON, the SHA-256 of
// its protobuf form, and the SHA-256 of the components of every /openapi/v3 document.
const referenceDir = "../../testdata/reference"

// readReference reads one captured file after checking it against SHA256SUMS, so that a
// hand edit of the oracle fails here rather than passing as agreement.
func readReference(t *testing.T, name string) []byte {
	t.Helper()
	sums, err := os.ReadFile(filepath.Join(referenceDir, "SHA256SUMS"))
	require.NoError(t, err)
	want, err := sha256sums.Parse(sums)
	require.NoError(t, err)
	data, err := os.ReadFile(filepath.Join(referenceDir, name))
	require.NoError(t, err)
	require.Equal(t, want[name], sha256sums.Sum(data), "%s does not match SHA256SUMS: recapture it with make discovery-reference", name)
	return data
}

func referenceSwagger(t *testing.T) []byte {
	t.Helper()
	r, err := gzip.NewReader(bytes.NewReader(readReference(t, "openapi-v2.json.gz")))
	require.NoError(t, err)
	data, err := io.ReadAll(r)
	require.NoError(t, err)
	return data
}

// referenceCRD reads the captured CRD as the server's registry would hand it over: one
// CustomResource per served version.
func referenceCRD(t *testing.T) []CustomResource {
	t.Helper()
	var crd struct {
		Spec struct {
			Group string `json:"group"`
			Names struct {
				Plural, Kind, ListKind string
			} `json:"names"`
			Scope    string `json:"scope"`
			Versions []struct {
				Name         string `json:"name"`
				Served       bool   `json:"served"`
				Subresources *struct {
					Status *struct{} `json:"status"`
					Scale  *struct{} `json:"scale"`
				} `json:"subresources"`
				SelectableFields []struct {
					JSONPath string `json:"jsonPath"`
				} `json:"selectableFields"`
				Schema struct {
					OpenAPIV3Schema map[string]any `json:"openAPIV3Schema"`
				} `json:"schema"`
			} `json:"versions"`
		} `json:"spec"`
	}
	require.NoError(t, json.Unmarshal(readReference(t, "openapi-crd.json"), &crd))
	var out []CustomResource
	for _, v := range crd.Spec.Versions {
		c := CustomResource{Group: crd.Spec.Group, Version: v.Name, Kind: crd.Spec.Names.Kind,
			ListKind: crd.Spec.Names.ListKind, Plural: crd.Spec.Names.Plural,
			Namespaced: crd.Spec.Scope == "Namespaced", Schema: v.Schema.OpenAPIV3Schema}
		if v.Subresources != nil {
			c.Status, c.Scale = v.Subresources.Status != nil, v.Subresources.Scale != nil
		}
		for _, f := range v.SelectableFields {
			c.SelectableFields = append(c.SelectableFields, f.JSONPath)
		}
		out = append(out, c)
	}
	require.Len(t, out, 2)
	return out
}

// TestCh01_SwaggerDefinitionsMatchReference: built from every embedded document and the
// captured CRD, /openapi/v2 has exactly the reference's definitions, each byte for byte as
// the reference writes it (keyword order, number text, escaping).
func TestCh01_SwaggerDefinitionsMatchReference(t *testing.T) {
	var ref struct {
		Definitions map[string]json.RawMessage `json:"definitions"`
	}
	require.NoError(t, json.Unmarshal(referenceSwagger(t), &ref))
	doc, err := Swagger(SwaggerInput{Version: "1.36", Documents: schema.Paths(), Custom: referenceCRD(t)})
	require.NoError(t, err)
	defs := doc.Get("definitions")
	assert.ElementsMatch(t, mapKeys(ref.Definitions), defs.Keys)
	for i, name := range defs.Keys {
		want, ok := ref.Definitions[name]
		if !ok {
			continue
		}
		if got := defs.Values[i].JSON(); !bytes.Equal(got, want) {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
}

// TestCh01_SwaggerPathsAgreeWithReference: every PATCH operation of ours is the
// reference's in what clients read of it: the path and its parameters' names, and the
// operation's ID, description, media types, tags, action, group-version-kind, responses and
// its query parameters (name, place and type; we leave out their descriptions).
func TestCh01_SwaggerPathsAgreeWithReference(t *testing.T) {
	ref, err := Parse(referenceSwagger(t))
	require.NoError(t, err)
	resources := []Resource{
		{Version: "v1", Resource: "pods", Kind: "Pod", Namespaced: true},
		{Version: "v1", Resource: "nodes", Kind: "Node"},
		{Group: "apps", Version: "v1", Resource: "deployments", Kind: "Deployment", Namespaced: true},
		{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterroles", Kind: "ClusterRole"},
		{Group: "flowcontrol.apiserver.k8s.io", Version: "v1", Resource: "flowschemas", Kind: "FlowSchema"},
		{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions", Kind: "CustomResourceDefinition"},
		{Group: "openapi.example.com", Version: "v1", Resource: "widgets", Kind: "Widget", Namespaced: true, Custom: true},
		{Group: "openapi.example.com", Version: "v1beta1", Resource: "widgets", Kind: "Widget", Namespaced: true, Custom: true},
	}
	for _, r := range resources {
		t.Run(r.Group+"/"+r.Version+"/"+r.Resource, func(t *testing.T) {
			path, item := PatchPathItem(r, true)
			want := ref.Get("paths").Get(path)
			require.NotNil(t, want, path)
			assert.Equal(t, paramNames(ref, want.Get("parameters")), paramNames(ref, item.Get("parameters")))
			got, wantOp := item.Get("patch"), want.Get("patch")
			for _, k := range []string{"description", "consumes", "produces", "schemes", "tags", "operationId",
				"responses", "x-kubernetes-action", "x-kubernetes-group-version-kind"} {
				assert.Equal(t, string(wantOp.Get(k).JSON()), string(got.Get(k).JSON()), k)
			}
			assert.Equal(t, paramNames(ref, wantOp.Get("parameters")), paramNames(ref, got.Get("parameters")))
		})
	}
}

// paramNames lists parameters as "in name type", resolving references to the document's
// shared parameters.
func paramNames(doc, params *Node) []string {
	var out []string
	for _, p := range params.Values {
		if ref := p.Get("$ref"); ref != nil {
			p = doc.Get("parameters").Get(strings.TrimPrefix(ref.Text, "#/parameters/"))
		}
		typ := p.Get("type")
		if typ == nil {
			typ = p.Get("schema").Get("$ref")
		}
		out = append(out, p.Get("in").Text+" "+p.Get("name").Text+" "+typ.Text)
	}
	return out
}

// TestCh01_ToProtoMatchesReference: the reference's own JSON document, written in
// protobuf here, gives the bytes the reference answers in protobuf (1.9 MB).
func TestCh01_ToProtoMatchesReference(t *testing.T) {
	n, err := Parse(referenceSwagger(t))
	require.NoError(t, err)
	got, err := ToProto(n)
	require.NoError(t, err)
	want, err := sha256sums.Parse(readReference(t, "openapi-v2.pb.sha256"))
	require.NoError(t, err)
	assert.Equal(t, want["openapi-v2.pb"], sha256sums.Sum(got))
}

// TestCh01_V3ComponentsMatchReference: the components of every /openapi/v3 document we
// serve are the reference's byte for byte: each built-in group-version's (keywords in
// kube-openapi's order, HTML escaped as the reference writes v3) and each version of the
// captured CRD's. The documents of /api, /apis, each group, /version and the service
// account issuer are not served.
func TestCh01_V3ComponentsMatchReference(t *testing.T) {
	want, err := sha256sums.Parse(readReference(t, "openapi-v3-components.sha256"))
	require.NoError(t, err)
	crs := referenceCRD(t)
	var notServed []string
	for path, sum := range want {
		var comp *Node
		if _, ok := schema.Document(path); ok {
			comp, err = Components(path)
			require.NoError(t, err)
		} else if i := slices.IndexFunc(crs, func(c CustomResource) bool { return path == "apis/"+c.Group+"/"+c.Version }); i >= 0 {
			comp, err = CustomResourceComponents(crs[i : i+1])
			require.NoError(t, err)
		} else {
			notServed = append(notServed, path)
			continue
		}
		assert.Equal(t, sum, sha256sums.Sum(comp.JSONHTMLEscaped()), path)
	}
	// The documents we do not serve: discovery, /version, the issuer's and one per group.
	wantNotServed := []string{".well-known/openid-configuration", "api", "apis", "openid/v1/jwks", "version"}
	for _, p := range schema.Paths() {
		if g, ok := strings.CutPrefix(p, "apis/"); ok {
			g = "apis/" + g[:strings.Index(g, "/")]
			if !slices.Contains(wantNotServed, g) {
				wantNotServed = append(wantNotServed, g)
			}
		}
	}
	assert.ElementsMatch(t, wantNotServed, notServed)
}

func mapKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
