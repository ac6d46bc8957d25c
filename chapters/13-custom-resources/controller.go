package ch13

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/client/dynamic"
	"github.com/informer-lab/informer-lab/controller"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/store"
	"github.com/informer-lab/informer-lab/workqueue"
)

// ControllerAgentName mirrors controllerAgentName in sample-controller: the component named by
// the controller's events.
const ControllerAgentName = "sample-controller"

// traceComponent is the component attribute of the controller's hops.
const traceComponent = "controller"

// Options are ours: what sample-controller's NewController builds for itself. Every field may
// be left zero.
type Options struct {
	// Queue is the workqueue; nil builds a rate-limiting queue with
	// DefaultTypedControllerRateLimiter, named "Foos" as in sample-controller.
	Queue workqueue.TypedRateLimitingInterface[string]
	// ErrorHandler receives what utilruntime.HandleError would: keys given up on, Foos the
	// controller cannot act on, events it could not write. nil logs them at Error level.
	ErrorHandler func(err error)
	// Logger receives the Debug hops of the controller, its recorder and its default queue.
	Logger *slog.Logger
}

// Controller mirrors Controller in k8s.io/sample-controller controller.go: it keeps, for every
// Foo, a Deployment with the Foo's name and replicas, and reports the Deployment's available
// replicas in the Foo's status.
type Controller struct {
	client            dynamic.Interface
	deploymentsLister store.GenericLister
	deploymentsSynced informer.InformerSynced
	foosLister        store.GenericLister
	foosSynced        informer.InformerSynced
	workqueue         workqueue.TypedRateLimitingInterface[string]
	recorder          *Recorder
	loop              controller.Loop

	// SyncHandler is the function each worker calls with a key (c.syncHandler), a field so
	// a test can wrap it. Replace it only before Run.
	SyncHandler func(ctx context.Context, key string) error

	errorHandler func(error)
	logger       *slog.Logger
}

// NewController mirrors NewController in sample-controller. It takes the dynamic client for
// every write (Deployments, Foo status, Events) and two informers from a factory: the
// Deployments' and the Foos'. Get them before the factory's Start.
func NewController(client dynamic.Interface, deployments, foos informer.GenericInformer, opts Options) (*Controller, error) {
	if client == nil || deployments == nil || foos == nil {
		return nil, errors.New("ch13: NewController needs a dynamic client and two informers")
	}
	c := &Controller{
		client:            client,
		deploymentsLister: deployments.Lister(),
		deploymentsSynced: deployments.Informer().HasSynced,
		foosLister:        foos.Lister(),
		foosSynced:        foos.Informer().HasSynced,
		workqueue:         opts.Queue,
		errorHandler:      opts.ErrorHandler,
		logger:            opts.Logger,
	}
	if c.workqueue == nil {
		c.workqueue = workqueue.NewTypedRateLimitingQueueWithConfig(
			workqueue.DefaultTypedControllerRateLimiter[string](),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: "Foos", Logger: opts.Logger})
	}
	if c.errorHandler == nil {
		l := opts.Logger
		if l == nil {
			l = slog.Default()
		}
		c.errorHandler = func(err error) { l.Error("unhandled error", "controller", ControllerAgentName, "err", err) }
	}
	c.recorder = NewRecorder(client, ControllerAgentName, c.errorHandler, opts.Logger)
	c.SyncHandler = c.syncHandler
	c.loop = controller.Loop{
		Queue:      c.workqueue,
		Reconcile:  func(ctx context.Context, key string) error { return c.SyncHandler(ctx, key) },
		MaxRetries: controller.MaxRetries,
		HandleError: func(key string, err error) {
			c.errorHandler(fmt.Errorf("dropping Foo %q out of the queue: %w", key, err))
		},
	}

	// A Foo's every change enqueues it.
	if _, err := foos.Informer().AddEventHandlerWithOptions(processor.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { c.enqueueFoo(obj, "OnAdd") },
		UpdateFunc: func(_, newObj any) { c.enqueueFoo(newObj, "OnUpdate") },
		DeleteFunc: func(obj any) { c.enqueueFoo(obj, "OnDelete") },
	}, informer.HandlerOptions{Name: "foos"}); err != nil {
		return nil, fmt.Errorf("ch13: registering the Foo handler: %w", err)
	}
	// A Deployment's change enqueues the Foo that controls it, if any.
	if _, err := deployments.Informer().AddEventHandlerWithOptions(processor.ResourceEventHandlerFuncs{
		AddFunc: c.handleObject,
		UpdateFunc: func(oldObj, newObj any) {
			o, ok1 := oldObj.(api.MetaObject)
			n, ok2 := newObj.(api.MetaObject)
			if ok1 && ok2 && o.GetResourceVersion() == n.GetResourceVersion() {
				return // a resync or relist of an unchanged Deployment: nothing new
			}
			c.handleObject(newObj)
		},
		DeleteFunc: c.handleObject,
	}, informer.HandlerOptions{Name: "deployments"}); err != nil {
		return nil, fmt.Errorf("ch13: registering the Deployment handler: %w", err)
	}
	return c, nil
}

// enqueueFoo mirrors enqueueFoo: turn the Foo (or its tombstone) into "namespace/name" and
// Add the key.
//
//lab:13.1
func (c *Controller) enqueueFoo(obj any, handler string) {
	key, err := store.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		c.errorHandler(fmt.Errorf("%s: %w", handler, err))
		return
	}
	var rv string
	if trace.Enabled(c.logger) {
		_, rv, _ = store.KeyAndResourceVersion(obj)
	}
	c.enqueue(key, rv, handler)
}

// enqueue Adds key; its hop carries the resourceVersion of the object whose event caused it.
func (c *Controller) enqueue(key, rv, handler string) {
	if trace.Enabled(c.logger) {
		trace.Hop(c.logger, traceComponent, "enqueue", key, rv, slog.String("handler", handler))
	}
	c.workqueue.Add(key)
}

// handleObject mirrors handleObject: for any Deployment (a tombstone included), find the
// controller reference; if it names a Foo that the cache still holds, enqueue that Foo. A
// Deployment without a Foo controller is none of this controller's business.
//
//lab:13.1
func (c *Controller) handleObject(obj any) {
	if tomb, ok := obj.(store.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
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

// Run mirrors Controller.Run: wait for both caches, start workers, block until ctx ends.
// Unlike sample-controller it returns only after every worker has exited.
func (c *Controller) Run(ctx context.Context, workers int) error {
	if workers < 1 {
		return fmt.Errorf("ch13: Run needs at least one worker, got %d", workers)
	}
	defer c.workqueue.ShutDown()
	if !informer.WaitForCacheSync(ctx.Done(), c.deploymentsSynced, c.foosSynced) {
		return errors.New("ch13: failed to wait for caches to sync")
	}
	c.loop.Run(ctx, workers)
	return nil
}
