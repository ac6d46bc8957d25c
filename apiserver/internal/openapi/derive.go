package openapi

import (
	"fmt"
	"strings"
	"sync"

	"github.com/informer-lab/informer-lab/apiserver/internal/schema"
)

// The definitions of /openapi/v2, derived from the v3 documents.

const (
	v3RefPrefix = "#/components/schemas/"
	v2RefPrefix = "#/definitions/"
)

// toV2 turns a v3 schema into the form /openapi/v2 publishes, in place: an allOf that
// only wraps a $ref (kube-openapi's builder3 wraps a $ref that has siblings, builder does
// not) becomes the $ref again, refs point into #/definitions/, defaults go (kube-apiserver
// prunes them from v2: k8s.io/kube-openapi pkg/handler/default_pruning.go) and the
// keywords take kube-openapi's order.
func toV2(s *Node) {
	if s == nil || s.Kind != Object {
		return
	}
	if all := s.Get("allOf"); all != nil && len(all.Values) == 1 {
		if only := all.Values[0]; only.Kind == Object && len(only.Keys) == 1 && only.Keys[0] == "$ref" {
			s.Delete("allOf")
			s.Set("$ref", only.Values[0])
		}
	}
	if ref := s.Get("$ref"); ref != nil && ref.Kind == String && strings.HasPrefix(ref.Text, v3RefPrefix) {
		s.Set("$ref", Str(v2RefPrefix+strings.TrimPrefix(ref.Text, v3RefPrefix)))
	}
	s.Delete("default")
	eachSubschema(s, toV2)
	orderSchema(s)
}

// v2Defs caches the v2 form of each embedded document's definitions: the documents
// never change, so each is read and converted once.
var v2Defs sync.Map // document path → *definitionsResult

type definitionsResult struct {
	once sync.Once
	defs *Node
	err  error
}

// DefinitionsV2 returns the definitions of one embedded v3 document ("api/v1",
// "apis/apps/v1") in their v2 form, keyed and sorted by name. The node is shared: callers
// must not change it.
func DefinitionsV2(path string) (*Node, error) {
	v, _ := v2Defs.LoadOrStore(path, &definitionsResult{})
	r := v.(*definitionsResult)
	r.once.Do(func() {
		data, ok := schema.Document(path)
		if !ok {
			r.err = fmt.Errorf("openapi: no embedded document %q", path)
			return
		}
		r.defs, r.err = componentsOf(data)
		if r.err != nil {
			return
		}
		for _, d := range r.defs.Values {
			toV2(d)
		}
	})
	return r.defs, r.err
}

// componentsOf returns components.schemas of an OpenAPI v3 document.
func componentsOf(data []byte) (*Node, error) {
	doc, err := Parse(data)
	if err != nil {
		return nil, err
	}
	defs := doc.Get("components").Get("schemas")
	if defs == nil || defs.Kind != Object {
		return nil, fmt.Errorf("openapi: a document without components.schemas")
	}
	return defs, nil
}

// v3Defs caches each embedded document's definitions in the order kube-openapi writes
// them (the files have sorted keys).
var v3Defs sync.Map // document path → *definitionsResult

// DefinitionsV3 returns the definitions of one embedded v3 document ("api/v1"), keyed and
// sorted by name, each schema's keywords in kube-openapi's order. The node is shared:
// callers must not change it.
func DefinitionsV3(path string) (*Node, error) {
	v, _ := v3Defs.LoadOrStore(path, &definitionsResult{})
	r := v.(*definitionsResult)
	r.once.Do(func() {
		data, ok := schema.Document(path)
		if !ok {
			r.err = fmt.Errorf("openapi: no embedded document %q", path)
			return
		}
		r.defs, r.err = componentsOf(data)
		if r.err != nil {
			return
		}
		for _, d := range r.defs.Values {
			orderSchema(d)
		}
	})
	return r.defs, r.err
}

// Components mirrors the components kube-apiserver's OpenAPI v3 handler writes in the
// document of a built-in group-version: its definitions (DefinitionsV3) and the bearer
// token security scheme. The schemas node is shared: callers must not change it.
func Components(path string) (*Node, error) {
	defs, err := DefinitionsV3(path)
	if err != nil {
		return nil, err
	}
	bearer := Obj().Set("type", Str("apiKey")).Set("description", Str("Bearer Token authentication")).
		Set("name", Str("authorization")).Set("in", Str("header"))
	return Obj().Set("schemas", defs).Set("securitySchemes", Obj().Set("BearerToken", bearer)), nil
}

var swaggerOnly struct {
	once sync.Once
	defs *Node
	err  error
}

// swaggerOnlyDefinitions are the embedded definitions of /openapi/v2 that the v3
// documents do not give (schema.SwaggerOnly), defaults dropped and ordered.
func swaggerOnlyDefinitions() (*Node, error) {
	swaggerOnly.once.Do(func() {
		doc, err := Parse(schema.SwaggerOnly())
		if err != nil {
			swaggerOnly.err = err
			return
		}
		swaggerOnly.defs = doc.Get("definitions")
		if swaggerOnly.defs == nil {
			swaggerOnly.err = fmt.Errorf("openapi: swagger-only document without definitions")
			return
		}
		for _, d := range swaggerOnly.defs.Values {
			toV2(d)
		}
	})
	return swaggerOnly.defs, swaggerOnly.err
}

var customResourceShared struct {
	once sync.Once
	defs *Node
	err  error
}

// customResourceDefinitions are the shared definitions of a custom resource's v3
// document (schema.CustomResource). The node is shared: callers must not change it.
func customResourceDefinitions() (*Node, error) {
	customResourceShared.once.Do(func() {
		customResourceShared.defs, customResourceShared.err = componentsOf(schema.CustomResource())
		if customResourceShared.err == nil {
			for _, d := range customResourceShared.defs.Values {
				orderSchema(d)
			}
		}
	})
	return customResourceShared.defs, customResourceShared.err
}
