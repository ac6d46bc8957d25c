package replicaset

import (
	"context"
	"log/slog"
	"maps"
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

// BurstReplicas mirrors replicaset.BurstReplicas: at most this many pods are created or
// deleted by one sync; the rest wait for the next.
const BurstReplicas = 500

// component names the controller in traces and events, as upstream's event source does.
const component = "replicaset-controller"

// controllerUIDIndex mirrors the ReplicaSet informer's index by controller UID.
const controllerUIDIndex = "controllerUID"

// Controller mirrors ReplicaSetController of pkg/controller/replicaset: it keeps the number
// of active pods a ReplicaSet controls equal to spec.replicas, and reports their state in
// status.
type Controller struct {
	cc           *app.ControllerContext
	rsInformer   informer.SharedIndexInformer
	podInformer  informer.SharedIndexInformer
	queue        workqueue.TypedRateLimitingInterface[string]
	expectations *app.Expectations
	burst        int
	now          func() time.Time
}

// New mirrors NewReplicaSetController: it asks for the ReplicaSet and Pod informers, adds
// the handlers that feed the queue and the expectations, and starts nothing.
func New(cc *app.ControllerContext) (app.Controller, error) {
	c := &Controller{
		cc:           cc,
		rsInformer:   cc.Informer(app.ReplicaSets),
		podInformer:  cc.Informer(app.Pods),
		queue:        cc.NewQueue("replicaset"),
		expectations: app.NewExpectations(),
		burst:        BurstReplicas,
		now:          time.Now,
	}
	if _, ok := c.rsInformer.GetIndexer().GetIndexers()[controllerUIDIndex]; !ok {
		if err := c.rsInformer.AddIndexers(store.Indexers{controllerUIDIndex: func(obj any) ([]string, error) {
			u, ok := app.AsUnstructured(obj)
			if !ok {
				return nil, nil
			}
			if ref := app.GetControllerOf(u); ref != nil {
				return []string{ref.UID}, nil
			}
			return nil, nil
		}}); err != nil {
			return nil, err
		}
	}
	if err := app.AddPodControllerIndexer(c.podInformer); err != nil {
		return nil, err
	}
	if _, err := c.rsInformer.AddEventHandlerWithOptions(processor.ResourceEventHandlerFuncs{
		AddFunc:    c.addRS,
		UpdateFunc: c.updateRS,
		DeleteFunc: c.deleteRS,
	}, informer.HandlerOptions{Name: "replicaset"}); err != nil {
		return nil, err
	}
	if _, err := c.podInformer.AddEventHandlerWithOptions(processor.ResourceEventHandlerFuncs{
		AddFunc:    c.addPod,
		UpdateFunc: c.updatePod,
		DeleteFunc: c.deletePod,
	}, informer.HandlerOptions{Name: "replicaset"}); err != nil {
		return nil, err
	}
	return c, nil
}

// Name implements app.Controller.
func (c *Controller) Name() string { return "replicaset" }

// Expectations returns the controller's expectations (tests and chapter 14 read them).
func (c *Controller) Expectations() *app.Expectations { return c.expectations }

// Run mirrors ReplicaSetController.Run: workers sync keys until ctx ends. A key is requeued
// with rate limiting for as long as its sync fails, as upstream's processNextWorkItem does.
func (c *Controller) Run(ctx context.Context, workers int) {
	loop := controller.NewLoop(c.queue, c.syncReplicaSet)
	loop.MaxRetries = int(^uint(0) >> 1)
	loop.Run(ctx, workers)
}

func keyOf(u *api.Unstructured) string { return u.GetNamespace() + "/" + u.GetName() }

func (c *Controller) enqueue(rs *api.Unstructured) { c.queue.Add(keyOf(rs)) }

func (c *Controller) addRS(obj any) {
	if rs, ok := app.AsUnstructured(obj); ok {
		c.enqueue(rs)
	}
}

// updateRS mirrors updateRS: a recreated object (another UID) is first a delete of the old
// one; every update enqueues, so a resync retries a ReplicaSet whose creates failed.
func (c *Controller) updateRS(oldObj, curObj any) {
	old, ok1 := app.AsUnstructured(oldObj)
	cur, ok2 := app.AsUnstructured(curObj)
	if !ok1 || !ok2 {
		return
	}
	if old.GetUID() != cur.GetUID() {
		c.deleteRS(store.DeletedFinalStateUnknown{Key: keyOf(old), Obj: old})
	}
	c.enqueue(cur)
}

// deleteRS mirrors deleteRS: forget the expectations, so a new ReplicaSet of the same name
// starts clean.
func (c *Controller) deleteRS(obj any) {
	rs, ok := app.AsUnstructured(obj)
	if !ok {
		return
	}
	c.expectations.DeleteExpectations(keyOf(rs))
	c.queue.Add(keyOf(rs))
}

// resolveControllerRef mirrors resolveControllerRef: the cached ReplicaSet ref names, if it
// is still the same object (same UID).
func (c *Controller) resolveControllerRef(namespace string, ref *api.OwnerReference) *api.Unstructured {
	if ref.Kind != "ReplicaSet" {
		return nil
	}
	obj, ok, _ := c.rsInformer.GetIndexer().GetByKey(namespace + "/" + ref.Name)
	if !ok {
		return nil
	}
	rs, _ := app.AsUnstructured(obj)
	if rs == nil || rs.GetUID() != ref.UID {
		return nil
	}
	return rs
}

// getPodReplicaSets mirrors the lister's GetPodReplicaSets: the ReplicaSets of the pod's
// namespace whose selector matches it.
func (c *Controller) getPodReplicaSets(pod *api.Unstructured) []*api.Unstructured {
	var out []*api.Unstructured
	objs, _ := c.rsInformer.GetIndexer().ByIndex(store.NamespaceIndex, pod.GetNamespace())
	for _, o := range objs {
		rs, _ := app.AsUnstructured(o)
		if rs == nil {
			continue
		}
		sel, err := app.SelectorOf(rs, "spec", "selector")
		if err != nil || sel.Empty() || !sel.Matches(labels.Set(pod.GetLabels())) {
			continue
		}
		out = append(out, rs)
	}
	return out
}

// addPod mirrors addPod: a pod with a controller reference counts as an observed create of
// its ReplicaSet; an orphan wakes every ReplicaSet that could adopt it.
func (c *Controller) addPod(obj any) {
	pod, ok := app.AsUnstructured(obj)
	if !ok {
		return
	}
	if pod.GetDeletionTimestamp() != nil {
		// after a restart a pod may first be seen already being deleted: not a create
		c.deletePod(pod)
		return
	}
	if ref := app.GetControllerOf(pod); ref != nil {
		rs := c.resolveControllerRef(pod.GetNamespace(), ref)
		if rs == nil {
			return
		}
		c.expectations.CreationObserved(keyOf(rs))
		c.enqueue(rs)
		return
	}
	for _, rs := range c.getPodReplicaSets(pod) {
		c.enqueue(rs)
	}
}

// updatePod mirrors updatePod: a deletionTimestamp counts as the delete (the ReplicaSet
// replaces a terminating pod at once); a changed controller reference wakes both owners;
// an orphan whose labels changed wakes whoever could adopt it.
func (c *Controller) updatePod(oldObj, curObj any) {
	old, ok1 := app.AsUnstructured(oldObj)
	cur, ok2 := app.AsUnstructured(curObj)
	if !ok1 || !ok2 || old.GetResourceVersion() == cur.GetResourceVersion() {
		return // a resync: nothing changed
	}
	labelChanged := !maps.Equal(old.GetLabels(), cur.GetLabels())
	if cur.GetDeletionTimestamp() != nil {
		c.deletePod(cur)
		if labelChanged {
			c.deletePod(old)
		}
		return
	}
	curRef, oldRef := app.GetControllerOf(cur), app.GetControllerOf(old)
	refChanged := !sameRef(curRef, oldRef)
	if refChanged && oldRef != nil {
		if rs := c.resolveControllerRef(old.GetNamespace(), oldRef); rs != nil {
			c.enqueue(rs)
		}
	}
	if curRef != nil {
		rs := c.resolveControllerRef(cur.GetNamespace(), curRef)
		if rs == nil {
			return
		}
		c.enqueue(rs)
		// a pod that just became ready becomes available minReadySeconds later: look again then
		if mrs, _ := app.NestedInt64(rs.Object, "spec", "minReadySeconds"); mrs > 0 && !app.IsPodReady(old) && app.IsPodReady(cur) {
			c.queue.AddAfter(keyOf(rs), time.Duration(mrs)*time.Second)
		}
		return
	}
	if labelChanged || refChanged {
		for _, rs := range c.getPodReplicaSets(cur) {
			c.enqueue(rs)
		}
	}
}

func sameRef(a, b *api.OwnerReference) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.UID == b.UID && a.Name == b.Name && a.Kind == b.Kind && a.APIVersion == b.APIVersion
}

// deletePod mirrors deletePod: an observed delete of an expected pod.
func (c *Controller) deletePod(obj any) {
	pod, ok := app.AsUnstructured(obj)
	if !ok {
		return
	}
	ref := app.GetControllerOf(pod)
	if ref == nil {
		return // nobody waits for an orphan
	}
	rs := c.resolveControllerRef(pod.GetNamespace(), ref)
	if rs == nil {
		return
	}
	c.expectations.DeletionObserved(keyOf(rs), keyOf(pod))
	c.enqueue(rs)
}

// syncReplicaSet mirrors syncReplicaSet: claim the pods, create or delete pods when the
// expectations are satisfied, and write status.
func (c *Controller) syncReplicaSet(ctx context.Context, key string) (err error) {
	logger := c.cc.Logger
	if _, _, err := store.SplitMetaNamespaceKey(key); err != nil {
		return err
	}
	obj, exists, err := c.rsInformer.GetIndexer().GetByKey(key)
	if err != nil {
		return err
	}
	if !exists {
		trace.Hop(logger, "replicaset", "sync", key, "", slog.String("result", "deleted"))
		c.expectations.DeleteExpectations(key)
		return nil
	}
	cached, _ := app.AsUnstructured(obj)
	rs := newReplicaSet(cached)
	trace.Hop(logger, "replicaset", "sync", key, cached.GetResourceVersion(), slog.Int("replicas", int(rs.replicas)))
	defer func() {
		trace.Hop(logger, "replicaset", "synced", key, cached.GetResourceVersion(), slog.Any("err", err))
	}()

	needsSync := c.expectations.SatisfiedExpectations(key)
	selector, err := app.SelectorOf(cached, "spec", "selector")
	if err != nil {
		return nil // an invalid selector matches nothing, and retrying changes nothing
	}
	all, err := app.FilterPodsByOwner(c.podInformer.GetIndexer(), cached, "ReplicaSet", true)
	if err != nil {
		return err
	}
	var allActive []*api.Unstructured
	for _, p := range all {
		if app.IsPodActive(p) {
			allActive = append(allActive, p)
		}
	}
	active, err := c.claimPods(ctx, cached, selector, allActive)
	if err != nil {
		return err
	}
	var terminating []*api.Unstructured
	for _, p := range all {
		if isPodTerminating(p) && isControlledBy(p, cached) && selector.Matches(labels.Set(p.GetLabels())) {
			terminating = append(terminating, p)
		}
	}
	var manageErr error
	if needsSync && cached.GetDeletionTimestamp() == nil {
		manageErr = c.manageReplicas(ctx, active, cached, rs, key)
	}
	now := c.now()
	newStatus := calculateStatus(rs, cached, active, terminating, manageErr, now)
	updated, err := c.updateReplicaSetStatus(ctx, cached.DeepCopy(), rs, newStatus)
	if err != nil {
		return err
	}
	if manageErr != nil {
		return manageErr
	}
	// a last line of defence for availability: look again when the next pod becomes available
	if rs.minReadySeconds > 0 && updated.status.ReadyReplicas != updated.status.AvailableReplicas {
		next := time.Duration(rs.minReadySeconds) * time.Second
		if d, ok := nextAvailabilityCheck(active, rs.minReadySeconds, now); ok {
			next = d
		}
		c.queue.AddAfter(key, next)
	}
	return nil
}

// claimPods mirrors claimPods: adopt and release through the ref manager, after a fresh
// read of the ReplicaSet.
func (c *Controller) claimPods(ctx context.Context, rs *api.Unstructured, selector labels.Selector, pods []*api.Unstructured) ([]*api.Unstructured, error) {
	client := c.cc.Client.Resource(app.ReplicaSets).Namespace(rs.GetNamespace())
	m := &app.RefManager{
		Controller: rs,
		Selector:   selector,
		CanAdoptFunc: app.RecheckDeletionTimestamp(rs.GetUID(), func(ctx context.Context) (*api.Unstructured, error) {
			return client.Get(ctx, rs.GetName(), api.GetOptions{})
		}),
		Patch: func(ctx context.Context, namespace, name string, data []byte) error {
			_, err := c.cc.Client.Resource(app.Pods).Namespace(namespace).Patch(ctx, name, api.StrategicMergePatchType, data, api.PatchOptions{})
			if trace.Enabled(c.cc.Logger) { // the cause is built only when traced
				trace.Hop(c.cc.Logger, "replicaset", "patch", namespace+"/"+name, "", slog.String("cause", "claim pod for "+keyOf(rs)), slog.Any("err", err))
			}
			return err
		},
	}
	return m.Claim(ctx, pods)
}

func isControlledBy(o, owner *api.Unstructured) bool {
	ref := app.GetControllerOf(o)
	return ref != nil && ref.UID == owner.GetUID()
}

// isPodTerminating mirrors controller.IsPodTerminating: not terminal, being deleted.
func isPodTerminating(p *api.Unstructured) bool {
	ph := app.PodPhase(p)
	return ph != "Succeeded" && ph != "Failed" && p.GetDeletionTimestamp() != nil
}
