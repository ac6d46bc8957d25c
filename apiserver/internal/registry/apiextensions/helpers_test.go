package apiextensions

import (
	"github.com/informer-lab/informer-lab/api"
)

// fooCRD returns a small valid CRD as the decoder stores it (numbers int64): the Foo of
// the sample-controller, namespaced, with the status subresource and a bounded replicas.
func fooCRD() *api.Unstructured {
	return &api.Unstructured{Object: map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1",
		"kind":       "CustomResourceDefinition",
		"metadata": map[string]any{
			"name": "foos.example.com", "uid": "uid-foo", "resourceVersion": "7", "generation": int64(1),
		},
		"spec": map[string]any{
			"group": "example.com",
			"names": map[string]any{
				"kind": "Foo", "listKind": "FooList", "plural": "foos", "singular": "foo",
				"shortNames": []any{"fo"}, "categories": []any{"all"},
			},
			"scope": "Namespaced",
			"versions": []any{
				map[string]any{
					"name": "v1beta1", "served": true, "storage": false,
					"schema": map[string]any{"openAPIV3Schema": map[string]any{"type": "object"}},
				},
				map[string]any{
					"name": "v1", "served": true, "storage": true,
					"schema": map[string]any{"openAPIV3Schema": map[string]any{
						"type": "object",
						"properties": map[string]any{
							"spec": map[string]any{
								"type":     "object",
								"required": []any{"deploymentName"},
								"properties": map[string]any{
									"deploymentName": map[string]any{"type": "string"},
									"replicas":       map[string]any{"type": "integer", "minimum": int64(1), "maximum": int64(10)},
								},
							},
							"status": map[string]any{
								"type":       "object",
								"properties": map[string]any{"availableReplicas": map[string]any{"type": "integer"}},
							},
						},
					}},
					"subresources": map[string]any{
						"status": map[string]any{},
						"scale":  map[string]any{"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.availableReplicas"},
					},
					"additionalPrinterColumns": []any{
						map[string]any{"name": "Deployment", "type": "string", "jsonPath": ".spec.deploymentName"},
					},
				},
			},
		},
	}}
}

// foo returns a Foo with the given spec and status members (nil: none).
func foo(spec, status map[string]any) *api.Unstructured {
	u := &api.Unstructured{Object: map[string]any{
		"apiVersion": "example.com/v1", "kind": "Foo",
		"metadata": map[string]any{"name": "f", "namespace": "ns"},
	}}
	if spec != nil {
		u.Object["spec"] = spec
	}
	if status != nil {
		u.Object["status"] = status
	}
	return u
}
