// When the lister has no pod for the key, syncHandler returns the NotFound error.
//
// Plausible because "the object is missing" sounds like a failure; but for a level-triggered
// controller a missing object is a state like any other: the pod was deleted (perhaps seen
// only as a tombstone after a relist), and the controller must clean up, not retry (T4, T17).
//
// File: chapters/10-controller/sync.go
// Caught by: TestCh10_T4_TombstoneDelete
package ch10

import (
	"context"
	"fmt"

	"github.com/informer-lab/informer-lab/store"
)

func (c *Controller) syncHandler(ctx context.Context, key string) error {
	namespace, name, err := store.SplitMetaNamespaceKey(key)
	if err != nil {
		c.errorHandler(fmt.Errorf("invalid resource key: %s", key))
		return nil
	}
	pod, err := c.podsLister.ByNamespace(namespace).Get(name)
	if err != nil {
		return err
	}
	images := imagesOf(pod)
	c.run(key, images)
	want := desiredStatus(images)
	if statusUpToDate(pod.Status, want) {
		return nil
	}
	podCopy := pod.DeepCopy()
	podCopy.Status = want
	_, err = c.client.UpdateStatus(ctx, podCopy)
	return err
}
