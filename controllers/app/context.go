package app

import (
	"context"
	"log/slog"
	"sync"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/client/dynamic"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/rest"
	"github.com/informer-lab/informer-lab/workqueue"
)

// Controller is one running control loop. It mirrors the controller interface of
// k8s.io/controller-manager/controller (Name) with the Run of each upstream controller.
type Controller interface {
	// Name is the controller's name as --controllers spells it ("deployment", "garbagecollector").
	Name() string
	// Run blocks until ctx ends, with workers goroutines on its queue, and returns only when
	// every goroutine it started has returned.
	Run(ctx context.Context, workers int)
}

// InitFunc mirrors app.InitFunc of kube-controller-manager: build a controller from the
// shared context. It asks the factory for the informers it needs and registers its
// handlers; it must not start anything.
type InitFunc func(cc *ControllerContext) (Controller, error)

// ControllerContext mirrors app.ControllerContext of kube-controller-manager: what every
// controller shares.
type ControllerContext struct {
	// Config reaches the apiserver.
	Config *rest.Config
	// Client is the dynamic client every controller writes with.
	Client *dynamic.DynamicClient
	// InformerFactory is the one factory of the cluster (contract 1).
	InformerFactory informer.SharedInformerFactory
	// Recorder writes Events.
	Recorder *Recorder
	// Nodes is how many simulated nodes the node controllers (kubelets) run.
	Nodes int
	// Logger receives every controller's hops; nil is silent (trace.Hop checks).
	Logger *slog.Logger

	mu     sync.Mutex
	queues map[string]workqueue.TypedRateLimitingInterface[string]
}

// NewControllerContext builds the shared context over cfg. A nil logger is silent.
func NewControllerContext(cfg *rest.Config, logger *slog.Logger) (*ControllerContext, error) {
	dc, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	f := informer.NewDynamicSharedInformerFactory(dc, 0, informer.WithLogger(logger))
	return &ControllerContext{
		Config:          cfg,
		Client:          dc,
		InformerFactory: f,
		Recorder:        &Recorder{client: dc, logger: logger},
		Logger:          logger,
		queues:          map[string]workqueue.TypedRateLimitingInterface[string]{},
	}, nil
}

// Informer returns the shared informer of gvr (all namespaces).
func (cc *ControllerContext) Informer(gvr api.GroupVersionResource) informer.SharedIndexInformer {
	gi, err := cc.InformerFactory.ForResource(gvr)
	if err != nil {
		panic(err) // only for an empty GVR: a programming error
	}
	return gi.Informer()
}

// NewQueue mirrors workqueue.NewTypedRateLimitingQueueWithConfig with
// DefaultTypedControllerRateLimiter, as every kube-controller-manager controller builds its
// queue, and records it under name (contract 2).
func (cc *ControllerContext) NewQueue(name string) workqueue.TypedRateLimitingInterface[string] {
	q := workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.DefaultTypedControllerRateLimiter[string](),
		workqueue.TypedRateLimitingQueueConfig[string]{Name: name, Logger: cc.Logger})
	cc.mu.Lock()
	cc.queues[name] = q
	cc.mu.Unlock()
	return q
}

// QueueDepths returns the length of every queue built with NewQueue, by name.
func (cc *ControllerContext) QueueDepths() map[string]int {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	out := make(map[string]int, len(cc.queues))
	for n, q := range cc.queues {
		out[n] = q.Len()
	}
	return out
}

// ShutDownQueues shuts down every queue built with NewQueue. The manager calls it when it
// gives up before the controllers run (their Run would otherwise shut each queue down), so a
// start that fails leaves no queue goroutine behind.
func (cc *ControllerContext) ShutDownQueues() {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	for _, q := range cc.queues {
		q.ShutDown()
	}
}
