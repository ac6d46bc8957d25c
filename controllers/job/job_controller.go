package job

import (
	"context"
	"log/slog"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controller"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/store"
	"github.com/informer-lab/informer-lab/workqueue"
)

// Name is the controller's name, as --controllers spells it.
const Name = "job"

// component names the controller in events and hops, as upstream's recorder does.
const component = "job-controller"

const (
	// syncJobBatchPeriod mirrors syncJobBatchPeriod: pod events within a second share a sync.
	syncJobBatchPeriod = time.Second
	// MaxUncountedPods mirrors MaxUncountedPods: the most pods one sync moves through
	// status.uncountedTerminatedPods.
	MaxUncountedPods = 500
	// MaxPodCreateDeletePerSync mirrors MaxPodCreateDeletePerSync.
	MaxPodCreateDeletePerSync = 500
	// slowStartInitialBatchSize mirrors controller.SlowStartInitialBatchSize.
	slowStartInitialBatchSize = 1
)

// Controller mirrors job.Controller of pkg/controller/job/job_controller.go: it creates a
// Job's pods, counts them as they finish (through the job-tracking finalizer and
// status.uncountedTerminatedPods), and sets the Job's terminal conditions.
type Controller struct {
	cc    *app.ControllerContext
	jobs  informer.SharedIndexInformer
	pods  informer.SharedIndexInformer
	queue workqueue.TypedRateLimitingInterface[string]

	expectations          *controllerExpectations
	finalizerExpectations *uidTrackingExpectations
	backoff               *backoffStore
	consistency           *app.ConsistencyStore
	// finishedJobs mirrors finishedJobExpectations: the UIDs of Jobs this controller marked
	// finished whose update the informer has not shown yet.
	finishedJobs sync.Map
}

// New mirrors newControllerWithClock (an app.InitFunc): the Job and Pod informers and their
// handlers.
func New(cc *app.ControllerContext) (app.Controller, error) {
	c := &Controller{
		cc:                    cc,
		jobs:                  cc.Informer(app.Jobs),
		pods:                  cc.Informer(app.Pods),
		queue:                 cc.NewQueue(Name),
		expectations:          newControllerExpectations(),
		finalizerExpectations: newUIDTrackingExpectations(),
		backoff:               newBackoffStore(),
		consistency:           app.NewConsistencyStore(),
	}
	if _, err := c.jobs.AddEventHandler(processor.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { c.enqueue(obj, 0) },
		UpdateFunc: c.updateJob,
		DeleteFunc: func(obj any) { c.enqueue(obj, 0) },
	}); err != nil {
		return nil, err
	}
	if _, err := c.pods.AddEventHandler(processor.ResourceEventHandlerFuncs{
		AddFunc:    c.addPod,
		UpdateFunc: c.updatePod,
		DeleteFunc: func(obj any) { c.deletePod(obj, true) },
	}); err != nil {
		return nil, err
	}
	return c, nil
}

// Name implements app.Controller.
func (c *Controller) Name() string { return Name }

// Run mirrors Controller.Run: workers over the queue until ctx ends. Keys are retried with
// back-off for ever, as upstream's queue does.
func (c *Controller) Run(ctx context.Context, workers int) {
	loop := controller.NewLoop(c.queue, c.syncJob)
	loop.MaxRetries = math.MaxInt
	loop.Run(ctx, workers)
}

func (c *Controller) hop(op, key, rv string, extra ...slog.Attr) {
	trace.Hop(c.cc.Logger, component, op, key, rv, extra...)
}

// enqueue mirrors enqueueSyncJobInternal: the Job's key now or after delay.
func (c *Controller) enqueue(obj any, delay time.Duration) {
	u, ok := app.AsUnstructured(obj)
	if !ok {
		return
	}
	key := u.GetNamespace() + "/" + u.GetName()
	if delay > 0 {
		c.queue.AddAfter(key, delay)
		return
	}
	c.queue.Add(key)
}

// updateJob mirrors updateJob: sync now, and again when the active deadline falls due.
func (c *Controller) updateJob(oldObj, curObj any) {
	cur, ok := app.AsUnstructured(curObj)
	if !ok {
		return
	}
	c.enqueue(cur, 0)
	ads, ok := app.NestedInt64(cur.Object, "spec", "activeDeadlineSeconds")
	start, hasStart := parseTime(app.NestedString(cur.Object, "status", "startTime"))
	if ok && hasStart {
		if d := time.Duration(ads)*time.Second - time.Since(start); d > 0 {
			c.enqueue(cur, d)
		}
	}
}

// resolveControllerRef mirrors resolveControllerRef: the Job a pod's controller reference
// names, if it is that very Job (same UID).
func (c *Controller) resolveControllerRef(namespace string, ref *api.OwnerReference) *api.Unstructured {
	if ref == nil || ref.Kind != "Job" || ref.APIVersion != "batch/v1" {
		return nil
	}
	obj, ok, err := c.jobs.GetIndexer().GetByKey(namespace + "/" + ref.Name)
	if err != nil || !ok {
		return nil
	}
	u, _ := app.AsUnstructured(obj)
	if u == nil || u.GetUID() != ref.UID {
		return nil
	}
	return u
}

// addPod mirrors addPod: a created pod fulfils its Job's creation expectation.
func (c *Controller) addPod(obj any) {
	pod, ok := app.AsUnstructured(obj)
	if !ok {
		return
	}
	if pod.GetDeletionTimestamp() != nil {
		c.deletePod(pod, false)
		return
	}
	if j := c.resolveControllerRef(pod.GetNamespace(), app.GetControllerOf(pod)); j != nil {
		key := j.GetNamespace() + "/" + j.GetName()
		c.expectations.creationObserved(key)
		c.enqueue(j, syncJobBatchPeriod)
	}
}

// updatePod mirrors updatePod: a deletion counts as one, a removed finalizer fulfils its
// expectation, and a change of controller wakes both Jobs. A pod that just failed waits
// for the batch period, so its sibling failures share the sync.
func (c *Controller) updatePod(oldObj, curObj any) {
	cur, ok1 := app.AsUnstructured(curObj)
	old, ok2 := app.AsUnstructured(oldObj)
	if !ok1 || !ok2 || cur.GetResourceVersion() == old.GetResourceVersion() {
		return
	}
	if cur.GetDeletionTimestamp() != nil {
		c.deletePod(cur, false)
		return
	}
	curRef, oldRef := app.GetControllerOf(cur), app.GetControllerOf(old)
	if oldRef != nil && (curRef == nil || curRef.UID != oldRef.UID) {
		if j := c.resolveControllerRef(old.GetNamespace(), oldRef); j != nil {
			c.enqueue(j, syncJobBatchPeriod)
		}
	}
	j := c.resolveControllerRef(cur.GetNamespace(), curRef)
	if j == nil {
		return
	}
	key := j.GetNamespace() + "/" + j.GetName()
	if hasJobTrackingFinalizer(old) && !hasJobTrackingFinalizer(cur) {
		c.finalizerExpectations.finalizerRemovalObserved(key, cur.GetUID())
	}
	if app.PodPhase(old) != "Failed" && app.PodPhase(cur) == "Failed" {
		c.enqueue(j, syncJobBatchPeriod)
		return
	}
	c.enqueue(j, 0)
}

// deletePod mirrors deletePod: final is true for the informer's delete, false when a
// pod only got its deletionTimestamp (it still counts as a deletion then).
func (c *Controller) deletePod(obj any, final bool) {
	pod, ok := app.AsUnstructured(obj)
	if !ok {
		return
	}
	ref := app.GetControllerOf(pod)
	if ref == nil || ref.Kind != "Job" {
		return
	}
	obj2, exists, err := c.jobs.GetIndexer().GetByKey(pod.GetNamespace() + "/" + ref.Name)
	if err != nil || !exists {
		// The Job is gone: its pods may still carry the finalizer (orphan cleanup).
		c.queue.Add(pod.GetNamespace() + "/" + ref.Name)
		return
	}
	j, _ := app.AsUnstructured(obj2)
	if j == nil || j.GetUID() != ref.UID {
		return
	}
	key := j.GetNamespace() + "/" + j.GetName()
	c.expectations.deletionObserved(key)
	if final || !hasJobTrackingFinalizer(pod) {
		c.finalizerExpectations.finalizerRemovalObserved(key, pod.GetUID())
	}
	c.enqueue(j, syncJobBatchPeriod)
}

// getPodsForJob mirrors getPodsForJob without adoption: the pods of the Job's namespace
// its selector matches and it controls.
func (c *Controller) getPodsForJob(j *job) ([]*api.Unstructured, error) {
	sel, err := app.LabelSelectorAsSelector(j.Spec.Selector)
	if err != nil {
		return nil, err
	}
	var out []*api.Unstructured
	err = store.ListAllByNamespace(c.pods.GetIndexer(), j.namespace(), sel, func(obj any) {
		p, ok := app.AsUnstructured(obj)
		if !ok {
			return
		}
		if ref := app.GetControllerOf(p); ref != nil && ref.UID == j.uid() {
			out = append(out, p)
		}
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b *api.Unstructured) int { return compareStrings(a.GetName(), b.GetName()) })
	return out, nil
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
