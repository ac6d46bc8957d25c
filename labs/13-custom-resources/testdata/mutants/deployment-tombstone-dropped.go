// handleObject expects a Deployment and reports anything else, a tombstone included.
//
// Plausible because a tombstone is not a Deployment; but a delete the watch missed reaches
// the handler only as a DeletedFinalStateUnknown after a relist, and the Foo must still learn
// that its Deployment is gone, to create it again.
//
// File: chapters/13-custom-resources/controller.go
// Caught by: TestCh13_HandleObject_EnqueuesTheController
package ch13

import (
	"fmt"
	"log/slog"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/internal/trace"
)

func (c *Controller) handleObject(obj any) {
	d, ok := obj.(*api.Unstructured)
	if !ok {
		c.errorHandler(fmt.Errorf("handleObject: expected a Deployment, got %T", obj))
		return
	}
	ref := GetControllerOf(d)
	if ref == nil || ref.Kind != FooGVK.Kind {
		return
	}
	if _, err := c.foosLister.ByNamespace(d.GetNamespace()).Get(ref.Name); err != nil {
		if trace.Enabled(c.logger) {
			trace.Hop(c.logger, traceComponent, "orphan", d.GetNamespace()+"/"+d.GetName(), d.GetResourceVersion(),
				slog.String("owner", ref.Name))
		}
		return // its Foo is gone: ignore the orphan (no garbage collector here, see the README)
	}
	// The hop carries the Deployment's resourceVersion: its event is the cause.
	c.enqueue(d.GetNamespace()+"/"+ref.Name, d.GetResourceVersion(), "deployment "+d.GetName())
}
