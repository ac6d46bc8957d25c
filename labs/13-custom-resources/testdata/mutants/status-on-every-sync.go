// updateFooStatus writes the status on every sync, even when it already says so.
//
// Plausible because sample-controller itself does; but every status write is a Foo update
// event, which enqueues the Foo again, whose sync writes the status again: the controller
// never rests, and a status write must not look like a spec change (observedGeneration).
//
// File: chapters/13-custom-resources/sync.go
// Caught by: TestCh13_StatusWriteNoSpecReconcile
package ch13

import (
	"context"

	"github.com/informer-lab/informer-lab/api"
)

func (c *Controller) updateFooStatus(ctx context.Context, foo, deployment *api.Unstructured) (bool, error) {
	want := FooStatus{AvailableReplicas: AvailableReplicas(deployment), ObservedGeneration: foo.GetGeneration()}
	fooCopy := foo.DeepCopy() // never modify the cache
	status := map[string]any{"availableReplicas": want.AvailableReplicas, "observedGeneration": want.ObservedGeneration}
	if err := api.SetNestedField(fooCopy.Object, status, "status"); err != nil {
		return false, err
	}
	_, err := c.client.Resource(FooGVR).Namespace(foo.GetNamespace()).UpdateStatus(ctx, fooCopy, api.UpdateOptions{})
	return err == nil, err
}
