// Package cronjob is the simulated cluster's CronJob controller. It mirrors
// k8s.io/kubernetes pkg/controller/cronjob (cronjob_controllerv2.go, utils.go), with the
// schedule parsed by internal/cron as robfig/cron's ParseStandard parses it.
//
// The contract:
//
//  1. The schedule is read on the controller's clock (the process's; virtual in tests) in
//     spec.timeZone, or the process's local zone without one. Each CronJob's key is
//     queued for its next activation plus 100 ms.
//  2. At a sync the latest activation not yet run (after status.lastScheduleTime, or the
//     creation) makes one Job named <cronjob>-<minutes since the epoch>, with the template's
//     labels, annotations and spec and the batch.kubernetes.io/cronjob-scheduled-timestamp
//     annotation; earlier missed ones are skipped. An activation older than
//     startingDeadlineSeconds is missed (event MissSchedule); more than 100 missed
//     activations warn TooManyMissedTimes.
//  3. concurrencyPolicy Allow runs Jobs side by side, Forbid skips an activation while a
//     Job is active (event JobAlreadyActive), Replace deletes the active Jobs first.
//     suspend stops new Jobs, nothing else.
//  4. status.active lists the running Jobs; a finished one leaves it (event
//     SawCompletedJob) and a successful one moves status.lastSuccessfulTime. Finished Jobs
//     beyond successfulJobsHistoryLimit and failedJobsHistoryLimit are deleted, oldest
//     first (event SuccessfulDelete).
//  5. An invalid time zone (UnknownTimeZone) or schedule (UnparseableSchedule) stops the
//     CronJob until it is fixed.
//
// Left out: metrics. Unlike upstream, a Job this controller deleted is not looked at again
// while the informer still has it, and a Job already gone is not a FailedDelete.
package cronjob

import (
	"context"
	"log/slog"
	"math"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/labels"
	"github.com/informer-lab/informer-lab/controller"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/internal/cron"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/store"
	"github.com/informer-lab/informer-lab/workqueue"
)

// Name is the controller's name, as --controllers spells it.
const Name = "cronjob"

const component = "cronjob-controller"

// Controller mirrors ControllerV2 of cronjob_controllerv2.go.
type Controller struct {
	cc       *app.ControllerContext
	jobs     informer.SharedIndexInformer
	cronJobs informer.SharedIndexInformer
	queue    workqueue.TypedRateLimitingInterface[string]
	// consistency holds back a sync until the cache has this controller's last status write.
	consistency *app.ConsistencyStore
	// deleted holds the UIDs of Jobs this controller deleted that the Job informer still
	// has: a sync must not count (or delete) them again. Upstream has no such set; without
	// it a sync between the delete and its event repeats the delete.
	deleted sync.Map
	ctx     context.Context // for the events recorded outside a sync
}

// New mirrors NewControllerV2 (an app.InitFunc).
func New(cc *app.ControllerContext) (app.Controller, error) {
	c := &Controller{cc: cc, jobs: cc.Informer(app.Jobs), cronJobs: cc.Informer(app.CronJobs), queue: cc.NewQueue(Name), consistency: app.NewConsistencyStore(), ctx: context.Background()}
	if _, err := c.jobs.AddEventHandler(processor.ResourceEventHandlerFuncs{
		AddFunc:    c.addJob,
		UpdateFunc: c.updateJob,
		DeleteFunc: func(obj any) {
			if j, ok := app.AsUnstructured(obj); ok {
				c.deleted.Delete(j.GetUID()) // the informer no longer has it
			}
			c.deleteJob(obj)
		},
	}); err != nil {
		return nil, err
	}
	if _, err := c.cronJobs.AddEventHandler(processor.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { c.enqueueAfter(obj, 0) },
		UpdateFunc: c.updateCronJob,
		DeleteFunc: func(obj any) { c.enqueueAfter(obj, 0) },
	}); err != nil {
		return nil, err
	}
	return c, nil
}

// Name implements app.Controller.
func (c *Controller) Name() string { return Name }

// Run mirrors ControllerV2.Run.
func (c *Controller) Run(ctx context.Context, workers int) {
	loop := controller.NewLoop(c.queue, c.reconcile)
	loop.MaxRetries = math.MaxInt
	loop.Run(ctx, workers)
}

// reconcile mirrors processNextWorkItem: a sync that asks to come back later is queued
// for then (and its error dropped, as upstream drops it); an error retries with back-off.
func (c *Controller) reconcile(ctx context.Context, key string) error {
	requeueAfter, err := c.sync(ctx, key)
	if err == nil && requeueAfter != nil {
		c.queue.AddAfter(key, *requeueAfter)
	}
	return err
}

func (c *Controller) hop(op, key, rv string, extra ...slog.Attr) {
	trace.Hop(c.cc.Logger, component, op, key, rv, extra...)
}

func (c *Controller) event(cj *cronJob, eventType, reason, format string, args ...any) {
	c.cc.Recorder.Eventf(c.ctx, component, cj.obj, eventType, reason, format, args...)
}

func (c *Controller) enqueueAfter(obj any, d time.Duration) {
	u, ok := app.AsUnstructured(obj)
	if !ok {
		return
	}
	key := u.GetNamespace() + "/" + u.GetName()
	if d > 0 {
		c.queue.AddAfter(key, d)
		return
	}
	c.queue.Add(key)
}

// updateCronJob mirrors updateCronJob: a new schedule or time zone waits for its next
// activation; any other change syncs now.
func (c *Controller) updateCronJob(oldObj, curObj any) {
	old, ok1 := app.AsUnstructured(oldObj)
	cur, ok2 := app.AsUnstructured(curObj)
	if !ok1 || !ok2 {
		return
	}
	oldCJ, err1 := newCronJob(old)
	curCJ, err2 := newCronJob(cur)
	if err1 != nil || err2 != nil {
		c.enqueueAfter(cur, 0)
		return
	}
	if oldCJ.Spec.Schedule != curCJ.Spec.Schedule || deref(oldCJ.Spec.TimeZone) != deref(curCJ.Spec.TimeZone) ||
		(oldCJ.Spec.TimeZone == nil) != (curCJ.Spec.TimeZone == nil) {
		sched, err := cron.ParseStandard(c.formatSchedule(curCJ, false))
		if err != nil {
			c.event(curCJ, app.EventTypeWarning, "UnParseableCronJobSchedule", "unparseable schedule for cronjob: %s", curCJ.Spec.Schedule)
			return
		}
		c.enqueueAfter(cur, nextScheduleTimeDuration(curCJ, time.Now(), sched))
		return
	}
	c.enqueueAfter(cur, 0)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// resolveControllerRef mirrors resolveControllerRef: the CronJob a Job's controller
// reference names, if it has that UID.
func (c *Controller) resolveControllerRef(namespace string, ref *api.OwnerReference) *api.Unstructured {
	if ref == nil || ref.Kind != "CronJob" {
		return nil
	}
	obj, ok, err := c.cronJobs.GetIndexer().GetByKey(namespace + "/" + ref.Name)
	if err != nil || !ok {
		return nil
	}
	u, _ := app.AsUnstructured(obj)
	if u == nil || u.GetUID() != ref.UID {
		return nil
	}
	return u
}

// addJob mirrors addJob.
func (c *Controller) addJob(obj any) {
	j, ok := app.AsUnstructured(obj)
	if !ok {
		return
	}
	if j.GetDeletionTimestamp() != nil {
		c.deleteJob(j)
		return
	}
	if cj := c.resolveControllerRef(j.GetNamespace(), app.GetControllerOf(j)); cj != nil {
		c.enqueueAfter(cj, 0)
	}
}

// updateJob mirrors updateJob: both CronJobs when the controller reference changed.
func (c *Controller) updateJob(oldObj, curObj any) {
	old, ok1 := app.AsUnstructured(oldObj)
	cur, ok2 := app.AsUnstructured(curObj)
	if !ok1 || !ok2 || old.GetResourceVersion() == cur.GetResourceVersion() {
		return
	}
	curRef, oldRef := app.GetControllerOf(cur), app.GetControllerOf(old)
	if oldRef != nil && (curRef == nil || oldRef.UID != curRef.UID) {
		if cj := c.resolveControllerRef(old.GetNamespace(), oldRef); cj != nil {
			c.enqueueAfter(cj, 0)
		}
	}
	if cj := c.resolveControllerRef(cur.GetNamespace(), curRef); cj != nil {
		c.enqueueAfter(cj, 0)
	}
}

// deleteJob mirrors deleteJob.
func (c *Controller) deleteJob(obj any) {
	j, ok := app.AsUnstructured(obj)
	if !ok {
		return
	}
	if cj := c.resolveControllerRef(j.GetNamespace(), app.GetControllerOf(j)); cj != nil {
		c.enqueueAfter(cj, 0)
	}
}

// getJobsToBeReconciled mirrors getJobsToBeReconciled: the namespace's Jobs whose
// controller reference names the CronJob (by name, as upstream matches).
func (c *Controller) getJobsToBeReconciled(cj *cronJob) []*api.Unstructured {
	var out []*api.Unstructured
	_ = store.ListAllByNamespace(c.jobs.GetIndexer(), cj.obj.GetNamespace(), labels.Everything(), func(obj any) {
		j, ok := app.AsUnstructured(obj)
		if !ok {
			return
		}
		if _, gone := c.deleted.Load(j.GetUID()); gone {
			return
		}
		if ref := app.GetControllerOf(j); ref != nil && ref.Name == cj.obj.GetName() {
			out = append(out, j)
		}
	})
	return out
}

// sync mirrors sync: clean up finished Jobs, run the schedule, write the status once.
func (c *Controller) sync(ctx context.Context, key string) (*time.Duration, error) {
	obj, exists, err := c.cronJobs.GetIndexer().GetByKey(key)
	if err != nil {
		return nil, err
	}
	if !exists {
		c.consistency.Clear(key)
		return nil, nil
	}
	u, _ := app.AsUnstructured(obj)
	if err := c.consistency.EnsureReady(key, u.GetResourceVersion()); err != nil {
		// The cache has not shown this controller's last write (the event may be late, or
		// lost until the informer relists): read the CronJob from the server instead.
		c.hop("stale-cache", key, u.GetResourceVersion(), slog.Any("err", err))
		fresh, gerr := c.cc.Client.Resource(app.CronJobs).Namespace(u.GetNamespace()).Get(ctx, u.GetName(), api.GetOptions{})
		if gerr != nil {
			return nil, gerr
		}
		if err := c.consistency.EnsureReady(key, fresh.GetResourceVersion()); err != nil {
			return nil, err
		}
		u = fresh
	}
	cj, err := newCronJob(u)
	if err != nil {
		return nil, err
	}
	c.hop("sync", key, u.GetResourceVersion())
	jobs := c.getJobsToBeReconciled(cj)
	cleaned := c.cleanupFinishedJobs(ctx, cj, jobs)
	requeueAfter, changed, syncErr := c.syncCronJob(ctx, cj, jobs)
	if cleaned || changed {
		st, err := cj.withStatus()
		if err != nil {
			return nil, err
		}
		out, err := c.cc.Client.Resource(app.CronJobs).Namespace(cj.obj.GetNamespace()).UpdateStatus(ctx, st, api.UpdateOptions{})
		c.hop("update-status", key, u.GetResourceVersion(), slog.String("cause", "active jobs and schedule times"),
			slog.Int("active", len(cj.Status.Active)), slog.Any("err", err))
		if err != nil {
			return nil, err
		}
		c.consistency.WroteAt(key, out.GetResourceVersion())
	}
	if requeueAfter != nil {
		c.hop("requeue", key, u.GetResourceVersion(), slog.Duration("after", *requeueAfter))
		return requeueAfter, nil
	}
	return nil, syncErr
}
