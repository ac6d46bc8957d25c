package openapi

import (
	"slices"
	"strings"
	"unicode"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/schema"
)

// Resource is one served resource (at one of its versions) that a document has operations
// for.
type Resource struct {
	Group, Version, Resource, Kind string
	Namespaced                     bool
	// Custom is true for a custom resource: no strategic merge patch, no protobuf.
	Custom bool
}

// SwaggerInput is what /openapi/v2 is built from.
type SwaggerInput struct {
	// Version is the info.version kube-apiserver writes: "<major>.<minor>".
	Version string
	// Documents are the embedded v3 documents of the served group-versions ("api/v1").
	Documents []string
	// Resources are the served resources, each given a PATCH operation.
	Resources []Resource
	// Custom are the served versions of the CRDs.
	Custom []CustomResource
	// Registered are kinds registered without a schema (Group, Version and Kind only).
	Registered []Resource
}

// Swagger mirrors the /openapi/v2 document kube-apiserver serves (built by
// k8s.io/kube-openapi pkg/builder, aggregated with the CRDs' by
// k8s.io/apiextensions-apiserver pkg/controller/openapi): the definitions of every served
// group-version's v3 document in their v2 form, with the discovery types and the v2-only
// forms of swagger-only.json, every served custom kind and its list, and a PATCH operation
// per resource. kube-apiserver lists every route; kubectl reads only the definitions and
// the PATCH operation of each kind (its group-version-kind and fieldValidation parameter,
// to decide whether the server validates fields), so the other operations are left out.
func Swagger(in SwaggerInput) (*Node, error) {
	defs := Obj()
	add := func(from *Node) {
		for i, name := range from.Keys {
			defs.Set(name, from.Values[i])
		}
	}
	for _, p := range in.Documents {
		d, err := DefinitionsV2(p)
		if err != nil {
			return nil, err
		}
		add(d)
	}
	only, err := swaggerOnlyDefinitions()
	if err != nil {
		return nil, err
	}
	add(only)
	for _, c := range in.Custom {
		obj, list := c.Definitions(true)
		defs.Set(ModelName(c.Group, c.Version, c.Kind), obj)
		defs.Set(ModelName(c.Group, c.Version, c.ListKind), list)
	}
	for _, r := range in.Registered {
		// As a custom resource that keeps unknown fields: an object, in v2 without the flag.
		defs.Set(ModelName(r.Group, r.Version, r.Kind), Obj().Set("type", Str("object")).
			Set("x-kubernetes-group-version-kind", Arr(gvkNode(r.Group, r.Version, r.Kind))))
	}
	sortMembers(defs, strings.Compare)

	paths := Obj()
	for _, r := range in.Resources {
		path, item := PatchPathItem(r, true)
		paths.Set(path, item)
	}
	sortMembers(paths, strings.Compare)

	doc := Obj().
		Set("swagger", Str("2.0")).
		Set("info", Obj().Set("title", Str("Kubernetes")).Set("version", Str(in.Version))).
		Set("paths", paths).
		Set("definitions", defs).
		Set("securityDefinitions", Obj().Set("BearerToken", Obj().
			Set("description", Str("Bearer Token authentication")).
			Set("type", Str("apiKey")).
			Set("name", Str("authorization")).
			Set("in", Str("header")))).
		Set("security", Arr(Obj().Set("BearerToken", Arr())))
	return doc, nil
}

// CustomResourceComponents mirrors the components of the /openapi/v3 document of a custom
// resource's group-version (BuildOpenAPIV3 of the CRD builder): the kinds and lists of its
// custom resources and the shared meta definitions, autoscaling/v1 Scale only when one of
// them has the scale subresource. The result is a fresh node.
func CustomResourceComponents(crs []CustomResource) (*Node, error) {
	shared, err := customResourceDefinitions()
	if err != nil {
		return nil, err
	}
	scale := slices.ContainsFunc(crs, func(c CustomResource) bool { return c.Scale })
	defs := Obj()
	for i, name := range shared.Keys {
		if !scale && strings.HasPrefix(name, "io.k8s.api.autoscaling.v1.") {
			continue
		}
		defs.Set(name, shared.Values[i].Copy())
	}
	for _, c := range crs {
		obj, list := c.Definitions(false)
		defs.Set(ModelName(c.Group, c.Version, c.Kind), obj)
		defs.Set(ModelName(c.Group, c.Version, c.ListKind), list)
	}
	sortMembers(defs, strings.Compare)
	return Obj().Set("schemas", defs), nil
}

// PatchPathItem is the path of one resource's objects and its item with the PATCH
// operation kube-apiserver's installer gives it (k8s.io/apiserver pkg/endpoints/installer.go),
// in the v2 form or the v3 one, members in kube-openapi's order: the group-version-kind and
// action kubectl matches on and the query parameters it looks for. The descriptions of the
// shared parameters are left out.
func PatchPathItem(r Resource, v2 bool) (string, *Node) {
	path := "/apis/" + r.Group + "/" + r.Version
	if r.Group == "" {
		path = "/api/" + r.Version
	}
	if r.Namespaced {
		path += "/namespaces/{namespace}"
	}
	path += "/" + r.Resource + "/{name}"

	namespaced := ""
	if r.Namespaced {
		namespaced = "Namespaced"
	}
	group, tag := operationGroup(r.Group, r.Version)
	consumes := []string{"application/json-patch+json", "application/merge-patch+json"}
	if !r.Custom {
		consumes = append(consumes, "application/strategic-merge-patch+json")
	}
	consumes = append(consumes, "application/apply-patch+yaml")
	produces := []string{"application/json", "application/yaml"}
	if !r.Custom {
		produces = append(produces, "application/vnd.kubernetes.protobuf")
	}
	p := patchParts{
		description: "partially update the specified " + r.Kind,
		operationID: "patch" + group + namespaced + r.Kind,
		tag:         tag,
		consumes:    consumes,
		produces:    produces,
		kind:        definitionName(r),
		resource:    r,
	}
	if v2 {
		return path, p.v2()
	}
	return path, p.v3()
}

type patchParts struct {
	description, operationID, tag string
	consumes, produces            []string
	kind                          string
	resource                      Resource
}

var patchQuery = []struct{ name, typ string }{
	{"dryRun", "string"}, {"fieldManager", "string"}, {"fieldValidation", "string"}, {"force", "boolean"},
}

// v2 is the path item of a spec.Swagger.
func (p patchParts) v2() *Node {
	query := func(name, typ string) *Node {
		return Obj().Set("uniqueItems", Boolean(true)).Set("type", Str(typ)).Set("name", Str(name)).Set("in", Str("query"))
	}
	params := []*Node{Obj().Set("name", Str("body")).Set("in", Str("body")).Set("required", Boolean(true)).
		Set("schema", refTo("io.k8s.apimachinery.pkg.apis.meta.v1.Patch", true))}
	for _, q := range patchQuery {
		params = append(params, query(q.name, q.typ))
	}
	op := Obj().
		Set("description", Str(p.description)).
		Set("consumes", Strs(p.consumes...)).
		Set("produces", Strs(p.produces...)).
		Set("schemes", Strs("https")).
		Set("tags", Strs(p.tag)).
		Set("operationId", Str(p.operationID)).
		Set("parameters", Arr(params...)).
		Set("responses", p.responses(func() *Node { return refTo(p.kind, true) }, "schema")).
		Set("x-kubernetes-action", Str("patch")).
		Set("x-kubernetes-group-version-kind", gvkNode(p.resource.Group, p.resource.Version, p.resource.Kind))
	pathParam := func(name, doc string) *Node {
		return Obj().Set("uniqueItems", Boolean(true)).Set("type", Str("string")).Set("description", Str(doc)).
			Set("name", Str(name)).Set("in", Str("path")).Set("required", Boolean(true))
	}
	pathParams := []*Node{pathParam("name", "name of the "+p.resource.Kind)}
	if p.resource.Namespaced {
		pathParams = append(pathParams, pathParam("namespace", namespaceDoc))
	}
	pathParams = append(pathParams, query("pretty", "string"))
	return Obj().Set("patch", op).Set("parameters", Arr(pathParams...))
}

const namespaceDoc = "object name and auth scope, such as for teams and projects"

// v3 is the path item of a spec3.OpenAPI.
func (p patchParts) v3() *Node {
	typed := func(typ string) *Node {
		return Obj().Set("type", Str(typ)).Set("uniqueItems", Boolean(true))
	}
	var params []*Node
	for _, q := range patchQuery {
		params = append(params, Obj().Set("name", Str(q.name)).Set("in", Str("query")).Set("schema", typed(q.typ)))
	}
	body := Obj()
	for _, c := range sortedStrings(p.consumes) {
		body.Set(c, Obj().Set("schema", refTo("io.k8s.apimachinery.pkg.apis.meta.v1.Patch", false)))
	}
	content := func() *Node {
		c := Obj()
		for _, t := range sortedStrings(p.produces) {
			c.Set(t, Obj().Set("schema", refTo(p.kind, false)))
		}
		return c
	}
	op := Obj().
		Set("tags", Strs(p.tag)).
		Set("description", Str(p.description)).
		Set("operationId", Str(p.operationID)).
		Set("parameters", Arr(params...)).
		Set("requestBody", Obj().Set("content", body).Set("required", Boolean(true))).
		Set("responses", p.responses(content, "content")).
		Set("x-kubernetes-action", Str("patch")).
		Set("x-kubernetes-group-version-kind", Obj().Set("group", Str(p.resource.Group)).
			Set("version", Str(p.resource.Version)).Set("kind", Str(p.resource.Kind)))
	pathParam := func(name, doc string) *Node {
		return Obj().Set("name", Str(name)).Set("in", Str("path")).Set("description", Str(doc)).
			Set("required", Boolean(true)).Set("schema", typed("string"))
	}
	pathParams := []*Node{pathParam("name", "name of the "+p.resource.Kind)}
	if p.resource.Namespaced {
		pathParams = append(pathParams, pathParam("namespace", namespaceDoc))
	}
	pathParams = append(pathParams, Obj().Set("name", Str("pretty")).Set("in", Str("query")).Set("schema", typed("string")))
	return Obj().Set("patch", op).Set("parameters", Arr(pathParams...))
}

// responses are the answers of the PATCH: 200 and 401, and 201 (an apply that creates)
// for a built-in; the CRD builder declares no 201 for PATCH.
func (p patchParts) responses(body func() *Node, member string) *Node {
	r := Obj().Set("200", Obj().Set("description", Str("OK")).Set(member, body()))
	if !p.resource.Custom {
		r.Set("201", Obj().Set("description", Str("Created")).Set(member, body()))
	}
	return r.Set("401", Obj().Set("description", Str("Unauthorized")))
}

func sortedStrings(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

// definitionName is the definition of a resource's kind: its model name for a custom
// resource, else found among the embedded definitions by its group-version-kind.
func definitionName(r Resource) string {
	if r.Custom {
		return ModelName(r.Group, r.Version, r.Kind)
	}
	if name, ok := builtinDefinitionName(r.Group, r.Version, r.Kind); ok {
		return name
	}
	return ModelName(r.Group, r.Version, r.Kind)
}

func refTo(name string, v2 bool) *Node {
	if v2 {
		return Obj().Set("$ref", Str(v2RefPrefix+name))
	}
	return Obj().Set("$ref", Str(v3RefPrefix+name))
}

// operationGroup mirrors GetOperationIDAndTags of k8s.io/apiserver pkg/endpoints/openapi:
// the group without ".k8s.io" ("core" for the legacy group) and the version, camel-cased
// for the operation ID ("RbacAuthorizationV1") and joined by "_" for the tag
// ("rbacAuthorization_v1").
func operationGroup(group, version string) (id, tag string) {
	g := strings.TrimSuffix(group, ".k8s.io")
	if group == "" {
		g = "core"
	}
	return validOperationID(g, true) + validOperationID(version, true),
		validOperationID(g, false) + "_" + validOperationID(version, false)
}

// validOperationID mirrors ToValidOperationID: letters and digits kept, the letter after
// any other character upper-cased, the first letter upper-cased when asked.
func validOperationID(s string, capitalizeFirst bool) string {
	var b strings.Builder
	upper := capitalizeFirst
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if upper {
				r = unicode.ToUpper(r)
			}
			b.WriteRune(r)
			upper = false
		} else {
			upper = true
		}
	}
	return b.String()
}

// builtinDefinitionName finds the embedded definition of a built-in kind.
func builtinDefinitionName(group, version, kind string) (string, bool) {
	s, ok := schema.ForKind(api.GroupVersionKind{Group: group, Version: version, Kind: kind})
	if !ok || s.Name == "" {
		return "", false
	}
	return s.Name, true
}
