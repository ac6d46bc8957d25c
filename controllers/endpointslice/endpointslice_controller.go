package endpointslice

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
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

// Name mirrors the controller's name in NewControllerDescriptors, as --controllers spells it.
const Name = "endpointslice"

// component is the name hops carry.
const component = "endpointslice-controller"

// Controller mirrors endpointslice.Controller.
type Controller struct {
	cc       *app.ControllerContext
	services informer.SharedIndexInformer
	pods     informer.SharedIndexInformer
	nodes    informer.SharedIndexInformer
	slices   informer.SharedIndexInformer
	queue    workqueue.TypedRateLimitingInterface[string]
	tracker  *sliceTracker
	triggers *app.TriggerTimeTracker
}

// New mirrors NewController: Services queue themselves, pods queue the Services that select
// them (before and after a label change), and a slice this controller manages queues its
// Service unless it is the echo of this controller's own write.
func New(cc *app.ControllerContext) (app.Controller, error) {
	c := &Controller{
		cc:       cc,
		services: cc.Informer(app.Services),
		pods:     cc.Informer(app.Pods),
		nodes:    cc.Informer(app.Nodes),
		slices:   cc.Informer(app.EndpointSlices),
		queue:    cc.NewQueue(Name),
		tracker:  newSliceTracker(),
		triggers: app.NewTriggerTimeTracker(),
	}
	svcKey := func(obj any) {
		if u, ok := app.AsUnstructured(obj); ok {
			c.queue.Add(u.GetNamespace() + "/" + u.GetName())
		}
	}
	if _, err := c.services.AddEventHandler(processor.ResourceEventHandlerFuncs{
		AddFunc: svcKey, UpdateFunc: func(_, n any) { svcKey(n) }, DeleteFunc: svcKey,
	}); err != nil {
		return nil, err
	}
	if _, err := c.pods.AddEventHandler(processor.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { c.queueServicesFor(obj) },
		UpdateFunc: func(o, n any) { c.queueServicesFor(o, n) },
		DeleteFunc: func(obj any) { c.queueServicesFor(obj) },
	}); err != nil {
		return nil, err
	}
	if _, err := c.slices.AddEventHandler(processor.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) { c.onSlice(obj, false) },
		UpdateFunc: func(o, n any) {
			c.onSlice(o, false) // a slice taken over by another manager or Service
			c.onSlice(n, false)
		},
		DeleteFunc: func(obj any) { c.onSlice(obj, true) },
	}); err != nil {
		return nil, err
	}
	return c, nil
}

// Name mirrors Controller.Name of k8s.io/controller-manager: "endpointslice".
func (c *Controller) Name() string { return Name }

// Run mirrors Controller.Run: workers until ctx ends; a failing Service is retried with rate
// limiting for ever (upstream's maxRetries only decides when to log).
func (c *Controller) Run(ctx context.Context, workers int) {
	loop := controller.NewLoop(c.queue, c.syncService)
	loop.MaxRetries = 1 << 30
	loop.Run(ctx, workers)
}

// queueServicesFor mirrors onPodUpdate with GetServicesToUpdate: every Service of the pod's
// namespace whose selector matches one of the pod's label sets.
func (c *Controller) queueServicesFor(objs ...any) {
	for _, obj := range objs {
		pod, ok := app.AsUnstructured(obj)
		if !ok {
			continue
		}
		svcs, _ := c.services.GetIndexer().ByIndex(store.NamespaceIndex, pod.GetNamespace())
		for _, o := range svcs {
			svc := o.(*api.Unstructured)
			if sel, ok := app.ServiceSelectorOf(svc); ok && sel.Matches(labels.Set(pod.GetLabels())) {
				c.queue.Add(svc.GetNamespace() + "/" + svc.GetName()) // the queue merges duplicates
			}
		}
	}
}

// onSlice mirrors onEndpointSliceAdd/Update/Delete: only slices this controller manages
// count, and only events that are not the echo of its own writes.
func (c *Controller) onSlice(obj any, deleted bool) {
	s, ok := app.AsUnstructured(obj)
	if !ok {
		return
	}
	l := s.GetLabels()
	if l[LabelManagedBy] != ControllerName || l[LabelServiceName] == "" {
		return
	}
	key := s.GetNamespace() + "/" + l[LabelServiceName]
	if deleted {
		if c.tracker.handleDeletion(key, s) {
			c.queue.Add(key)
		}
		return
	}
	if c.tracker.shouldSync(key, s) {
		c.queue.Add(key)
	}
}

// errStaleCache mirrors endpointslicepkg.NewStaleInformerCache: retry once the cache has seen
// this controller's writes.
var errStaleCache = errors.New("EndpointSlice informer cache is out of date")

// syncService mirrors Controller.syncService.
func (c *Controller) syncService(ctx context.Context, key string) error {
	obj, exists, err := c.services.GetIndexer().GetByKey(key)
	if err != nil {
		return err
	}
	if !exists {
		// the garbage collector removes the slices through their owner reference
		c.triggers.DeleteService(key)
		c.tracker.deleteService(key)
		return nil
	}
	u := obj.(*api.Unstructured)
	trace.Hop(c.cc.Logger, component, "sync", key, u.GetResourceVersion())
	svc, err := app.FromUnstructured[app.Service](u)
	if err != nil {
		return err
	}
	if svc.Spec.Type == "ExternalName" || svc.Spec.Selector == nil {
		return nil
	}
	ns := svc.Metadata.Namespace
	sel := app.ServiceSelector(svc)
	var pods []*api.Unstructured
	podObjs, err := c.pods.GetIndexer().ByIndex(store.NamespaceIndex, ns)
	if err != nil {
		return err
	}
	for _, o := range podObjs {
		if p := o.(*api.Unstructured); sel.Matches(labels.Set(p.GetLabels())) {
			pods = append(pods, p)
		}
	}
	var cached []*api.Unstructured
	var existing []*endpointSlice
	sliceObjs, err := c.slices.GetIndexer().ByIndex(store.NamespaceIndex, ns)
	if err != nil {
		return err
	}
	for _, o := range sliceObjs {
		s := o.(*api.Unstructured)
		l := s.GetLabels()
		if l[LabelServiceName] != svc.Metadata.Name || l[LabelManagedBy] != ControllerName || s.GetDeletionTimestamp() != nil {
			continue
		}
		es, err := app.FromUnstructured[endpointSlice](s)
		if err != nil {
			return err
		}
		cached, existing = append(cached, s), append(existing, es)
	}
	if c.tracker.stale(key, cached) {
		return errStaleCache
	}
	trigger := c.triggers.ComputeEndpointLastChangeTriggerTime(key, svc, pods)
	p, skipErr := reconcile(svc, pods, existing, c.node)
	if err := c.apply(ctx, key, u, p, trigger); err != nil {
		c.cc.Recorder.Eventf(ctx, component, u, app.EventTypeWarning, "FailedToUpdateEndpointSlices",
			"Error updating Endpoint Slices for Service %s: %v", key, err)
		return err
	}
	return skipErr
}

func (c *Controller) node(name string) *api.Unstructured {
	if name == "" {
		return nil
	}
	obj, ok, _ := c.nodes.GetIndexer().GetByKey(name)
	if !ok {
		return nil
	}
	return obj.(*api.Unstructured)
}

// apply mirrors Reconciler.finalize's writes: creates, then updates, then deletes, each
// remembered by the tracker.
func (c *Controller) apply(ctx context.Context, key string, svcObj *api.Unstructured, p plan, trigger time.Time) error {
	client := c.cc.Client.Resource(app.EndpointSlices).Namespace(svcObj.GetNamespace())
	var errs []error
	write := func(op string, s *endpointSlice) {
		setTriggerTime(s, trigger)
		u, err := app.ToUnstructured(s)
		if err != nil {
			errs = append(errs, err)
			return
		}
		var out *api.Unstructured
		if op == "create" {
			out, err = client.Create(ctx, u, api.CreateOptions{})
		} else {
			out, err = client.Update(ctx, u, api.UpdateOptions{})
		}
		name, rv := s.Metadata.Name, ""
		if out != nil {
			name, rv = out.GetName(), out.GetResourceVersion()
			c.tracker.update(key, out)
		}
		trace.Hop(c.cc.Logger, component, op, svcObj.GetNamespace()+"/"+name, rv,
			slog.String("cause", "service "+key+" has "+describe(s)), slog.Any("err", err))
		if err != nil {
			errs = append(errs, err)
		}
	}
	for _, s := range p.create {
		write("create", s)
	}
	for _, s := range p.update {
		write("update", s)
	}
	for _, s := range p.delete {
		err := client.Delete(ctx, s.Metadata.Name, api.DeleteOptions{})
		if err == nil || api.IsNotFound(err) {
			c.tracker.expectDeletion(key, s.Metadata.UID)
			err = nil
		}
		trace.Hop(c.cc.Logger, component, "delete", s.Metadata.Namespace+"/"+s.Metadata.Name, s.Metadata.ResourceVersion,
			slog.String("cause", "not needed by service "+key), slog.Any("err", err))
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// describe says what a slice holds, for a write's cause.
func describe(s *endpointSlice) string {
	ready := 0
	for _, e := range s.Endpoints {
		if e.Conditions.Ready != nil && *e.Conditions.Ready {
			ready++
		}
	}
	return fmt.Sprintf("%d endpoints (%d ready)", len(s.Endpoints), ready)
}
