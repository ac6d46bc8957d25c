package ch10

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controller"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/store"
	"github.com/informer-lab/informer-lab/workqueue"
)

// traceComponent is the component attribute of the controller's hops.
const traceComponent = "controller"

// Options are ours: what sample-controller's NewController takes as parameters or sets up
// itself (the queue, the event recorder's role, the logger). Every field may be left zero.
type Options struct {
	// Name labels the controller's handler in listener traces and names its default queue;
	// empty means "pod-controller".
	Name string
	// Queue is the workqueue; nil builds a rate-limiting queue with
	// DefaultTypedControllerRateLimiter, as sample-controller does. The examples/workqueue
	// controller takes it as a parameter too, so a test can keep a handle on it.
	Queue workqueue.TypedRateLimitingInterface[string]
	// ErrorHandler receives the errors the controller gives up on (a key dropped after
	// controller.MaxRetries, a key or object it cannot parse), as utilruntime.HandleError
	// does. nil logs them at Error level to Logger, or to slog.Default() when Logger is nil.
	ErrorHandler func(err error)
	// Logger receives the Debug hops of the controller and of the default queue; nil is silent.
	Logger *slog.Logger
}

// Controller mirrors Controller in k8s.io/sample-controller controller.go (and the one in
// client-go examples/workqueue/main.go): informer handlers enqueue keys, workers sync them.
type Controller struct {
	client     PodClient
	podsLister store.ResourceIndexer[*api.Pod]
	podsSynced informer.InformerSynced
	workqueue  workqueue.TypedRateLimitingInterface[string]
	// loop is the worker half (controller.Loop, controller/loop.go): it hands each key of
	// workqueue to SyncHandler.
	loop controller.Loop

	// SyncHandler mirrors the syncHandler field of kube-controller-manager's controllers: the
	// function a worker calls with each key, a field so that tests can wrap it. NewController
	// sets it to the controller's own sync. Replace it only before Run.
	SyncHandler func(ctx context.Context, key string) error

	errorHandler func(error)
	logger       *slog.Logger

	// running is the in-memory "container runtime": pod key → the images it runs.
	mu      sync.Mutex
	running map[string]string
}

// NewController mirrors NewController in sample-controller: it registers the handlers on the
// pod informer, takes its lister, and builds the workqueue. Get the informer from a factory
// before the factory's Start, so that Start runs it.
func NewController(client PodClient, pods informer.PodInformer, opts Options) (*Controller, error) {
	if client == nil || pods == nil {
		return nil, errors.New("ch10: NewController needs a PodClient and a PodInformer")
	}
	if opts.Name == "" {
		opts.Name = "pod-controller"
	}
	c := &Controller{
		client:     client,
		podsLister: pods.Lister(),
		podsSynced: pods.Informer().HasSynced,
		workqueue:  opts.Queue,
		logger:     opts.Logger,
		running:    map[string]string{},
	}
	if c.workqueue == nil {
		c.workqueue = workqueue.NewTypedRateLimitingQueueWithConfig(
			workqueue.DefaultTypedControllerRateLimiter[string](),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: opts.Name, Logger: opts.Logger})
	}
	c.errorHandler = opts.ErrorHandler
	if c.errorHandler == nil {
		l := opts.Logger
		if l == nil {
			l = slog.Default()
		}
		c.errorHandler = func(err error) { l.Error("unhandled error", "controller", opts.Name, "err", err) }
	}
	c.SyncHandler = c.syncHandler
	c.loop = c.newLoop()

	_, err := pods.Informer().AddEventHandlerWithOptions(processor.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { c.enqueuePod(obj, "OnAdd") },
		UpdateFunc: func(_, newObj any) { c.enqueuePod(newObj, "OnUpdate") },
		DeleteFunc: func(obj any) { c.enqueuePod(obj, "OnDelete") },
	}, informer.HandlerOptions{Name: opts.Name})
	if err != nil {
		return nil, fmt.Errorf("ch10: registering the pod handler: %w", err)
	}
	return c, nil
}

// enqueuePod mirrors enqueueFoo in sample-controller: turn the object into its key and Add
// the key. DeletionHandlingMetaNamespaceKeyFunc reads a tombstone's Key, so a delete that
// arrives as DeletedFinalStateUnknown enqueues the right key.
func (c *Controller) enqueuePod(obj any, handler string) {
	key, err := store.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		c.errorHandler(fmt.Errorf("%s: %w", handler, err))
		return
	}
	if trace.Enabled(c.logger) {
		c.traceEnqueue(obj, key, handler)
	}
	c.workqueue.Add(key)
}

// traceEnqueue logs the enqueue hop; the rv is the object's, or for a tombstone the last state
// the informer knew.
func (c *Controller) traceEnqueue(obj any, key, handler string) {
	attrs := []slog.Attr{slog.String("handler", handler)}
	_, rv, tombstone := store.KeyAndResourceVersion(obj)
	if tombstone {
		attrs = append(attrs, slog.Bool("tombstone", true))
	}
	trace.Hop(c.logger, traceComponent, "enqueue", key, rv, attrs...)
}

// Run mirrors Controller.Run in sample-controller: wait for the cache, start workers, and
// block until ctx ends. Unlike sample-controller it returns only after every worker has
// exited, so nothing outlives it.
func (c *Controller) Run(ctx context.Context, workers int) error {
	if workers < 1 {
		return fmt.Errorf("ch10: Run needs at least one worker, got %d", workers)
	}
	defer c.workqueue.ShutDown()
	if !informer.WaitForCacheSync(ctx.Done(), c.podsSynced) {
		return errors.New("ch10: failed to wait for caches to sync")
	}
	c.loop.Run(ctx, workers)
	return nil
}

// newLoop wires the worker half to this controller: each key goes to SyncHandler (read at
// every call, so a test may wrap it before Run), retries and drops are traced, and a key
// given up on is reported to the error handler.
func (c *Controller) newLoop() controller.Loop {
	return controller.Loop{
		Queue:       c.workqueue,
		Reconcile:   func(ctx context.Context, key string) error { return c.SyncHandler(ctx, key) },
		MaxRetries:  controller.MaxRetries,
		OnRetry:     c.traceRetry,
		OnGiveUp:    c.traceDrop,
		HandleError: c.reportDrop,
	}
}

// traceRetry logs the retry hop, before the queue's requeue.
func (c *Controller) traceRetry(_ context.Context, key string, requeues int, err error) {
	if trace.Enabled(c.logger) {
		trace.Hop(c.logger, traceComponent, "retry", key, "", slog.Int("requeues", requeues), slog.String("err", err.Error()))
	}
}

// traceDrop logs the drop hop, before the queue forgets the key.
func (c *Controller) traceDrop(_ context.Context, key string, err error) {
	if trace.Enabled(c.logger) {
		trace.Hop(c.logger, traceComponent, "drop", key, "", slog.Int("requeues", controller.MaxRetries), slog.String("err", err.Error()))
	}
}

// reportDrop hands the error of a key given up on to the error handler, as handleErr hands it
// to utilruntime.HandleError.
func (c *Controller) reportDrop(key string, err error) {
	c.errorHandler(fmt.Errorf("dropping pod %q out of the queue: %w", key, err))
}

// Running is ours: what the in-memory runtime runs, pod key → its images, comma-separated.
// It is the "world" the controller reconciles, the Deployments of sample-controller.
func (c *Controller) Running() map[string]string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]string, len(c.running))
	for k, v := range c.running {
		out[k] = v
	}
	return out
}
