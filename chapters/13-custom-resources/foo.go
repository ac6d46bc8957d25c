package ch13

import (
	"fmt"

	"github.com/informer-lab/informer-lab/api"
)

// The resources the controller reads and writes. Foo has no Go type anywhere: like a custom
// resource reached through client-go's dynamic client, it is an *api.Unstructured, and these
// helpers read the few fields the controller needs. Deployments are Unstructured too, because
// our typed views stop at the kinds of the earlier chapters.
var (
	// FooGVR is the Foo resource of k8s.io/sample-controller (samplecontroller.k8s.io/v1alpha1).
	FooGVR = api.GroupVersionResource{Group: "samplecontroller.k8s.io", Version: "v1alpha1", Resource: "foos"}
	// FooGVK is its kind.
	FooGVK = api.GroupVersionKind{Group: "samplecontroller.k8s.io", Version: "v1alpha1", Kind: "Foo"}
	// DeploymentGVR is apps/v1 deployments, the objects a Foo owns.
	DeploymentGVR = api.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	// EventGVR is core/v1 events, where the recorder writes.
	EventGVR = api.GroupVersionResource{Version: "v1", Resource: "events"}
)

// NewFoo is ours: a Foo asking for a Deployment called deploymentName with replicas pods, the
// object of sample-controller's artifacts/examples/example-foo.yaml.
func NewFoo(namespace, name, deploymentName string, replicas int64) *api.Unstructured {
	u := &api.Unstructured{Object: map[string]any{
		"spec": map[string]any{"deploymentName": deploymentName, "replicas": replicas},
	}}
	u.SetGroupVersionKind(FooGVK)
	u.SetNamespace(namespace)
	u.SetName(name)
	return u
}

// FooSpec is ours: the two spec fields of sample-controller's FooSpec. Replicas is nil when
// the Foo does not set it (the CRD makes it optional).
type FooSpec struct {
	DeploymentName string
	Replicas       *int64
}

// SpecOf reads a Foo's spec.
func SpecOf(foo *api.Unstructured) (FooSpec, error) {
	name, _, err := api.NestedString(foo.Object, "spec", "deploymentName")
	if err != nil {
		return FooSpec{}, err
	}
	spec := FooSpec{DeploymentName: name}
	if n, found, err := nestedInt64(foo.Object, "spec", "replicas"); err != nil {
		return FooSpec{}, err
	} else if found {
		spec.Replicas = &n
	}
	return spec, nil
}

// FooStatus is ours: sample-controller's FooStatus (availableReplicas) plus the
// observedGeneration this chapter adds, the generation of the spec the status was written for.
type FooStatus struct {
	AvailableReplicas  int64
	ObservedGeneration int64
}

// StatusOf reads a Foo's status; missing fields are zero.
func StatusOf(foo *api.Unstructured) FooStatus {
	var s FooStatus
	s.AvailableReplicas, _, _ = nestedInt64(foo.Object, "status", "availableReplicas")
	s.ObservedGeneration, _, _ = nestedInt64(foo.Object, "status", "observedGeneration")
	return s
}

// Replicas is ours: a Deployment's spec.replicas (1, the server's default, when absent).
func Replicas(deployment *api.Unstructured) int64 {
	n, found, _ := nestedInt64(deployment.Object, "spec", "replicas")
	if !found {
		return 1
	}
	return n
}

// AvailableReplicas is ours: a Deployment's status.availableReplicas, which the deployment
// controller writes (0 when absent).
func AvailableReplicas(deployment *api.Unstructured) int64 {
	n, _, _ := nestedInt64(deployment.Object, "status", "availableReplicas")
	return n
}

// nestedInt64 reads an integer field. Our decoder makes JSON integers int64; a float64 with no
// fraction (from encoding/json) and an int are accepted too.
func nestedInt64(obj map[string]any, fields ...string) (int64, bool, error) {
	var v any = obj
	for _, f := range fields {
		m, ok := v.(map[string]any)
		if !ok {
			return 0, false, nil
		}
		if v, ok = m[f]; !ok || v == nil {
			return 0, false, nil
		}
	}
	switch n := v.(type) {
	case int64:
		return n, true, nil
	case int:
		return int64(n), true, nil
	case float64:
		if n == float64(int64(n)) {
			return int64(n), true, nil
		}
	}
	return 0, false, fmt.Errorf("%v is %T, not an integer", fields, v)
}
