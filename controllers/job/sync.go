package job

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
)

// syncJobCtx mirrors syncJobCtx: what one sync learned about a Job and its pods.
type syncJobCtx struct {
	job                  *job
	pods                 []*api.Unstructured
	activePods           []*api.Unstructured
	succeeded, failed    int32
	ready                int32
	terminating          int32
	finishedCondition    *jobCondition
	uncountedSucceeded   map[string]bool
	uncountedFailed      map[string]bool
	expectedRmFinalizers map[string]bool
	prevSucceededIndexes orderedIntervals
	succeededIndexes     orderedIntervals
	newBackoffRecord     backoffRecord
}

func phase(p *api.Unstructured) string { return app.PodPhase(p) }

func setOf(ids []string) map[string]bool {
	m := make(map[string]bool, len(ids))
	for _, id := range ids {
		m[id] = true
	}
	return m
}

// syncJob mirrors syncJob: count the pods, decide whether the Job succeeded or failed,
// create or delete pods (manageJob), then record it all in the status through the
// tracking finalizers (trackJobStatusAndRemoveFinalizers).
func (c *Controller) syncJob(ctx context.Context, key string) (rErr error) {
	obj, exists, err := c.jobs.GetIndexer().GetByKey(key)
	if err != nil {
		return err
	}
	if !exists {
		c.hop("sync", key, "", slog.String("result", "deleted"))
		c.expectations.deleteExpectations(key)
		c.finalizerExpectations.deleteExpectations(key)
		c.backoff.removeBackoffRecord(key)
		c.consistency.Clear(key)
		return c.releaseOrphanPods(ctx, key)
	}
	shared, _ := app.AsUnstructured(obj)
	if err := c.consistency.EnsureReady(key, shared.GetResourceVersion()); err != nil {
		// The cache has not shown this controller's last status write yet: the pods it
		// holds may be as old, so the sync waits for it rather than read the Job afresh.
		c.hop("stale-cache", key, shared.GetResourceVersion(), slog.Any("err", err))
		return err
	}
	c.hop("sync", key, shared.GetResourceVersion())
	defer func() { c.hop("synced", key, shared.GetResourceVersion(), slog.Any("err", rErr)) }()
	j, err := newJob(shared)
	if err != nil {
		return err
	}
	if m := j.Spec.ManagedBy; m != nil && *m != ControllerName {
		return nil // another controller's Job
	}
	if isJobFinished(&j.Status) {
		c.backoff.removeBackoffRecord(key)
		c.finishedJobs.Delete(j.uid())
		return nil
	}
	if _, ok := c.finishedJobs.Load(j.uid()); ok {
		return nil // marked finished; the informer has not shown it yet
	}
	if m := j.Spec.CompletionMode; m != nil && *m != indexedCompletion && *m != nonIndexedCompletion {
		c.cc.Recorder.Eventf(ctx, component, j.obj, app.EventTypeWarning, "UnknownCompletionMode", "Skipped Job sync because completion mode is unknown")
		return nil
	}
	if j.Status.UncountedTerminatedPods == nil {
		j.Status.UncountedTerminatedPods = &uncountedTerminatedPods{}
	}
	// Expectations first: a pod that enters the cache after this check only defers the
	// decision to the next sync.
	satisfied := c.expectations.satisfied(key)
	pods, err := c.getPodsForJob(j)
	if err != nil {
		return err
	}
	jc := &syncJobCtx{
		job:                  j,
		pods:                 pods,
		uncountedSucceeded:   setOf(j.Status.UncountedTerminatedPods.Succeeded),
		uncountedFailed:      setOf(j.Status.UncountedTerminatedPods.Failed),
		expectedRmFinalizers: c.finalizerExpectations.getExpectedUIDs(key),
	}
	for _, p := range pods {
		if app.IsPodActive(p) {
			jc.activePods = append(jc.activePods, p)
			if app.IsPodReady(p) {
				jc.ready++
			}
		}
		if isPodTerminating(p) {
			jc.terminating++
		}
	}
	active := int32(len(jc.activePods))
	newSucceeded, newFailed := getNewFinishedPods(jc)
	jc.succeeded = j.Status.Succeeded + int32(len(newSucceeded)) + int32(len(jc.uncountedSucceeded))
	jc.failed = j.Status.Failed + int32(nonIgnoredFailedPodsCount(j, newFailed)) + int32(len(jc.uncountedFailed))
	now := time.Now()
	if j.Status.StartTime == nil && !j.suspended() {
		t := api.NewTime(now)
		j.Status.StartTime = &t
	}
	jc.newBackoffRecord = c.backoff.newBackoffRecord(key, newSucceeded, newFailed)

	// The order of upstream's evaluation: a recorded SuccessCriteriaMet or FailureTarget,
	// then the pod failure policy, then backoffLimit and the deadline, then success.
	jc.finishedCondition = findTrue(j.Status.Conditions, condSuccessCriteriaMet)
	if jc.finishedCondition == nil {
		if ft := findTrue(j.Status.Conditions, condFailureTarget); ft != nil {
			jc.finishedCondition = newCondition(condFailed, "True", ft.Reason, ft.Message, now)
		} else if msg := getFailJobMessage(j, pods); msg != nil {
			jc.finishedCondition = newCondition(condFailureTarget, "True", reasonPodFailurePolicy, *msg, now)
		}
	}
	if jc.finishedCondition == nil {
		switch {
		case jc.failed > deref(j.Spec.BackoffLimit, 6) || pastBackoffLimitOnFailure(j, pods):
			jc.finishedCondition = newCondition(condFailureTarget, "True", reasonBackoffLimitExceeded, "Job has reached the specified backoff limit", now)
		case c.pastActiveDeadline(j, now):
			jc.finishedCondition = newCondition(condFailureTarget, "True", reasonDeadlineExceeded, "Job was active longer than specified deadline", now)
		case j.Spec.ActiveDeadlineSeconds != nil && !j.suspended():
			c.queue.AddAfter(key, time.Duration(*j.Spec.ActiveDeadlineSeconds)*time.Second-now.Sub(j.Status.StartTime.Time))
		}
	}
	if j.isIndexed() {
		jc.prevSucceededIndexes, jc.succeededIndexes = calculateSucceededIndexes(j, pods)
		jc.succeeded = int32(jc.succeededIndexes.total())
	}

	var manageErr error
	suspendCondChanged := false
	if jc.finishedCondition != nil {
		deletedReady, deleted, err := c.deleteActivePods(ctx, j, jc.activePods)
		if deleted != active || !satisfied {
			// Pods remain, or the cache may miss some: the Job cannot be declared finished.
			jc.finishedCondition = nil
		}
		active -= deleted
		jc.terminating += deleted
		jc.ready -= deletedReady
		manageErr = err
	} else {
		manageCalled := false
		if satisfied && j.obj.GetDeletionTimestamp() == nil {
			active, manageErr = c.manageJob(ctx, j, jc)
			manageCalled = true
		}
		var complete bool
		if j.Spec.Completions == nil {
			// Without completions, the first success ends the Job once nothing runs.
			complete = jc.succeeded > 0 && active == 0
		} else {
			complete = jc.succeeded >= *j.Spec.Completions && active == 0
		}
		switch {
		case complete:
			jc.finishedCondition = newCondition(condSuccessCriteriaMet, "True", reasonCompletionsReached, "Reached expected number of succeeded pods", now)
		case manageCalled && j.suspended():
			var changed bool
			j.Status.Conditions, changed = ensureJobConditionStatus(j.Status.Conditions, condSuspended, "True", "JobSuspended", "Job suspended", now)
			if changed {
				suspendCondChanged = true
				c.cc.Recorder.Eventf(ctx, component, j.obj, app.EventTypeNormal, "Suspended", "Job suspended")
				j.Status.StartTime = nil // MutableSchedulingDirectivesForSuspendedJobs is on
			}
		case manageCalled:
			var changed bool
			j.Status.Conditions, changed = ensureJobConditionStatus(j.Status.Conditions, condSuspended, "False", "JobResumed", "Job resumed", now)
			if changed {
				suspendCondChanged = true
				c.cc.Recorder.Eventf(ctx, component, j.obj, app.EventTypeNormal, "Resumed", "Job resumed")
				// activeDeadlineSeconds counts from the resume.
				t := api.NewTime(now)
				j.Status.StartTime = &t
			}
		}
	}
	needsStatusUpdate := suspendCondChanged || active != j.Status.Active ||
		j.Status.Ready == nil || *j.Status.Ready != jc.ready ||
		j.Status.Terminating == nil || *j.Status.Terminating != jc.terminating
	j.Status.Active = active
	j.Status.Ready = ptrTo(jc.ready)
	j.Status.Terminating = ptrTo(jc.terminating)
	if err := c.trackJobStatusAndRemoveFinalizers(ctx, jc, needsStatusUpdate); err != nil {
		return fmt.Errorf("tracking status: %w", err)
	}
	return manageErr
}

func ptrTo[T any](v T) *T { return &v }

func deref[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}

func findTrue(list []jobCondition, t string) *jobCondition {
	if c := findCondition(list, t); c != nil && c.Status == "True" {
		return c
	}
	return nil
}

// pastActiveDeadline mirrors pastActiveDeadline; a suspended Job's clock is stopped.
func (c *Controller) pastActiveDeadline(j *job, now time.Time) bool {
	if j.Spec.ActiveDeadlineSeconds == nil || j.Status.StartTime == nil || j.suspended() {
		return false
	}
	return now.Sub(j.Status.StartTime.Time) >= time.Duration(*j.Spec.ActiveDeadlineSeconds)*time.Second
}

// pastBackoffLimitOnFailure mirrors pastBackoffLimitOnFailure: with restartPolicy
// OnFailure the kubelet restarts containers in place, so their restarts count instead.
func pastBackoffLimitOnFailure(j *job, pods []*api.Unstructured) bool {
	if j.Spec.Template.Spec.RestartPolicy != "OnFailure" {
		return false
	}
	var n int64
	for _, p := range pods {
		if ph := phase(p); ph == "Running" || ph == "Pending" {
			n += restartCount(p)
		}
	}
	limit := int64(deref(j.Spec.BackoffLimit, 6))
	if limit == 0 {
		return n > 0
	}
	return n >= limit
}

// getNewFinishedPods mirrors getNewFinishedPods: finished pods still carrying the finalizer
// and not yet in uncountedTerminatedPods.
func getNewFinishedPods(jc *syncJobCtx) (succeeded, failed []*api.Unstructured) {
	succeeded = getValidPodsWithFilter(jc, jc.uncountedSucceeded, func(p *api.Unstructured) bool { return phase(p) == "Succeeded" })
	failed = getValidPodsWithFilter(jc, jc.uncountedFailed, func(p *api.Unstructured) bool { return isPodFailed(p, jc.job) })
	return succeeded, failed
}

// getValidPodsWithFilter mirrors getValidPodsWithFilter.
func getValidPodsWithFilter(jc *syncJobCtx, uncounted map[string]bool, filter func(*api.Unstructured) bool) []*api.Unstructured {
	var out []*api.Unstructured
	for _, p := range jc.pods {
		uid := p.GetUID()
		if !hasJobTrackingFinalizer(p) || uncounted[uid] || jc.expectedRmFinalizers[uid] {
			continue
		}
		if jc.job.isIndexed() {
			ix := getCompletionIndex(p)
			if ix == unknownCompletionIndex || ix >= int(jc.job.completions()) {
				continue
			}
		}
		if filter(p) {
			out = append(out, p)
		}
	}
	return out
}

// nonIgnoredFailedPodsCount mirrors nonIgnoredFailedPodsCount: failures an Ignore rule of
// the pod failure policy matches do not count.
func nonIgnoredFailedPodsCount(j *job, failed []*api.Unstructured) int {
	n := len(failed)
	if j.Spec.PodFailurePolicy != nil {
		for _, p := range failed {
			if _, count, _ := matchPodFailurePolicy(j.Spec.PodFailurePolicy, p); !count {
				n--
			}
		}
	}
	return n
}
