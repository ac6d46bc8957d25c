// Package garbagecollector is the cluster's garbage collector: it mirrors
// pkg/controller/garbagecollector of kube-controller-manager. Informers over every resource
// that supports delete, list and watch feed an ownerReferences graph (graph_builder.go);
// two queues act on it: attemptToDelete deletes dependents whose owners are all gone and
// finishes foreground deletions, attemptToOrphan strips references to an owner deleted with
// the orphan finalizer and then removes that finalizer.
package garbagecollector

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/client/discovery"
	"github.com/informer-lab/informer-lab/controller"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/workqueue"
)

// component names the collector in traces and events.
const component = "garbage-collector-controller"

// ResyncPeriod mirrors the 30 s period kube-controller-manager passes to
// GarbageCollector.Sync: how often discovery is read again for resources (CRDs) added since.
var ResyncPeriod = 30 * time.Second

// maxRetries: the collector's queues retry with rate limiting for ever, as upstream's do.
const maxRetries = 1 << 30

// GarbageCollector mirrors GarbageCollector of garbagecollector.go.
type GarbageCollector struct {
	cc        *app.ControllerContext
	discovery *discovery.DiscoveryClient
	mapper    restMapper

	attemptToDelete workqueue.TypedRateLimitingInterface[string]
	attemptToOrphan workqueue.TypedRateLimitingInterface[string]

	mu       sync.Mutex // guards the graph, the monitors and absentOwners
	graph    graph
	monitors map[api.GroupVersionResource]bool
	// absentOwners mirrors absentOwnerCache: owners a live GET found missing, by
	// coordinates and UID, so their other dependents need no GET.
	absentOwners map[objectReference]bool
	// pending are the events the graph's handlers report once the lock is released.
	pending []pendingEvent
}

// New mirrors startGarbageCollectorController and NewGarbageCollector: it discovers the
// deletable resources and asks the shared factory for an informer over each.
func New(cc *app.ControllerContext) (app.Controller, error) {
	dc, err := discovery.NewDiscoveryClientForConfig(cc.Config)
	if err != nil {
		return nil, err
	}
	gc := &GarbageCollector{
		cc:              cc,
		discovery:       dc,
		attemptToDelete: cc.NewQueue("garbage_collector_attempt_to_delete"),
		attemptToOrphan: cc.NewQueue("garbage_collector_attempt_to_orphan"),
		graph:           graph{uidToNode: map[string]*node{}},
		monitors:        map[api.GroupVersionResource]bool{},
		absentOwners:    map[objectReference]bool{},
	}
	if err := gc.resyncMonitors(context.Background()); err != nil {
		return nil, err
	}
	return gc, nil
}

// Name is the controller's --controllers name.
func (gc *GarbageCollector) Name() string { return "garbagecollector" }

// Run mirrors GarbageCollector.Run and Sync: workers on both queues, and discovery read
// again every ResyncPeriod, monitors started for new resources.
func (gc *GarbageCollector) Run(ctx context.Context, workers int) {
	del := controller.NewLoop(gc.attemptToDelete, gc.attemptToDeleteWorker)
	del.MaxRetries = maxRetries
	orphan := controller.NewLoop(gc.attemptToOrphan, gc.attemptToOrphanWorker)
	orphan.MaxRetries = maxRetries
	var wg sync.WaitGroup
	wg.Go(func() { del.Run(ctx, workers) })
	wg.Go(func() { orphan.Run(ctx, workers) })
	wg.Go(func() {
		t := time.NewTicker(ResyncPeriod)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if err := gc.resyncMonitors(ctx); err == nil {
					gc.cc.InformerFactory.StartWithContext(ctx)
				}
			}
		}
	})
	wg.Wait()
}

// resyncMonitors mirrors GraphBuilder.syncMonitors: an informer with the graph's handlers
// for every deletable resource not monitored yet. Monitors of resources gone from discovery
// stay: their informers retry, and they hold nothing.
func (gc *GarbageCollector) resyncMonitors(ctx context.Context) error {
	res, kinds, err := deletableResources(ctx, gc.discovery)
	if res == nil && err != nil {
		return err
	}
	gc.mapper.mu.Lock()
	gc.mapper.kinds = kinds
	gc.mapper.mu.Unlock()
	for _, m := range res {
		gc.mu.Lock()
		seen := gc.monitors[m.gvr]
		gc.monitors[m.gvr] = true
		gc.mu.Unlock()
		if seen {
			continue
		}
		kind := kindOf(kinds, m.gvr)
		_, _ = gc.cc.Informer(m.gvr).AddEventHandler(gc.handlerFor(m.gvr, kind))
		trace.Hop(gc.cc.Logger, component, "monitor", m.gvr.Resource+"."+m.gvr.Group, "")
	}
	return nil
}

// kindOf finds the kind a resource serves.
func kindOf(kinds map[api.GroupVersionKind]mapping, gvr api.GroupVersionResource) api.GroupVersionKind {
	for k, m := range kinds {
		if m.gvr == gvr {
			return k
		}
	}
	return api.GroupVersionKind{Group: gvr.Group, Version: gvr.Version}
}

// errNotObserved requeues a virtual node the informers have not shown yet.
var errNotObserved = errors.New("item has not been observed via an informer yet")
