// Package daemonset is the simulated cluster's DaemonSet controller. It mirrors
// k8s.io/kubernetes pkg/controller/daemon: one pod per node that fits (nodeSelector,
// required node affinity, taints against the pod's tolerations plus the automatic ones),
// each pinned to its node by a required node affinity on metadata.name so that the
// scheduler binds it; ControllerRevisions of the template; RollingUpdate with maxUnavailable
// or maxSurge, and OnDelete.
package daemonset

import (
	"context"
	"log/slog"
	"sort"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/labels"
	"github.com/informer-lab/informer-lab/controller"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/store"
	"github.com/informer-lab/informer-lab/workqueue"
)

// name is the controller's name as --controllers spells it; it is also the trace component.
const name = "daemonset"

// eventComponent is the source of its Events, as upstream's recorder names it.
const eventComponent = "daemonset-controller"

// burstReplicas mirrors BurstReplicas: at most this many creations or deletions per sync.
const burstReplicas = 250

// Controller mirrors DaemonSetsController of pkg/controller/daemon/daemon_controller.go.
type Controller struct {
	cc           *app.ControllerContext
	queue        workqueue.TypedRateLimitingInterface[string]
	sets         informer.SharedIndexInformer
	pods         informer.SharedIndexInformer
	nodes        informer.SharedIndexInformer
	revisions    informer.SharedIndexInformer
	expectations *expectations
	failedPods   *backoff
	now          func() time.Time
}

// New mirrors NewDaemonSetsController: informers of DaemonSets, pods, nodes and
// ControllerRevisions, and handlers that enqueue the DaemonSets concerned.
func New(cc *app.ControllerContext) (app.Controller, error) {
	c := &Controller{
		cc:           cc,
		queue:        cc.NewQueue(name),
		sets:         cc.Informer(app.DaemonSets),
		pods:         cc.Informer(app.Pods),
		nodes:        cc.Informer(app.Nodes),
		revisions:    cc.Informer(app.ControllerRevisions),
		expectations: newExpectations(),
		failedPods:   newBackoff(),
		now:          time.Now,
	}
	handlers := []struct {
		inf informer.SharedIndexInformer
		h   processor.ResourceEventHandlerFuncs
	}{
		{c.sets, processor.ResourceEventHandlerFuncs{
			AddFunc:    c.enqueue,
			UpdateFunc: func(_, cur any) { c.enqueue(cur) },
			DeleteFunc: c.deleteDaemonSet,
		}},
		{c.pods, processor.ResourceEventHandlerFuncs{
			AddFunc:    c.addPod,
			UpdateFunc: c.updatePod,
			DeleteFunc: c.deletePod,
		}},
		{c.nodes, processor.ResourceEventHandlerFuncs{
			AddFunc:    func(any) { c.enqueueAll() },
			UpdateFunc: c.updateNode,
			DeleteFunc: func(any) { c.enqueueAll() },
		}},
		{c.revisions, processor.ResourceEventHandlerFuncs{
			AddFunc:    c.ownerOf,
			UpdateFunc: func(_, cur any) { c.ownerOf(cur) },
			DeleteFunc: c.ownerOf,
		}},
	}
	for _, x := range handlers {
		if _, err := x.inf.AddEventHandler(x.h); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// Name mirrors the name kube-controller-manager registers the controller under ("daemonset").
func (c *Controller) Name() string { return name }

// Run mirrors DaemonSetsController.Run: workers sync DaemonSets until ctx ends, retrying a
// failing key with rate limiting for as long as it fails.
func (c *Controller) Run(ctx context.Context, workers int) {
	loop := controller.NewLoop(c.queue, c.sync)
	loop.MaxRetries = 1 << 30
	loop.Run(ctx, workers)
}

func (c *Controller) enqueue(obj any) {
	u, ok := app.AsUnstructured(obj)
	if !ok {
		return
	}
	if key, err := store.MetaNamespaceKeyFunc(u); err == nil {
		c.queue.Add(key)
	}
}

func (c *Controller) deleteDaemonSet(obj any) {
	if u, ok := app.AsUnstructured(obj); ok {
		c.expectations.forget(u.GetNamespace() + "/" + u.GetName())
	}
	c.enqueue(obj)
}

// enqueueAll wakes every DaemonSet: a node came or went.
func (c *Controller) enqueueAll() {
	for _, obj := range c.sets.GetIndexer().List() {
		c.enqueue(obj)
	}
}

// updateNode mirrors updateNode: only a change of the node's labels, taints or
// schedulability (not its status heartbeats) matters to DaemonSets.
func (c *Controller) updateNode(old, cur any) {
	o, _ := app.AsUnstructured(old)
	n, ok := app.AsUnstructured(cur)
	if !ok || o == nil {
		return
	}
	if string(canonical(o.GetLabels())) == string(canonical(n.GetLabels())) &&
		string(canonical(o.Object["spec"])) == string(canonical(n.Object["spec"])) {
		return
	}
	c.enqueueAll()
}

// ownerOf enqueues the DaemonSet that controls obj, if any.
func (c *Controller) ownerOf(obj any) {
	u, ok := app.AsUnstructured(obj)
	if !ok {
		return
	}
	if ref := app.GetControllerOf(u); ref != nil && ref.Kind == "DaemonSet" {
		if ds := c.resolveControllerRef(u.GetNamespace(), ref); ds != nil {
			c.enqueue(ds)
		}
	}
}

// addPod mirrors addPod: a pod of ours observes a creation expectation; an orphan wakes
// the DaemonSets that select it.
func (c *Controller) addPod(obj any) {
	pod, ok := app.AsUnstructured(obj)
	if !ok {
		return
	}
	if ref := app.GetControllerOf(pod); ref != nil {
		if ref.Kind != "DaemonSet" {
			return
		}
		if ds := c.resolveControllerRef(pod.GetNamespace(), ref); ds != nil {
			c.expectations.creationObserved(pod.GetNamespace() + "/" + ds.GetName())
			c.enqueue(ds)
		}
		return
	}
	for _, ds := range c.setsForPod(pod) {
		c.enqueue(ds)
	}
}

// updatePod mirrors updatePod: the old and the new owner are synced.
func (c *Controller) updatePod(old, cur any) {
	o, _ := app.AsUnstructured(old)
	n, ok := app.AsUnstructured(cur)
	if !ok || (o != nil && o.GetResourceVersion() == n.GetResourceVersion()) {
		return
	}
	if o != nil {
		c.ownerOf(o)
	}
	if app.GetControllerOf(n) != nil {
		c.ownerOf(n)
		if o != nil && !app.IsPodReady(o) && app.IsPodReady(n) {
			if ref := app.GetControllerOf(n); ref.Kind == "DaemonSet" {
				if ds := c.resolveControllerRef(n.GetNamespace(), ref); ds != nil {
					if m, _ := app.NestedInt64(ds.Object, "spec", "minReadySeconds"); m > 0 {
						c.queue.AddAfter(n.GetNamespace()+"/"+ds.GetName(), time.Duration(m)*time.Second+time.Second)
					}
				}
			}
		}
		return
	}
	for _, ds := range c.setsForPod(n) {
		c.enqueue(ds)
	}
}

// deletePod mirrors deletePod: a pod of ours observes a deletion expectation.
func (c *Controller) deletePod(obj any) {
	pod, ok := app.AsUnstructured(obj)
	if !ok {
		return
	}
	if ref := app.GetControllerOf(pod); ref != nil && ref.Kind == "DaemonSet" {
		if ds := c.resolveControllerRef(pod.GetNamespace(), ref); ds != nil {
			c.expectations.deletionObserved(pod.GetNamespace() + "/" + ds.GetName())
			c.enqueue(ds)
		}
	}
}

func (c *Controller) resolveControllerRef(namespace string, ref *api.OwnerReference) *api.Unstructured {
	obj, exists, err := c.sets.GetIndexer().GetByKey(namespace + "/" + ref.Name)
	if err != nil || !exists {
		return nil
	}
	ds, ok := obj.(*api.Unstructured)
	if !ok || ds.GetUID() != ref.UID {
		return nil
	}
	return ds
}

// setsForPod mirrors getDaemonSetsForPod.
func (c *Controller) setsForPod(pod *api.Unstructured) []*api.Unstructured {
	var out []*api.Unstructured
	_ = store.ListAllByNamespace(c.sets.GetIndexer(), pod.GetNamespace(), labels.Everything(), func(obj any) {
		ds, ok := obj.(*api.Unstructured)
		if !ok {
			return
		}
		sel, err := app.SelectorOf(ds, "spec", "selector")
		if err == nil && !sel.Empty() && sel.Matches(labels.Set(pod.GetLabels())) {
			out = append(out, ds)
		}
	})
	return out
}

// nodeList returns every node of the cache, sorted by name so that a sync's writes come
// in a stable order.
func (c *Controller) nodeList() []*api.Unstructured {
	var out []*api.Unstructured
	for _, obj := range c.nodes.GetIndexer().List() {
		if n, ok := obj.(*api.Unstructured); ok {
			out = append(out, n)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].GetName() < out[j].GetName() })
	return out
}

// sync mirrors syncDaemonSet: build the history, then (once the expectations of the last
// pass are met) create and delete pods and roll them, and write the status.
func (c *Controller) sync(ctx context.Context, key string) error {
	obj, exists, err := c.sets.GetIndexer().GetByKey(key)
	if err != nil {
		return err
	}
	if !exists {
		c.expectations.forget(key)
		trace.Hop(c.cc.Logger, name, "sync", key, "", slog.String("result", "gone"))
		return nil
	}
	u := obj.(*api.Unstructured).DeepCopy()
	d, err := parseDaemonSet(u)
	if err != nil {
		return nil
	}
	trace.Hop(c.cc.Logger, name, "sync", key, u.GetResourceVersion())
	if d.Spec.Selector == nil || len(d.Spec.Selector.MatchLabels)+len(d.Spec.Selector.MatchExpressions) == 0 {
		c.cc.Recorder.Eventf(ctx, eventComponent, u, app.EventTypeWarning, "SelectingAll",
			"This daemon set is selecting all pods. A non-empty selector is required.")
		return nil
	}
	if u.GetDeletionTimestamp() != nil {
		return nil
	}
	dc := &dsControl{c: c, d: d, key: key, nodes: c.nodeList(), now: c.now()}
	cur, old, err := dc.constructHistory(ctx)
	if err != nil {
		return err
	}
	dc.hash = cur.GetLabels()[hashLabel]
	if !c.expectations.satisfied(key, dc.now) {
		return dc.updateStatus(ctx, false)
	}
	err = dc.update(ctx, old)
	statusErr := dc.updateStatus(ctx, true)
	trace.Hop(c.cc.Logger, name, "synced", key, u.GetResourceVersion(), slog.String("hash", dc.hash), slog.Any("err", err))
	if err != nil {
		return err
	}
	return statusErr
}
