package ssacheck

import (
	"encoding/json"
	"fmt"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/kube-openapi/pkg/validation/spec"
)

// customResource mirrors the main module's openapi.CustomResource on ssaeval's wire (Go
// field names, no tags).
type customResource struct {
	Group, Version, Kind, ListKind, Plural string
	Schema                                 map[string]any
}

// crdCase is one custom resource definition the CRD sequences run on.
type crdCase struct {
	crd     *apiextensionsv1.CustomResourceDefinition
	gvk     schema.GroupVersionKind
	wire    *customResource
	defs    map[string]*spec.Schema
	root    *spec.Schema
	manager *managedfields.FieldManager
}

// crdSchema is a schema with every kind of list and map the type converter reads: map-lists
// with one and two keys, a set, an atomic list, granular and atomic maps, int-or-string,
// a subtree that keeps unknown fields and an embedded resource.
const crdSchema = `{"type":"object","properties":{
 "spec":{"type":"object","properties":{
  "replicas":{"type":"integer"},
  "mode":{"type":"string","enum":["a","b"]},
  "ports":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["port","protocol"],
   "items":{"type":"object","required":["port"],"properties":{"port":{"type":"integer"},"protocol":{"type":"string","default":"TCP"},"name":{"type":"string"}}}},
  "workers":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
   "items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"image":{"type":"string"},
    "args":{"type":"array","items":{"type":"string"}},"env":{"type":"object","additionalProperties":{"type":"string"}}}}},
  "tags":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},
  "order":{"type":"array","items":{"type":"string"}},
  "selector":{"type":"object","x-kubernetes-map-type":"atomic","properties":{"a":{"type":"string"},"b":{"type":"string"}}},
  "limits":{"type":"object","additionalProperties":{"x-kubernetes-int-or-string":true}},
  "size":{"x-kubernetes-int-or-string":true},
  "extra":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{"known":{"type":"string"}}},
  "template":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}}},
 "status":{"type":"object","properties":{"phase":{"type":"string"},"ready":{"type":"boolean"},
  "conditions":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["type"],
   "items":{"type":"object","properties":{"type":{"type":"string"},"status":{"type":"string"}}}}}}}}`

type crConverter struct{}

func (crConverter) Convert(in, out, context any) error { return fmt.Errorf("unsupported") }
func (crConverter) ConvertToVersion(in runtime.Object, gv runtime.GroupVersioner) (runtime.Object, error) {
	out := in.DeepCopyObject()
	if gvk, ok := gv.KindForGroupVersionKinds([]schema.GroupVersionKind{in.GetObjectKind().GroupVersionKind()}); ok {
		out.GetObjectKind().SetGroupVersionKind(gvk)
	}
	return out, nil
}
func (crConverter) ConvertFieldLabel(gvk schema.GroupVersionKind, label, value string) (string, string, error) {
	return label, value, nil
}

type crCreater struct{}

func (crCreater) New(gvk schema.GroupVersionKind) (runtime.Object, error) {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(gvk)
	return u, nil
}

// newCRDCase builds the type converter as apiextensions-apiserver's crdHandler does
// (buildOpenAPIModelsForApply: the builder's v3 document of each version, then
// managedfields.NewTypeConverter) and its CRD field manager.
func newCRDCase() (*crdCase, error) {
	var props apiextensionsv1.JSONSchemaProps
	if err := json.Unmarshal([]byte(crdSchema), &props); err != nil {
		return nil, err
	}
	crd := &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "widgets.example.com"},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "example.com", Scope: apiextensionsv1.NamespaceScoped,
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "widgets", Singular: "widget", Kind: "Widget", ListKind: "WidgetList"},
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{Name: "v1", Served: true, Storage: true,
				Schema:       &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &props},
				Subresources: &apiextensionsv1.CustomResourceSubresources{Status: &apiextensionsv1.CustomResourceSubresourceStatus{}}}},
		},
	}
	doc, err := builder.BuildOpenAPIV3(crd, "v1", builder.Options{})
	if err != nil {
		return nil, err
	}
	gvk := schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}
	tc, err := managedfields.NewTypeConverter(doc.Components.Schemas, false)
	if err != nil {
		return nil, err
	}
	f, err := managedfields.NewDefaultCRDFieldManager(tc, crConverter{}, noDefaults{}, crCreater{}, gvk, gvk.GroupVersion(), "", nil)
	if err != nil {
		return nil, err
	}
	var schemaTree map[string]any
	if err := json.Unmarshal([]byte(crdSchema), &schemaTree); err != nil {
		return nil, err
	}
	c := &crdCase{crd: crd, gvk: gvk, defs: doc.Components.Schemas, manager: f,
		wire: &customResource{Group: "example.com", Version: "v1", Kind: "Widget", ListKind: "WidgetList", Plural: "widgets", Schema: schemaTree}}
	c.root = c.defs["com.example.v1.Widget"]
	if c.root == nil {
		return nil, fmt.Errorf("no com.example.v1.Widget in the built document")
	}
	return c, nil
}
