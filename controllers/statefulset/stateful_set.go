// Package statefulset is the simulated cluster's StatefulSet controller. It mirrors
// k8s.io/kubernetes pkg/controller/statefulset: pods with stable names <set>-<ordinal>,
// created in order and waited for (OrderedReady) or all at once (Parallel), removed in
// reverse order; PersistentVolumeClaims from volumeClaimTemplates with their retention
// policy; ControllerRevisions that record each pod template; and the RollingUpdate (with
// partition and maxUnavailable) and OnDelete update strategies.
package statefulset

import (
	"context"
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

// name is the controller's name as --controllers spells it; it is also the trace component.
const name = "statefulset"

// eventComponent is the source of the Events it records, as upstream's recorder names it.
const eventComponent = "statefulset-controller"

// Controller mirrors StatefulSetController of pkg/controller/statefulset/stateful_set.go.
type Controller struct {
	cc        *app.ControllerContext
	queue     workqueue.TypedRateLimitingInterface[string]
	sets      informer.SharedIndexInformer
	pods      informer.SharedIndexInformer
	claims    informer.SharedIndexInformer
	revisions informer.SharedIndexInformer
	now       func() time.Time
}

// New mirrors NewStatefulSetController: it asks for the informers of StatefulSets, pods,
// PersistentVolumeClaims and ControllerRevisions and wires the handlers that enqueue a set.
func New(cc *app.ControllerContext) (app.Controller, error) {
	c := &Controller{
		cc:        cc,
		queue:     cc.NewQueue(name),
		sets:      cc.Informer(app.StatefulSets),
		pods:      cc.Informer(app.Pods),
		claims:    cc.Informer(app.PersistentVolumeClaims),
		revisions: cc.Informer(app.ControllerRevisions),
		now:       time.Now,
	}
	if _, err := c.sets.AddEventHandler(processor.ResourceEventHandlerFuncs{
		AddFunc:    c.enqueue,
		UpdateFunc: func(_, cur any) { c.enqueue(cur) },
		DeleteFunc: c.enqueue,
	}); err != nil {
		return nil, err
	}
	if _, err := c.pods.AddEventHandler(processor.ResourceEventHandlerFuncs{
		AddFunc:    c.podChanged,
		UpdateFunc: c.updatePod,
		DeleteFunc: c.podChanged,
	}); err != nil {
		return nil, err
	}
	return c, nil
}

// Name mirrors the name kube-controller-manager registers the controller under ("statefulset").
func (c *Controller) Name() string { return name }

// Run mirrors StatefulSetController.Run: workers sync sets until ctx ends. Keys are retried
// with rate limiting for as long as they fail, as upstream's queue does.
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
	key, err := store.MetaNamespaceKeyFunc(u)
	if err != nil {
		return
	}
	c.queue.Add(key)
}

// podChanged mirrors addPod and deletePod: the owning set is synced; an orphan wakes every
// set whose selector matches it, so one of them can adopt it.
func (c *Controller) podChanged(obj any) {
	pod, ok := app.AsUnstructured(obj)
	if !ok {
		return
	}
	if ref := app.GetControllerOf(pod); ref != nil {
		if ref.Kind == "StatefulSet" {
			if set := c.resolveControllerRef(pod.GetNamespace(), ref); set != nil {
				c.enqueue(set)
			}
		}
		return
	}
	if pod.GetDeletionTimestamp() != nil {
		return
	}
	for _, set := range c.setsForPod(pod) {
		c.enqueue(set)
	}
}

// updatePod mirrors updatePod: a changed controller reference wakes the old owner too, and
// a pod that became ready wakes its set again after minReadySeconds.
func (c *Controller) updatePod(old, cur any) {
	o, _ := app.AsUnstructured(old)
	n, ok := app.AsUnstructured(cur)
	if !ok {
		return
	}
	if o != nil && o.GetResourceVersion() == n.GetResourceVersion() {
		return // a resync
	}
	if o != nil {
		if oref := app.GetControllerOf(o); oref != nil && oref.Kind == "StatefulSet" {
			if nref := app.GetControllerOf(n); nref == nil || nref.UID != oref.UID {
				if set := c.resolveControllerRef(o.GetNamespace(), oref); set != nil {
					c.enqueue(set)
				}
			}
		}
	}
	c.podChanged(n)
	if o != nil && !app.IsPodReady(o) && app.IsPodReady(n) {
		if ref := app.GetControllerOf(n); ref != nil && ref.Kind == "StatefulSet" {
			if set := c.resolveControllerRef(n.GetNamespace(), ref); set != nil {
				if m, ok := app.NestedInt64(set.Object, "spec", "minReadySeconds"); ok && m > 0 {
					key, _ := store.MetaNamespaceKeyFunc(set)
					c.queue.AddAfter(key, time.Duration(m)*time.Second+time.Second)
				}
			}
		}
	}
}

// resolveControllerRef mirrors resolveControllerRef: the set ref names, if its UID matches.
func (c *Controller) resolveControllerRef(namespace string, ref *api.OwnerReference) *api.Unstructured {
	obj, exists, err := c.sets.GetIndexer().GetByKey(namespace + "/" + ref.Name)
	if err != nil || !exists {
		return nil
	}
	set, ok := obj.(*api.Unstructured)
	if !ok || set.GetUID() != ref.UID {
		return nil
	}
	return set
}

// setsForPod mirrors getStatefulSetsForPod: the sets in the pod's namespace whose selector
// matches its labels.
func (c *Controller) setsForPod(pod *api.Unstructured) []*api.Unstructured {
	var out []*api.Unstructured
	_ = store.ListAllByNamespace(c.sets.GetIndexer(), pod.GetNamespace(), labels.Everything(), func(obj any) {
		set, ok := obj.(*api.Unstructured)
		if !ok {
			return
		}
		sel, err := app.SelectorOf(set, "spec", "selector")
		if err != nil || sel.Empty() || !sel.Matches(labels.Set(pod.GetLabels())) {
			return
		}
		out = append(out, set)
	})
	return out
}

// sync mirrors syncStatefulSet: read the set from the cache, claim its pods, and run one
// pass of the update algorithm.
func (c *Controller) sync(ctx context.Context, key string) error {
	ns, setName, err := store.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	obj, exists, err := c.sets.GetIndexer().GetByKey(key)
	if err != nil {
		return err
	}
	if !exists {
		trace.Hop(c.cc.Logger, name, "sync", key, "", slog.String("result", "gone"))
		return nil
	}
	u := obj.(*api.Unstructured).DeepCopy()
	set, err := parseSet(u)
	if err != nil {
		return nil // a set the server accepted but we cannot read: nothing to do until it changes
	}
	trace.Hop(c.cc.Logger, name, "sync", key, u.GetResourceVersion())
	sel, err := app.LabelSelectorAsSelector(set.Spec.Selector)
	if err != nil {
		return nil
	}
	ctrl := &setControl{c: c, set: set, key: key, now: c.now()}
	pods, err := ctrl.claimPods(ctx, sel)
	if err != nil {
		return err
	}
	status, err := ctrl.updateStatefulSet(ctx, pods)
	after := ""
	if status != nil {
		after = status.UpdateRevision
	}
	trace.Hop(c.cc.Logger, name, "synced", ns+"/"+setName, u.GetResourceVersion(),
		slog.String("updateRevision", after), slog.Any("err", err))
	if err != nil {
		return err
	}
	if set.Spec.MinReadySeconds > 0 && status != nil && status.ReadyReplicas != status.AvailableReplicas {
		c.queue.AddAfter(key, time.Duration(set.Spec.MinReadySeconds)*time.Second)
	}
	return nil
}
