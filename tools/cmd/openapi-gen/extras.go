package main

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"

	openapinamer "k8s.io/apiserver/pkg/endpoints/openapi"
	utilopenapi "k8s.io/apiserver/pkg/util/openapi"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/kube-openapi/pkg/builder"
	"k8s.io/kube-openapi/pkg/builder3"
	"k8s.io/kube-openapi/pkg/common"
	"k8s.io/kube-openapi/pkg/validation/spec"
	generatedopenapi "k8s.io/kubernetes/pkg/generated/openapi"
)

// The simulated apiserver derives /openapi/v2 from the v3 documents above: a v3 schema
// becomes its v2 form by turning each allOf that only wraps a $ref back into the $ref and
// dropping defaults (kube-apiserver prunes them from v2). A few definitions of
// kube-apiserver's /openapi/v2 cannot be derived that way; swaggerOnlyFile holds them, as
// kube-openapi's v2 builder writes them:
//
//   - the discovery documents of /api, /apis and /version (APIVersions, APIGroupList,
//     APIGroup and what they reference, version.Info), which no group-version document
//     holds;
//   - Quantity and IntOrString, whose v2 form is a plain string where v3 has a oneOf;
//   - DeleteOptions and WatchEvent with the kind of every group-version the schemes
//     register (sixty), where each v3 document keeps its own and core/v1's only.
const swaggerOnlyFile = "swagger-only.json"

// swaggerOnlyRoots are the definitions swaggerOnlyFile is built from, closed over their
// references by the builder.
var swaggerOnlyRoots = []string{
	meta + "APIGroup",
	meta + "APIGroupList",
	meta + "APIVersions",
	"io.k8s.apimachinery.pkg.version.Info",
	"io.k8s.apimachinery.pkg.api.resource.Quantity",
	"io.k8s.apimachinery.pkg.util.intstr.IntOrString",
	meta + "DeleteOptions",
	meta + "WatchEvent",
}

// buildSwaggerOnly builds swaggerOnlyFile: the roots and their closure with kube-openapi's
// v2 builder and kube-apiserver's namer, keeping only the definitions that were asked for
// or that no v3 document holds (the builder also emits ObjectMeta and the like, which the
// v3 documents already carry).
func buildSwaggerOnly(name func(string) (string, spec.Extensions), inV3 map[string]bool) ([]byte, error) {
	config := &common.Config{
		Info:              &spec.Info{InfoProps: spec.InfoProps{Title: "Kubernetes"}},
		GetDefinitionName: name,
		GetDefinitions:    utilopenapi.GetOpenAPIDefinitionsWithoutDisabledFeatures(generatedopenapi.GetOpenAPIDefinitions),
	}
	sw, err := builder.BuildOpenAPIDefinitionsForResources(config, swaggerOnlyRoots...)
	if err != nil {
		return nil, err
	}
	roots := map[string]bool{}
	for _, r := range swaggerOnlyRoots {
		roots[r] = true
	}
	var names []string
	for n := range sw.Definitions {
		if roots[n] || !inV3[n] {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	var buf bytes.Buffer
	buf.WriteString(`{"swagger":"2.0","definitions":{`)
	for i, n := range names {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.WriteByte('\n')
		def := sw.Definitions[n]
		body, err := canonicalJSON(&def)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		buf.WriteString(strconv.Quote(n))
		buf.WriteByte(':')
		buf.Write(body)
	}
	buf.WriteString("\n}}\n")
	return buf.Bytes(), nil
}

// customResourceFile holds the definitions the /openapi/v3 document of a custom resource's
// group-version carries besides the resource's own two (k8s.io/apiextensions-apiserver
// pkg/controller/openapi/builder): the bodies of its routes (Status, Patch, DeleteOptions,
// the scale subresource's Scale) and everything they and ObjectMeta and ListMeta reference.
// The CRD builder names them with client-go's scheme, so DeleteOptions lists the kinds of
// the fifty-odd group-versions client-go knows.
const customResourceFile = "custom-resource.json"

var customResourceRoots = []string{
	meta + "ObjectMeta",
	meta + "ListMeta",
	meta + "Status",
	meta + "Patch",
	meta + "DeleteOptions",
	"io.k8s.api.autoscaling.v1.Scale",
}

// buildCustomResource builds customResourceFile with kube-openapi's v3 builder and the
// CRD builder's namer.
func buildCustomResource() ([]byte, error) {
	namer := openapinamer.NewDefinitionNamer(clientgoscheme.Scheme)
	config := &common.OpenAPIV3Config{
		Info:              &spec.Info{InfoProps: spec.InfoProps{Title: "Kubernetes CRD Swagger", Version: "v0.1.0"}},
		GetDefinitionName: namer.GetDefinitionName,
		GetDefinitions:    utilopenapi.GetOpenAPIDefinitionsWithoutDisabledFeatures(generatedopenapi.GetOpenAPIDefinitions),
	}
	schemas, err := builder3.BuildOpenAPIDefinitionsForResources(config, customResourceRoots...)
	if err != nil {
		return nil, err
	}
	return encodeDocument(schemas, nil)
}
