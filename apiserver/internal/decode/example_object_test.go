package decode_test

import (
	"fmt"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/decode"
	"github.com/informer-lab/informer-lab/apiserver/internal/schema"
)

// A Deployment with a typo, sent three ways: Strict refuses it, Warn prunes and warns, and
// a value of the wrong type is refused whatever fieldValidation says.
func ExampleObject() {
	gvk := api.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
	sch, _ := schema.ForKind(gvk)
	body := []byte(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
	  "spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},
	  "template":{"metadata":{"labels":{"app":"web"}},
	  "spec":{"containers":[{"name":"web","image":"nginx","imagePullPolicyy":"Always"}]}}}}`)

	_, _, err := decode.Object(body, sch, gvk, api.FieldValidationStrict)
	fmt.Println(err)

	obj, warnings, _ := decode.Object(body, sch, gvk, api.FieldValidationWarn)
	fmt.Println(warnings)
	spec, _, _ := api.NestedMap(obj.Object, "spec", "template", "spec")
	fmt.Println(spec["containers"])

	_, _, err = decode.Object([]byte(`{"spec":{"replicas":"2"}}`), sch, gvk, api.FieldValidationIgnore)
	fmt.Println(err)
	// Output:
	// Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.template.spec.containers[0].imagePullPolicyy"
	// [unknown field "spec.template.spec.containers[0].imagePullPolicyy"]
	// [map[image:nginx name:web]]
	// Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32
}
