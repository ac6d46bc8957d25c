package testbed

import (
	"context"
	"sync"

	"github.com/informer-lab/informer-lab/controller"
	"github.com/informer-lab/informer-lab/workqueue"
)

// Controller is a workqueue controller of the testbed: a typed rate-limiting queue with
// DefaultTypedControllerRateLimiter, as sample-controller builds it, and controller.Loop (the
// loop chapter 10 teaches) over it. The caller's handlers Add keys to Queue; the caller sets
// the Loop's hooks and MaxRetries before Start. It has no client-go counterpart.
type Controller struct {
	// Queue is the workqueue the handlers feed.
	Queue workqueue.TypedRateLimitingInterface[string]
	// Loop is the worker loop over Queue.
	Loop *controller.Loop

	mu     sync.Mutex
	cancel context.CancelFunc
	wg     sync.WaitGroup
	once   sync.Once
}

// NewController builds a controller whose queue is called name in traces (logged to the
// testbed's Logger) and whose loop calls reconcile for every key. Nothing runs until Start;
// Close stops it.
func (tb *Testbed) NewController(name string, reconcile func(ctx context.Context, key string) error) *Controller {
	q := workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.DefaultTypedControllerRateLimiter[string](),
		workqueue.TypedRateLimitingQueueConfig[string]{Name: name, Logger: tb.Logger})
	c := &Controller{Queue: q, Loop: controller.NewLoop(q, reconcile)}
	tb.ctlMu.Lock()
	tb.ctls = append(tb.ctls, c)
	tb.ctlMu.Unlock()
	return c
}

// workerKey is the context key of a worker's number.
type workerKey struct{}

// Worker returns the number (1, 2, …) of the worker whose reconcile got ctx, or 0 outside one.
// The demo says which worker did what; client-go's workers are anonymous.
func Worker(ctx context.Context) int {
	n, _ := ctx.Value(workerKey{}).(int)
	return n
}

// Start runs n workers, numbered from 1, until Stop or until ctx ends. Each runs the Loop's
// RunWorker, so once ctx ends a worker finishes the key in hand and takes no other.
func (c *Controller) Start(ctx context.Context, workers int) {
	ctx, cancel := context.WithCancel(ctx)
	c.mu.Lock()
	c.cancel = cancel
	c.mu.Unlock()
	for i := 1; i <= workers; i++ {
		wctx := context.WithValue(ctx, workerKey{}, i)
		c.wg.Go(func() { c.Loop.RunWorker(wctx) })
	}
}

// Stop ends the workers, shuts the queue down and waits until every worker has returned; a
// worker waiting inside its reconcile must be released first. Calling it again does nothing.
func (c *Controller) Stop() {
	c.once.Do(func() {
		c.mu.Lock()
		if c.cancel != nil {
			c.cancel()
		}
		c.mu.Unlock()
		c.Queue.ShutDown()
		c.wg.Wait()
	})
}
