package endpoints

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"net/netip"
	"reflect"
	"sync"
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
const Name = "endpoints"

const component = "endpoint-controller"

// The labels and annotations the controller writes.
const (
	// LabelManagedBy and ControllerName mirror the controller's constants of those names.
	LabelManagedBy = "endpoints.kubernetes.io/managed-by"
	ControllerName = "endpoint-controller"
	labelHeadless  = "service.kubernetes.io/headless"
	// overCapacity mirrors v1.EndpointsOverCapacity.
	overCapacity = "endpoints.kubernetes.io/over-capacity"
)

// endpointsObject is v1.Endpoints' JSON shape.
type endpointsObject struct {
	APIVersion string           `json:"apiVersion"`
	Kind       string           `json:"kind"`
	Metadata   api.ObjectMeta   `json:"metadata"`
	Subsets    []endpointSubset `json:"subsets,omitempty"`
}

// Controller mirrors endpoint.Controller.
type Controller struct {
	cc        *app.ControllerContext
	services  informer.SharedIndexInformer
	pods      informer.SharedIndexInformer
	endpoints informer.SharedIndexInformer
	queue     workqueue.TypedRateLimitingInterface[string]
	triggers  *app.TriggerTimeTracker
	// stale mirrors staleEndpointsTracker: the resourceVersion each Endpoints had when this
	// controller last replaced it, so a sync does not act on a cache that has not caught up.
	staleMu sync.Mutex
	stale   map[string]string
}

// New mirrors NewEndpointController.
func New(cc *app.ControllerContext) (app.Controller, error) {
	c := &Controller{cc: cc, services: cc.Informer(app.Services), pods: cc.Informer(app.Pods),
		endpoints: cc.Informer(app.Endpoints), queue: cc.NewQueue(Name),
		triggers: app.NewTriggerTimeTracker(), stale: map[string]string{}}
	key := func(obj any) {
		if u, ok := app.AsUnstructured(obj); ok {
			c.queue.Add(u.GetNamespace() + "/" + u.GetName())
		}
	}
	if _, err := c.services.AddEventHandler(processor.ResourceEventHandlerFuncs{
		AddFunc: key, UpdateFunc: func(_, n any) { key(n) }, DeleteFunc: key,
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
	// a deleted Endpoints is written again (onEndpointsDelete)
	if _, err := c.endpoints.AddEventHandler(processor.ResourceEventHandlerFuncs{DeleteFunc: key}); err != nil {
		return nil, err
	}
	return c, nil
}

// Name mirrors Controller.Name of k8s.io/controller-manager: "endpoints".
func (c *Controller) Name() string { return Name }

// Run mirrors Controller.Run with checkLeftoverEndpoints: every Endpoints this controller
// manages is queued once, so one whose Service went away while nothing ran is deleted.
func (c *Controller) Run(ctx context.Context, workers int) {
	for _, o := range c.endpoints.GetIndexer().List() {
		u := o.(*api.Unstructured)
		if u.GetLabels()[LabelManagedBy] == ControllerName {
			c.queue.Add(u.GetNamespace() + "/" + u.GetName())
		}
	}
	loop := controller.NewLoop(c.queue, c.syncService)
	loop.MaxRetries = 1 << 30
	loop.Run(ctx, workers)
}

// queueServicesFor mirrors updatePod/addPod/deletePod: every Service of the pod's namespace
// that selects it, before or after the change.
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
				c.queue.Add(svc.GetNamespace() + "/" + svc.GetName())
			}
		}
	}
}

// syncService mirrors Controller.syncService.
func (c *Controller) syncService(ctx context.Context, key string) error {
	ns, name := splitKey(key)
	client := c.cc.Client.Resource(app.Endpoints).Namespace(ns)
	obj, exists, err := c.services.GetIndexer().GetByKey(key)
	if err != nil {
		return err
	}
	if !exists {
		err := client.Delete(ctx, name, api.DeleteOptions{})
		trace.Hop(c.cc.Logger, component, "delete", key, "", slog.String("cause", "service is gone"), slog.Any("err", err))
		if err != nil && !api.IsNotFound(err) {
			return err
		}
		c.triggers.DeleteService(key)
		c.staleMu.Lock()
		delete(c.stale, key)
		c.staleMu.Unlock()
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
	var pods []*api.Unstructured
	objs, err := c.pods.GetIndexer().ByIndex(store.NamespaceIndex, ns)
	if err != nil {
		return err
	}
	sel := app.ServiceSelector(svc)
	for _, o := range objs {
		if p := o.(*api.Unstructured); sel.Matches(labels.Set(p.GetLabels())) {
			pods = append(pods, p)
		}
	}
	trigger := c.triggers.ComputeEndpointLastChangeTriggerTime(key, svc, pods)
	subsets, ready, notReady := desiredSubsets(svc, pods)

	current := &endpointsObject{APIVersion: "v1", Kind: "Endpoints", Metadata: api.ObjectMeta{Name: name, Namespace: ns, Labels: svc.Metadata.Labels}}
	if cur, ok, err := c.endpoints.GetIndexer().GetByKey(key); err != nil {
		return err
	} else if ok {
		if current, err = app.FromUnstructured[endpointsObject](cur.(*api.Unstructured)); err != nil {
			return err
		}
		c.staleMu.Lock()
		isStale := c.stale[key] == current.Metadata.ResourceVersion
		c.staleMu.Unlock()
		if isStale {
			return fmt.Errorf("endpoints informer cache is out of date, resource version %s already processed for endpoints %s", current.Metadata.ResourceVersion, key)
		}
	}
	create := current.Metadata.ResourceVersion == ""
	if !create && (reflect.DeepEqual(current.Subsets, subsets) || reflect.DeepEqual(repackSubsets(current.Subsets), subsets)) &&
		labelsCorrect(current.Metadata.Labels, svc.Metadata.Labels) && capacityAnnotationCorrect(current) {
		return nil
	}
	next := *current
	next.Subsets = subsets
	next.Metadata.Labels = maps.Clone(svc.Metadata.Labels)
	next.Metadata.Annotations = maps.Clone(current.Metadata.Annotations)
	if next.Metadata.Annotations == nil {
		next.Metadata.Annotations = map[string]string{}
	}
	if !trigger.IsZero() {
		next.Metadata.Annotations[app.EndpointsLastChangeTriggerTime] = trigger.UTC().Format(time.RFC3339Nano)
	} else {
		delete(next.Metadata.Annotations, app.EndpointsLastChangeTriggerTime)
	}
	if truncateSubsets(next.Subsets) {
		next.Metadata.Annotations[overCapacity] = "truncated"
	} else {
		delete(next.Metadata.Annotations, overCapacity)
	}
	if next.Metadata.Labels == nil {
		next.Metadata.Labels = map[string]string{}
	}
	if svc.Spec.ClusterIP == "None" || svc.Spec.ClusterIP == "" {
		next.Metadata.Labels[labelHeadless] = ""
	} else {
		delete(next.Metadata.Labels, labelHeadless)
	}
	next.Metadata.Labels[LabelManagedBy] = ControllerName
	out, err := app.ToUnstructured(&next)
	if err != nil {
		return err
	}
	op, written := "update", (*api.Unstructured)(nil)
	if create {
		op = "create"
		written, err = client.Create(ctx, out, api.CreateOptions{})
	} else {
		written, err = client.Update(ctx, out, api.UpdateOptions{})
	}
	rv := ""
	if written != nil {
		rv = written.GetResourceVersion()
	}
	trace.Hop(c.cc.Logger, component, op, key, rv,
		slog.String("cause", fmt.Sprintf("service has %d ready and %d not ready addresses", ready, notReady)), slog.Any("err", err))
	if err != nil {
		if create && api.IsForbidden(err) && api.HasStatusCause(err, api.NamespaceTerminatingCause) {
			return nil
		}
		if create {
			c.cc.Recorder.Eventf(ctx, component, out, app.EventTypeWarning, "FailedToCreateEndpoint", "Failed to create endpoint for service %v: %v", key, err)
		} else {
			c.cc.Recorder.Eventf(ctx, component, out, app.EventTypeWarning, "FailedToUpdateEndpoint", "Failed to update endpoint %v: %v", key, err)
		}
		return err
	}
	if !create && rv != current.Metadata.ResourceVersion {
		c.staleMu.Lock()
		c.stale[key] = current.Metadata.ResourceVersion
		c.staleMu.Unlock()
	}
	return nil
}

// desiredSubsets mirrors the loop of syncService over the pods: one subset per address and
// port, repacked.
func desiredSubsets(svc *app.Service, pods []*api.Unstructured) (subsets []endpointSubset, ready, notReady int) {
	tolerate := svc.Spec.PublishNotReadyAddresses
	for _, pod := range pods {
		if !app.ShouldPodBeInEndpoints(pod, tolerate) {
			continue
		}
		addr, ok := addressFor(svc, pod)
		if !ok {
			continue
		}
		add := func(port *endpointPort) {
			var s endpointSubset
			if port != nil {
				s.Ports = []endpointPort{*port}
			}
			if tolerate || app.IsPodReady(pod) {
				s.Addresses = []endpointAddress{addr}
				ready++
			} else {
				s.NotReadyAddresses = []endpointAddress{addr}
				notReady++
			}
			subsets = append(subsets, s)
		}
		if len(svc.Spec.Ports) == 0 {
			if svc.Spec.ClusterIP == "None" {
				add(nil)
			}
			continue
		}
		for i := range svc.Spec.Ports {
			sp := &svc.Spec.Ports[i]
			n, err := app.FindPort(pod, sp)
			if err != nil {
				continue
			}
			proto := sp.Protocol
			if proto == "" {
				proto = "TCP"
			}
			add(&endpointPort{Name: sp.Name, Port: n, Protocol: proto, AppProtocol: sp.AppProtocol})
		}
	}
	return repackSubsets(subsets), ready, notReady
}

// addressFor mirrors podToEndpointAddressForService for an IPv4 Service: the pod's first
// IPv4 address.
func addressFor(svc *app.Service, pod *api.Unstructured) (endpointAddress, bool) {
	for _, s := range app.PodIPs(pod) {
		ip, err := netip.ParseAddr(s)
		if err != nil || !(ip.Is4() || ip.Is4In6()) {
			continue
		}
		node := app.NodeName(pod)
		a := endpointAddress{IP: ip.Unmap().String(), NodeName: &node,
			TargetRef: &objectReference{Kind: "Pod", Namespace: pod.GetNamespace(), Name: pod.GetName(), UID: pod.GetUID()}}
		if app.ShouldSetHostname(pod, svc) {
			a.Hostname = app.NestedString(pod.Object, "spec", "hostname")
		}
		return a, true
	}
	return endpointAddress{}, false
}

// labelsCorrect mirrors labelsCorrectForEndpoints.
func labelsCorrect(ep, svc map[string]string) bool {
	if ep[LabelManagedBy] != ControllerName {
		return false
	}
	skipped := 0
	for k, v := range ep {
		if k == labelHeadless || k == LabelManagedBy {
			skipped++
		} else if sv, ok := svc[k]; !ok || sv != v {
			return false
		}
	}
	return len(svc) == len(ep)-skipped
}

// capacityAnnotationCorrect mirrors capacityAnnotationSetCorrectly.
func capacityAnnotationCorrect(ep *endpointsObject) bool {
	n := 0
	for _, s := range ep.Subsets {
		n += len(s.Addresses) + len(s.NotReadyAddresses)
	}
	if n > maxCapacity {
		return false
	}
	_, ok := ep.Metadata.Annotations[overCapacity]
	return !ok
}

func splitKey(key string) (string, string) {
	for i := range len(key) {
		if key[i] == '/' {
			return key[:i], key[i+1:]
		}
	}
	return "", key
}
