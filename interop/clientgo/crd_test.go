package clientgo_test

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/tools/cache"

	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/interop/internal/wiretest"
)

const interopFooCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.samplecontroller.k8s.io
  annotations: {api-approved.kubernetes.io: "unapproved, experimental-only"}
spec:
  group: samplecontroller.k8s.io
  scope: Namespaced
  names: {plural: foos, singular: foo, kind: Foo, listKind: FooList, shortNames: [fo]}
  versions:
  - name: v1alpha1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [deploymentName]
            properties:
              deploymentName: {type: string}
              replicas: {type: integer, minimum: 1, maximum: 10}
          status:
            type: object
            properties:
              availableReplicas: {type: integer}
`

var (
	crdGVR = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	fooGVR = schema.GroupVersionResource{Group: "samplecontroller.k8s.io", Version: "v1alpha1", Resource: "foos"}
)

// TestInterop_CRDWithDynamicClientAndInformer creates the Foo CRD with client-go's dynamic
// client, watches Foos with a dynamic informer, writes them (spec, then the status
// subresource), sees a bad Foo refused with the real message, and deletes the CRD: the
// informer sees the Foo go.
func TestInterop_CRDWithDynamicClientAndInformer(t *testing.T) {
	env := wiretest.Start(t, apiserver.Options{})
	dyn, err := dynamic.NewForConfig(wiretest.RESTConfig(env.URL))
	require.NoError(t, err)
	ctx := context.Background()

	crd := &unstructured.Unstructured{}
	require.NoError(t, yaml.Unmarshal([]byte(interopFooCRD), &crd.Object))
	created, err := dyn.Resource(crdGVR).Create(ctx, crd, metav1.CreateOptions{})
	require.NoError(t, err)
	conds, _, _ := unstructured.NestedSlice(created.Object, "status", "conditions")
	assert.Empty(t, conds, "the create's answer is the CRD before its controllers, as on the real server")
	read, err := dyn.Resource(crdGVR).Get(ctx, created.GetName(), metav1.GetOptions{})
	require.NoError(t, err)
	conds, _, _ = unstructured.NestedSlice(read.Object, "status", "conditions")
	require.GreaterOrEqual(t, len(conds), 2)
	assert.Equal(t, "Established", conds[1].(map[string]any)["type"])

	f := dynamicinformer.NewFilteredDynamicSharedInformerFactory(dyn, 0, "default", nil)
	inf := f.ForResource(fooGVR).Informer()
	var mu sync.Mutex
	var seen []string
	_, err = inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			mu.Lock()
			seen = append(seen, "add "+obj.(*unstructured.Unstructured).GetName())
			mu.Unlock()
		},
		UpdateFunc: func(_, obj any) {
			mu.Lock()
			seen = append(seen, "update "+obj.(*unstructured.Unstructured).GetName())
			mu.Unlock()
		},
		DeleteFunc: func(obj any) {
			if u, ok := obj.(*unstructured.Unstructured); ok {
				mu.Lock()
				seen = append(seen, "delete "+u.GetName())
				mu.Unlock()
			}
		},
	})
	require.NoError(t, err)
	ictx, cancel := context.WithCancel(ctx)
	f.Start(ictx.Done())
	t.Cleanup(func() { cancel(); f.Shutdown() })
	require.True(t, cache.WaitForCacheSync(ictx.Done(), inf.HasSynced))

	foos := dyn.Resource(fooGVR).Namespace("default")
	foo := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "samplecontroller.k8s.io/v1alpha1", "kind": "Foo",
		"metadata": map[string]any{"name": "example-foo"},
		"spec":     map[string]any{"deploymentName": "example-foo", "replicas": int64(1)},
	}}
	got, err := foos.Create(ctx, foo, metav1.CreateOptions{})
	require.NoError(t, err)
	require.NoError(t, unstructured.SetNestedField(got.Object, int64(1), "status", "availableReplicas"))
	got, err = foos.UpdateStatus(ctx, got, metav1.UpdateOptions{})
	require.NoError(t, err)
	assert.Equal(t, int64(1), got.GetGeneration(), "a status write leaves generation")
	waitFor(t, "the informer to see the status", func() bool {
		obj, ok, _ := inf.GetStore().GetByKey("default/example-foo")
		if !ok {
			return false
		}
		n, _, _ := unstructured.NestedInt64(obj.(*unstructured.Unstructured).Object, "status", "availableReplicas")
		return n == 1
	})

	bad := foo.DeepCopy()
	bad.SetName("big")
	require.NoError(t, unstructured.SetNestedField(bad.Object, int64(12), "spec", "replicas"))
	_, err = foos.Create(ctx, bad, metav1.CreateOptions{})
	require.True(t, apierrors.IsInvalid(err), "%v", err)
	assert.Equal(t, `Foo.samplecontroller.k8s.io "big" is invalid: spec.replicas: Invalid value: 12: spec.replicas in body should be less than or equal to 10`, err.Error())

	require.NoError(t, dyn.Resource(crdGVR).Delete(ctx, "foos.samplecontroller.k8s.io", metav1.DeleteOptions{}))
	waitFor(t, "the informer to see the Foo deleted", func() bool { return len(inf.GetStore().List()) == 0 })
	// The store forgets the Foo before the handler hears of it: wait for the handler too.
	waitFor(t, "the handler to see the Foo deleted", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(seen) == 3
	})
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, []string{"add example-foo", "update example-foo", "delete example-foo"}, seen)
}
