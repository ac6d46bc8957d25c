// Package ttlafterfinished is the simulated cluster's TTL-after-finished controller. It
// mirrors k8s.io/kubernetes pkg/controller/ttlafterfinished/ttlafterfinished_controller.go.
//
// The contract:
//
//  1. A Job with spec.ttlSecondsAfterFinished that has finished (its Complete or Failed
//     condition True) expires ttl seconds after that condition's lastTransitionTime; its
//     key is queued for that moment.
//  2. At expiry the controller reads the Job again from the server, not the cache, and
//     checks once more (the ttl may have changed), then deletes it with propagation
//     Foreground and a UID precondition, so a new Job of the same name is never deleted.
//  3. A Job that finished "in the future" (clock skew) is cleaned up only once that time
//     has passed plus the ttl.
package ttlafterfinished

import (
	"context"
	"log/slog"
	"math"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controller"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/controllers/job"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/workqueue"
)

// Name is the controller's name, as --controllers spells it.
const Name = "ttl-after-finished"

const component = "ttl-after-finished-controller"

// Controller mirrors ttlafterfinished.Controller.
type Controller struct {
	cc    *app.ControllerContext
	jobs  informer.SharedIndexInformer
	queue workqueue.TypedRateLimitingInterface[string]
}

// New mirrors New (an app.InitFunc): the Job informer and its handlers.
func New(cc *app.ControllerContext) (app.Controller, error) {
	c := &Controller{cc: cc, jobs: cc.Informer(app.Jobs), queue: cc.NewQueue(Name)}
	if _, err := c.jobs.AddEventHandler(processor.ResourceEventHandlerFuncs{
		AddFunc:    c.addJob,
		UpdateFunc: func(_, cur any) { c.addJob(cur) },
	}); err != nil {
		return nil, err
	}
	return c, nil
}

// Name implements app.Controller.
func (c *Controller) Name() string { return Name }

// Run mirrors Controller.Run.
func (c *Controller) Run(ctx context.Context, workers int) {
	loop := controller.NewLoop(c.queue, c.processJob)
	loop.MaxRetries = math.MaxInt
	loop.Run(ctx, workers)
}

// addJob mirrors addJob and updateJob: queue a finished Job with a ttl.
func (c *Controller) addJob(obj any) {
	u, ok := app.AsUnstructured(obj)
	if !ok || u.GetDeletionTimestamp() != nil || !needsCleanup(u) {
		return
	}
	c.queue.Add(u.GetNamespace() + "/" + u.GetName())
}

func ttlOf(u *api.Unstructured) (int64, bool) {
	return app.NestedInt64(u.Object, "spec", "ttlSecondsAfterFinished")
}

// needsCleanup mirrors needsCleanup.
func needsCleanup(u *api.Unstructured) bool {
	_, ok := ttlOf(u)
	return ok && job.IsJobFinished(u)
}

// processJob mirrors processJob (contract 2).
func (c *Controller) processJob(ctx context.Context, key string) error {
	obj, exists, err := c.jobs.GetIndexer().GetByKey(key)
	if err != nil || !exists {
		return err
	}
	cached, _ := app.AsUnstructured(obj)
	trace.Hop(c.cc.Logger, component, "sync", key, cached.GetResourceVersion())
	if expired := c.processTTL(cached); !expired {
		return nil
	}
	// The cached ttl may be stale: decide again on the server's copy.
	fresh, err := c.cc.Client.Resource(app.Jobs).Namespace(cached.GetNamespace()).Get(ctx, cached.GetName(), api.GetOptions{})
	if api.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if expired := c.processTTL(fresh); !expired {
		return nil
	}
	policy := "Foreground"
	uid := fresh.GetUID()
	err = c.cc.Client.Resource(app.Jobs).Namespace(fresh.GetNamespace()).Delete(ctx, fresh.GetName(),
		api.DeleteOptions{PropagationPolicy: &policy, Preconditions: &api.Preconditions{UID: &uid}})
	trace.Hop(c.cc.Logger, component, "delete", key, fresh.GetResourceVersion(), slog.String("cause", "ttl after finished expired"), slog.Any("err", err))
	return err
}

// processTTL mirrors processTTL: whether the Job has expired; if not yet, its key is
// queued for the moment it will.
func (c *Controller) processTTL(u *api.Unstructured) bool {
	if u.GetDeletionTimestamp() != nil || !needsCleanup(u) {
		return false
	}
	left, ok := timeLeft(u, time.Now())
	if !ok {
		return false
	}
	if left <= 0 {
		return true
	}
	c.queue.AddAfter(u.GetNamespace()+"/"+u.GetName(), left)
	return false
}

// timeLeft mirrors timeLeft: the time until finish time plus ttl (contract 1 and 3).
func timeLeft(u *api.Unstructured, now time.Time) (time.Duration, bool) {
	finishAt, ok := job.JobFinishTime(u)
	ttl, hasTTL := ttlOf(u)
	if !ok || !hasTTL {
		return 0, false
	}
	return finishAt.Add(time.Duration(ttl) * time.Second).Sub(now), true
}
