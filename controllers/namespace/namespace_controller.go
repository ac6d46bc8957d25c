// Package namespace is the cluster's namespace controller: it mirrors
// pkg/controller/namespace of kube-controller-manager. A namespace the server has marked
// Terminating is emptied resource by resource (DeleteCollection, or each item), its status
// conditions say what remains, and once nothing is left its "kubernetes" spec finalizer is
// removed through the finalize subresource, upon which the server deletes it.
package namespace

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/client/discovery"
	"github.com/informer-lab/informer-lab/controller"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/workqueue"
)

// component names the controller in traces.
const component = "namespace-controller"

// Controller mirrors NamespaceController of namespace_controller.go.
type Controller struct {
	cc       *app.ControllerContext
	queue    workqueue.TypedRateLimitingInterface[string]
	informer informer.SharedIndexInformer
	deleter  *resourcesDeleter
}

// New mirrors startNamespaceController and NewNamespaceController: an informer on
// namespaces that queues every namespace with a deletionTimestamp.
func New(cc *app.ControllerContext) (app.Controller, error) {
	dc, err := discovery.NewDiscoveryClientForConfig(cc.Config)
	if err != nil {
		return nil, err
	}
	c := &Controller{
		cc:       cc,
		queue:    cc.NewQueue("namespace"),
		informer: cc.Informer(app.Namespaces),
		deleter:  &resourcesDeleter{cc: cc, discovery: dc},
	}
	enqueue := func(obj any) {
		u, ok := app.AsUnstructured(obj)
		if !ok || u.GetDeletionTimestamp() == nil {
			return
		}
		c.queue.Add(u.GetName())
	}
	_, err = c.informer.AddEventHandler(processor.ResourceEventHandlerFuncs{
		AddFunc:    enqueue,
		UpdateFunc: func(_, obj any) { enqueue(obj) },
	})
	return c, err
}

// Name is the controller's --controllers name.
func (c *Controller) Name() string { return "namespace" }

// Run mirrors NamespaceController.Run.
func (c *Controller) Run(ctx context.Context, workers int) {
	loop := controller.NewLoop(c.queue, c.syncNamespaceFromKey)
	loop.MaxRetries = 1 << 30 // requeued with rate limiting for ever, as upstream does
	loop.Run(ctx, workers)
}

// syncNamespaceFromKey mirrors the function of that name: a namespace with content left
// that only time removes (finalizers, graceful pods) comes back after the estimate instead
// of with the rate limiter's back-off.
func (c *Controller) syncNamespaceFromKey(ctx context.Context, key string) error {
	obj, exists, err := c.informer.GetIndexer().GetByKey(key)
	if err != nil || !exists {
		return err
	}
	u, ok := obj.(*api.Unstructured)
	if !ok {
		return nil
	}
	trace.Hop(c.cc.Logger, component, "sync", key, u.GetResourceVersion())
	err = c.deleter.Delete(ctx, key)
	defer func() {
		result := "ok"
		if err != nil {
			result = err.Error()
		}
		trace.Hop(c.cc.Logger, component, "sync-done", key, "", slog.String("result", result))
	}()
	var remaining *ResourcesRemainingError
	if errors.As(err, &remaining) {
		c.queue.AddAfter(key, time.Duration(remaining.Estimate/2+1)*time.Second)
		return nil
	}
	return err
}
