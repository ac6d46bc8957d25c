package garbagecollector_test

import (
	"encoding/json"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
)

var (
	crds = api.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	foos = api.GroupVersionResource{Group: "samplecontroller.k8s.io", Version: "v1alpha1", Resource: "foos"}
)

// fooCRD is the sample-controller's Foo, reduced to what the test needs.
const fooCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
 "metadata":{"name":"foos.samplecontroller.k8s.io","annotations":{"api-approved.kubernetes.io":"unapproved, experimental-only"}},
 "spec":{"group":"samplecontroller.k8s.io","scope":"Namespaced",
  "names":{"plural":"foos","singular":"foo","kind":"Foo","listKind":"FooList"},
  "versions":[{"name":"v1alpha1","served":true,"storage":true,
   "schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}`

// TestCh14_GC_CustomResourceOwner: the sample-controller's case. A Foo owns the Deployment
// made for it; deleting the Foo collects the Deployment. The CRD is created after the
// collector started, so only the periodic re-discovery makes Foo known to it.
func TestCh14_GC_CustomResourceOwner(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"garbagecollector"}})
		var crd map[string]any
		require.NoError(t, json.Unmarshal([]byte(fooCRD), &crd))
		c.Create(t, crds, "", crd)
		c.Eventually(t, 10*time.Second, func() bool {
			_, err := c.Client.Resource(foos).Namespace("default").List(t.Context(), api.ListOptions{})
			return err == nil
		})
		foo := c.Create(t, foos, "default", map[string]any{"apiVersion": "samplecontroller.k8s.io/v1alpha1", "kind": "Foo",
			"metadata": map[string]any{"name": "example-foo"}, "spec": map[string]any{"deploymentName": "example-foo", "replicas": 1}})
		d := deployment("example-foo")
		d["metadata"].(map[string]any)["ownerReferences"] = []any{map[string]any{"apiVersion": "samplecontroller.k8s.io/v1alpha1",
			"kind": "Foo", "name": "example-foo", "uid": foo.GetUID(), "controller": true, "blockOwnerDeletion": true}}
		c.Create(t, app.Deployments, "default", d)
		// Past a re-discovery: the collector now watches foos, and the Deployment stays.
		time.Sleep(2 * time.Minute)
		c.Settle()
		require.NotNil(t, c.Get(t, app.Deployments, "default", "example-foo"), "its owner exists")
		del(t, c, foos, "default", "example-foo", "")
		c.Eventually(t, 3*time.Minute, gone(t, c, app.Deployments, "default", "example-foo"))
	})
}
