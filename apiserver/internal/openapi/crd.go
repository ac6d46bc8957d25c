package openapi

import (
	"slices"
	"strings"
)

// CustomResource is one served version of a CustomResourceDefinition, as the OpenAPI
// documents describe it.
type CustomResource struct {
	Group, Version, Kind, ListKind, Plural string
	Namespaced                             bool
	// Schema is the version's openAPIV3Schema as decoded JSON; nil when it has none.
	Schema map[string]any
	// PreserveUnknownFields is spec.preserveUnknownFields.
	PreserveUnknownFields bool
	// Status and Scale say which subresources the version has.
	Status, Scale bool
	// SelectableFields are the jsonPaths of the version's selectableFields.
	SelectableFields []string
}

// ModelName is the definition name of a custom kind, as gvkToModelName in
// k8s.io/apiextensions-apiserver pkg/controller/openapi/builder names it: the group's labels
// reversed ("samplecontroller.k8s.io" gives "io.k8s.samplecontroller"), the version, the
// kind.
func ModelName(group, version, kind string) string {
	parts := strings.Split(group, ".")
	slices.Reverse(parts)
	return strings.Join(parts, ".") + "." + version + "." + kind
}

// The descriptions kube-apiserver gives the members it adds to a custom resource's schema:
// TypeMeta's, PartialObjectMetadata's and PartialObjectMetadataList's, and for an embedded
// resource the builder's own.
const (
	apiVersionDoc         = "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources"
	kindDoc               = "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"
	metadataDoc           = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
	listMetadataDoc       = "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"
	embeddedAPIVersionDoc = "apiVersion defines the versioned schema of this representation of an object. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources"
	embeddedKindDoc       = "kind is a string value representing the type of this object. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"

	objectMetaName = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
	listMetaName   = "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta"
)

// Definitions mirrors buildKubeNative and buildListSchema of k8s.io/apiextensions-apiserver
// pkg/controller/openapi/builder/builder.go: the schemas of the custom kind and of its
// list, in the v3 form (v2 false) or the v2 form, keywords in kube-openapi's order.
func (c CustomResource) Definitions(v2 bool) (object, list *Node) {
	return c.objectSchema(v2), c.listSchema(v2)
}

func (c CustomResource) objectSchema(v2 bool) *Node {
	var s *Node
	switch {
	case c.Schema == nil:
		s = Obj().Set("type", Str("object"))
	case v2 && (c.PreserveUnknownFields || isTrue(c.Schema["x-kubernetes-preserve-unknown-fields"])):
		// kubectl's v2 reader cannot cope with a root that keeps unknown fields.
		s = Obj().Set("type", Str("object"))
	default:
		s = structuralNode(c.Schema, false)
		unfold(s)
		if v2 {
			toStructuralV2(s)
		}
		props := s.Get("properties")
		if props == nil {
			props = Obj()
			s.Set("properties", props)
		}
		props.Set("metadata", refWithDoc(objectMetaName, metadataDoc, v2))
		props.Set("apiVersion", Obj().Set("description", Str(apiVersionDoc)).Set("type", Str("string")))
		props.Set("kind", Obj().Set("description", Str(kindDoc)).Set("type", Str("string")))
		addEmbeddedProperties(s, v2)
	}
	s.Set("x-kubernetes-group-version-kind", Arr(gvkNode(c.Group, c.Version, c.Kind)))
	if len(c.SelectableFields) > 0 {
		fields := Arr()
		for _, p := range c.SelectableFields {
			fields.Values = append(fields.Values, Obj().Set("fieldPath", Str(strings.TrimPrefix(p, "."))))
		}
		s.Set("x-kubernetes-selectable-fields", fields)
	}
	if v2 {
		// v2 is aggregated through maps: every extension's value comes out sorted.
		dropDefaults(s)
		sortExtensions(s)
	}
	orderSchema(s)
	return s
}

func (c CustomResource) listSchema(v2 bool) *Node {
	prefix := v3RefPrefix
	if v2 {
		prefix = v2RefPrefix
	}
	items := Obj().Set("description", Str("List of "+c.Plural+". More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md")).
		Set("type", Str("array")).
		Set("items", Obj().Set("$ref", Str(prefix+ModelName(c.Group, c.Version, c.Kind))))
	props := Obj().
		Set("apiVersion", Obj().Set("description", Str(apiVersionDoc)).Set("type", Str("string"))).
		Set("items", items).
		Set("kind", Obj().Set("description", Str(kindDoc)).Set("type", Str("string"))).
		Set("metadata", refWithDoc(listMetaName, listMetadataDoc, v2))
	s := Obj().Set("description", Str(c.ListKind+" is a list of "+c.Kind)).
		Set("type", Str("object")).
		Set("required", Strs("items")).
		Set("properties", props).
		Set("x-kubernetes-group-version-kind", Arr(gvkNode(c.Group, c.Version, c.ListKind)))
	if len(c.SelectableFields) > 0 {
		fields := Arr()
		for _, p := range c.SelectableFields {
			fields.Values = append(fields.Values, Obj().Set("fieldPath", Str(strings.TrimPrefix(p, "."))))
		}
		s.Set("x-kubernetes-selectable-fields", fields)
	}
	orderSchema(s)
	return s
}

func gvkNode(group, version, kind string) *Node {
	return Obj().Set("group", Str(group)).Set("kind", Str(kind)).Set("version", Str(version))
}

// refWithDoc is a $ref with a description: plain in v2, wrapped in allOf in v3 as
// kube-openapi's builder3 writes it.
func refWithDoc(name, doc string, v2 bool) *Node {
	if v2 {
		return Obj().Set("description", Str(doc)).Set("$ref", Str(v2RefPrefix+name))
	}
	return Obj().Set("description", Str(doc)).Set("allOf", Arr(Obj().Set("$ref", Str(v3RefPrefix+name))))
}

func isTrue(v any) bool {
	b, ok := v.(bool)
	return ok && b
}

// addEmbeddedProperties mirrors the builder's function of that name: every
// x-kubernetes-embedded-resource object gets apiVersion, kind and metadata and requires
// the first two; in v2, not one that keeps unknown fields (its properties are gone).
func addEmbeddedProperties(s *Node, v2 bool) {
	if s == nil || s.Kind != Object {
		return
	}
	if props := s.Get("properties"); props != nil {
		for _, p := range props.Values {
			addEmbeddedProperties(p, v2)
		}
	}
	if items := s.Get("items"); items != nil {
		addEmbeddedProperties(items, v2)
	}
	if ap := s.Get("additionalProperties"); ap != nil {
		addEmbeddedProperties(ap, v2)
	}
	if v2 && s.Get("x-kubernetes-preserve-unknown-fields") != nil {
		return
	}
	if s.Get("x-kubernetes-embedded-resource") == nil {
		return
	}
	props := s.Get("properties")
	if props == nil {
		props = Obj()
		s.Set("properties", props)
	}
	props.Set("apiVersion", Obj().Set("description", Str(embeddedAPIVersionDoc)).Set("type", Str("string")))
	props.Set("kind", Obj().Set("description", Str(embeddedKindDoc)).Set("type", Str("string")))
	props.Set("metadata", refWithDoc(objectMetaName, metadataDoc, v2))
	req := s.Get("required")
	if req == nil {
		req = Arr()
		s.Set("required", req)
	}
	for _, name := range []string{"kind", "apiVersion"} {
		if !slices.ContainsFunc(req.Values, func(n *Node) bool { return n.Text == name }) {
			req.Values = append(req.Values, Str(name))
		}
	}
}

func sortExtensions(s *Node) {
	if s == nil || s.Kind != Object {
		return
	}
	for i, k := range s.Keys {
		if strings.HasPrefix(k, "x-") {
			sortValues(s.Values[i])
		}
	}
	eachSubschema(s, sortExtensions)
}

func dropDefaults(s *Node) {
	if s == nil || s.Kind != Object {
		return
	}
	s.Delete("default")
	eachSubschema(s, dropDefaults)
}
