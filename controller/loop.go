package controller

import (
	"context"
	"sync"

	"github.com/informer-lab/informer-lab/workqueue"
)

// MaxRetries mirrors the 5 of handleErr in client-go examples/workqueue/main.go: how many
// times a failing key is requeued before the loop gives up on it. NewLoop starts every Loop
// with it.
const MaxRetries = 5

// Loop mirrors Controller in client-go examples/workqueue/main.go, reduced to its worker half
// (runWorker, processNextItem and handleErr, which k8s.io/sample-controller's controller.go
// shares) over a queue of keys and a reconcile function. Chapter 10's Controller runs one with
// its SyncHandler.
//
// It is the lab's only controller loop: the demo's scheduler, the scenario runner and the
// chaos suite (all three through internal/testbed) and chapter 13's controller run this very
// loop with their own Reconcile and hooks, so what chapter 10 teaches is what they do. Set
// the fields before the first worker starts; a Loop is not modified while it runs.
type Loop struct {
	// Queue hands out the keys. The loop calls Get, Done, Forget, AddRateLimited and
	// NumRequeues on it, and ShutDown when Run returns.
	Queue workqueue.TypedRateLimitingInterface[string]
	// Reconcile mirrors the syncHandler of sample-controller: make the world match what the
	// cache holds for key. An error retries the key.
	Reconcile func(ctx context.Context, key string) error
	// MaxRetries mirrors the 5 of examples/workqueue: a failing key is requeued while
	// NumRequeues is below it, then given up. NewLoop sets it to the package's MaxRetries;
	// zero gives up at the first failure.
	MaxRetries int

	// OnRetry, when set, is called as a failed key is about to be requeued with
	// AddRateLimited, with the key's NumRequeues before it; it is where the "Error syncing"
	// line of examples/workqueue goes, so a trace shows the decision before the queue's
	// requeue.
	OnRetry func(ctx context.Context, key string, requeues int, err error)
	// OnGiveUp, when set, is called as a key that failed MaxRetries times is about to be
	// Forgotten, with its last error: the trace line of the drop, again before the queue's.
	OnGiveUp func(ctx context.Context, key string, err error)
	// HandleError, when set, receives the key and the error after the key was given up and
	// Forgotten, as examples/workqueue hands it to utilruntime.HandleError.
	HandleError func(key string, err error)
}

// NewLoop returns a Loop over queue that calls reconcile for every key and gives up on a key
// after MaxRetries requeues. It mirrors the part of NewController that wires the queue to
// the sync handler.
func NewLoop(queue workqueue.TypedRateLimitingInterface[string], reconcile func(ctx context.Context, key string) error) *Loop {
	return &Loop{Queue: queue, Reconcile: reconcile, MaxRetries: MaxRetries}
}

// Run mirrors Controller.Run in k8s.io/sample-controller controller.go, reduced to its
// workers: start them, block until ctx ends, then shut the queue down and, unlike
// sample-controller, wait for every worker, so that nothing outlives Run. A worker finishes
// the key in hand and starts no other once ctx has ended.
func (l *Loop) Run(ctx context.Context, workers int) {
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() { l.RunWorker(ctx) })
	}
	<-ctx.Done()
	l.Queue.ShutDown() // Get returns shutdown once the queue is empty
	wg.Wait()
}

// RunWorker mirrors Controller.runWorker in client-go examples/workqueue/main.go: process keys
// until the queue shuts down or ctx ends. Run starts workers with it; a caller that numbers
// its workers starts its own.
func (l *Loop) RunWorker(ctx context.Context) {
	for l.ProcessNextWorkItem(ctx) {
	}
}

// ProcessNextWorkItem mirrors Controller.processNextItem in client-go
// examples/workqueue/main.go (processNextWorkItem in sample-controller): Get one key,
// reconcile it, decide about retries, and always call Done so the key can be handed out again.
// It reports false once the queue has shut down or ctx has ended.
//
//lab:10.1
func (l *Loop) ProcessNextWorkItem(ctx context.Context) bool {
	key, shutdown := l.Queue.Get()
	if shutdown {
		return false
	}
	defer l.Queue.Done(key)
	if ctx.Err() != nil {
		return false // shutting down: do not start another sync
	}
	err := l.Reconcile(ctx, key)
	l.handleErr(ctx, err, key)
	return true
}

// handleErr mirrors handleErr in examples/workqueue: Forget on success; on failure retry with
// AddRateLimited until the key has been requeued MaxRetries times, then Forget it and report.
//
//lab:10.1
func (l *Loop) handleErr(ctx context.Context, err error, key string) {
	if err == nil {
		l.Queue.Forget(key) // the next failure starts again at the base delay
		return
	}
	if n := l.Queue.NumRequeues(key); n < l.MaxRetries {
		if l.OnRetry != nil {
			l.OnRetry(ctx, key, n, err)
		}
		l.Queue.AddRateLimited(key)
		return
	}
	if l.OnGiveUp != nil {
		l.OnGiveUp(ctx, key, err)
	}
	l.Queue.Forget(key)
	if l.HandleError != nil {
		l.HandleError(key, err)
	}
}
