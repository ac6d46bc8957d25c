package ch14

import (
	"context"
	"fmt"
	"log/slog"
	"maps"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/labels"
	"github.com/informer-lab/informer-lab/client/dynamic"
	"github.com/informer-lab/informer-lab/controller"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/store"
	"github.com/informer-lab/informer-lab/workqueue"
)

// Component is the component attribute of the chapter's ReplicaSet controller's hops, the
// name kube-controller-manager's --controllers gives the ReplicaSet controller.
const Component = "replicaset"

// ReplicaSetController mirrors ReplicaSetController in pkg/controller/replicaset/replica_set.go,
// reduced to what the chapter reads: pod and ReplicaSet informers, one queue of ReplicaSet
// keys, expectations, and a sync that creates or deletes pods and writes the status. It is an
// app.Controller, built by NewReplicaSetController (an app.InitFunc) from the shared context,
// as the cluster's controllers are.
type ReplicaSetController struct {
	client       *dynamic.DynamicClient
	rsIndexer    store.Indexer
	podIndexer   store.Indexer
	queue        workqueue.TypedRateLimitingInterface[string]
	expectations *Expectations
	podControl   PodControl
	logger       *slog.Logger
}

// NewReplicaSetController mirrors NewReplicaSetController: ask the shared factory for the
// ReplicaSet and pod informers, register the handlers, build the queue. It starts nothing.
func NewReplicaSetController(cc *app.ControllerContext) (app.Controller, error) {
	return newReplicaSetController(cc, nil)
}

// newReplicaSetController is NewReplicaSetController with another PodControl (nil: the
// dynamic client), for the tests that make writes fail.
func newReplicaSetController(cc *app.ControllerContext, pc PodControl) (*ReplicaSetController, error) {
	rsInf, podInf := cc.Informer(app.ReplicaSets), cc.Informer(app.Pods)
	c := &ReplicaSetController{
		client:       cc.Client,
		rsIndexer:    rsInf.GetIndexer(),
		podIndexer:   podInf.GetIndexer(),
		queue:        cc.NewQueue(Component),
		expectations: NewExpectations(),
		podControl:   pc,
		logger:       cc.Logger,
	}
	if c.podControl == nil {
		c.podControl = clientPodControl{cc.Client}
	}
	if _, err := rsInf.AddEventHandlerWithOptions(processor.ResourceEventHandlerFuncs{
		AddFunc:    c.enqueue,
		UpdateFunc: func(_, n any) { c.enqueue(n) },
		DeleteFunc: c.deleteRS,
	}, informer.HandlerOptions{Name: Component + "-rs"}); err != nil {
		return nil, err
	}
	if _, err := podInf.AddEventHandlerWithOptions(processor.ResourceEventHandlerFuncs{
		AddFunc:    c.addPod,
		UpdateFunc: c.updatePod,
		DeleteFunc: c.deletePod,
	}, informer.HandlerOptions{Name: Component + "-pods"}); err != nil {
		return nil, err
	}
	return c, nil
}

// Name is the controller's name as --controllers spells it.
func (c *ReplicaSetController) Name() string { return Component }

// Run mirrors ReplicaSetController.Run: workers on the queue until ctx ends (chapter 10's
// Loop), retrying a failed key with rate limiting, as upstream does, for ever.
func (c *ReplicaSetController) Run(ctx context.Context, workers int) {
	loop := controller.NewLoop(c.queue, c.sync)
	loop.MaxRetries = 1 << 30
	loop.Run(ctx, workers)
}

func (c *ReplicaSetController) enqueue(obj any) {
	if key, err := store.DeletionHandlingMetaNamespaceKeyFunc(obj); err == nil {
		c.queue.Add(key)
	}
}

// deleteRS forgets the ReplicaSet's expectations and enqueues it once more.
func (c *ReplicaSetController) deleteRS(obj any) {
	if key, err := store.DeletionHandlingMetaNamespaceKeyFunc(obj); err == nil {
		c.expectations.DeleteExpectations(key)
		c.queue.Add(key)
	}
}

// resolveControllerRef mirrors resolveControllerRef: the ReplicaSet in the cache that the
// pod's controller reference names, if the UIDs match.
func (c *ReplicaSetController) resolveControllerRef(pod *api.Unstructured) string {
	ref := app.GetControllerOf(pod)
	if ref == nil || ref.Kind != "ReplicaSet" {
		return ""
	}
	key := pod.GetNamespace() + "/" + ref.Name
	obj, ok, err := c.rsIndexer.GetByKey(key)
	if err != nil || !ok {
		return ""
	}
	if rs, _ := app.AsUnstructured(obj); rs == nil || rs.GetUID() != ref.UID {
		return ""
	}
	return key
}

// addPod mirrors addPod: a pod the ReplicaSet controls is one of its expected creations.
func (c *ReplicaSetController) addPod(obj any) {
	pod, ok := app.AsUnstructured(obj)
	if !ok {
		return
	}
	if pod.GetDeletionTimestamp() != nil {
		c.deletePod(pod) // a restarted controller sees a pod already on its way out
		return
	}
	if key := c.resolveControllerRef(pod); key != "" {
		c.expectations.CreationObserved(key)
		c.queue.Add(key)
	}
}

// updatePod mirrors updatePod: a pod that starts terminating is a deletion observed (once:
// its removal later finds its key gone from the expectations); any other change may change
// the status, so the ReplicaSet syncs.
func (c *ReplicaSetController) updatePod(oldObj, newObj any) {
	oldPod, ok1 := app.AsUnstructured(oldObj)
	pod, ok2 := app.AsUnstructured(newObj)
	if !ok1 || !ok2 || oldPod.GetResourceVersion() == pod.GetResourceVersion() {
		return
	}
	if pod.GetDeletionTimestamp() != nil {
		c.deletePod(pod)
		return
	}
	if key := c.resolveControllerRef(pod); key != "" {
		c.queue.Add(key)
	}
}

// deletePod mirrors deletePod, tombstones included (chapter 12).
func (c *ReplicaSetController) deletePod(obj any) {
	if t, ok := obj.(store.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	pod, ok := app.AsUnstructured(obj)
	if !ok {
		return
	}
	if key := c.resolveControllerRef(pod); key != "" {
		c.expectations.DeletionObserved(key, pod.GetNamespace()+"/"+pod.GetName())
		c.queue.Add(key)
	}
}

// sync mirrors syncReplicaSet: read the ReplicaSet and its pods from the caches; only when the
// expectations are satisfied, manage the replicas; always bring the status up to date.
func (c *ReplicaSetController) sync(ctx context.Context, key string) error {
	obj, exists, err := c.rsIndexer.GetByKey(key)
	if err != nil {
		return err
	}
	if !exists {
		c.hop("sync", key, "", slog.String("result", "gone"))
		c.expectations.DeleteExpectations(key)
		return nil
	}
	rs, ok := app.AsUnstructured(obj)
	if !ok {
		return fmt.Errorf("ReplicaSet %s: not an object in the cache", key)
	}
	satisfied := c.expectations.SatisfiedExpectations(key)
	add, del := c.expectations.Pending(key)
	c.hop("sync", key, rs.GetResourceVersion(), slog.Bool("satisfied", satisfied), slog.Int("pendingAdd", add), slog.Int("pendingDel", del))
	selector, err := app.SelectorOf(rs, "spec", "selector")
	if err != nil {
		return err
	}
	var pods []*api.Unstructured
	objs, err := c.podIndexer.ByIndex(store.NamespaceIndex, rs.GetNamespace())
	if err != nil {
		return err
	}
	for _, o := range objs {
		pod, ok := app.AsUnstructured(o)
		if !ok || !app.IsPodActive(pod) || !selector.Matches(labels.Set(pod.GetLabels())) {
			continue
		}
		if ref := app.GetControllerOf(pod); ref != nil && ref.UID == rs.GetUID() {
			pods = append(pods, pod)
		}
	}
	var manageErr error
	if satisfied && rs.GetDeletionTimestamp() == nil {
		manageErr = c.manageReplicas(ctx, pods, rs)
	}
	if err := c.updateStatus(ctx, rs, pods); err != nil && manageErr == nil {
		manageErr = err
	}
	return manageErr
}

// updateStatus mirrors calculateStatus and updateReplicaSetStatus: replicas, readyReplicas,
// availableReplicas (ready pods: minReadySeconds is left out), fullyLabeledReplicas and
// observedGeneration, written through the status subresource only when they changed. It
// writes a copy: the cached object is never mutated.
func (c *ReplicaSetController) updateStatus(ctx context.Context, rs *api.Unstructured, pods []*api.Unstructured) error {
	ready := 0
	for _, p := range pods {
		if app.IsPodReady(p) {
			ready++
		}
	}
	want := map[string]any{
		"replicas": int64(len(pods)), "fullyLabeledReplicas": int64(len(pods)),
		"readyReplicas": int64(ready), "availableReplicas": int64(ready),
		"observedGeneration": rs.GetGeneration(),
	}
	old := app.NestedMap(rs.Object, "status")
	same := true
	for k, v := range want {
		n, _ := app.NestedInt64(rs.Object, "status", k)
		same = same && n == v.(int64)
	}
	if same {
		return nil
	}
	cp := rs.DeepCopy()
	status := maps.Clone(old)
	if status == nil {
		status = map[string]any{}
	}
	maps.Copy(status, want)
	cp.Object["status"] = status
	updated, err := c.client.Resource(app.ReplicaSets).Namespace(rs.GetNamespace()).UpdateStatus(ctx, cp, api.UpdateOptions{})
	if err != nil {
		return err
	}
	c.hop("update-status", rsKey(rs), updated.GetResourceVersion(), slog.String("cause",
		fmt.Sprintf("replicas %d ready %d of %d", len(pods), ready, specReplicas(rs))))
	return nil
}

// clientPodControl mirrors RealPodControl: pods are written with the dynamic client.
type clientPodControl struct{ client *dynamic.DynamicClient }

func (p clientPodControl) CreatePod(ctx context.Context, pod *api.Unstructured) (*api.Unstructured, error) {
	return p.client.Resource(app.Pods).Namespace(pod.GetNamespace()).Create(ctx, pod, api.CreateOptions{})
}

func (p clientPodControl) DeletePod(ctx context.Context, namespace, name string) error {
	return p.client.Resource(app.Pods).Namespace(namespace).Delete(ctx, name, api.DeleteOptions{})
}
