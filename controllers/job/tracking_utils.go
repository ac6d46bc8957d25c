package job

import (
	"context"
	"fmt"
	"log/slog"
	"sort"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
)

// trackJobStatusAndRemoveFinalizers mirrors trackJobStatusAndRemoveFinalizers:
//  1. put newly finished pods in status.uncountedTerminatedPods (and flush the status),
//  2. remove their tracking finalizers,
//  3. move the pods whose finalizer is gone from the uncounted lists to the counters,
//  4. add the terminal condition once nothing is uncounted or terminating.
//
// A crash between any two steps loses nothing: a pod is either still carrying its
// finalizer, or listed as uncounted, or counted.
func (c *Controller) trackJobStatusAndRemoveFinalizers(ctx context.Context, jc *syncJobCtx, needsFlush bool) error {
	j := jc.job
	isIndexed := j.isIndexed()
	if isIndexed {
		sort.SliceStable(jc.pods, func(a, b int) bool { return getCompletionIndex(jc.pods[a]) < getCompletionIndex(jc.pods[b]) })
	}
	uidsWithFinalizer := map[string]bool{}
	for _, p := range jc.pods {
		if hasJobTrackingFinalizer(p) && !jc.expectedRmFinalizers[p.GetUID()] {
			uidsWithFinalizer[p.GetUID()] = true
		}
	}
	if cleanUncountedPodsWithoutFinalizers(&j.Status, uidsWithFinalizer) {
		needsFlush = true
	}
	uncounted := j.Status.UncountedTerminatedPods
	var toRemove []*api.Unstructured
	var newSucceededIndexes []int
	reachedMax := false
	for _, p := range jc.pods {
		uid := p.GetUID()
		if !hasJobTrackingFinalizer(p) || jc.expectedRmFinalizers[uid] {
			continue // counted in an earlier sync
		}
		failed := isPodFailed(p, j)
		if !canRemoveFinalizer(jc, p, failed) {
			continue
		}
		toRemove = append(toRemove, p)
		ix := getCompletionIndex(p)
		switch {
		case phase(p) == "Succeeded" && !jc.uncountedFailed[uid]:
			if isIndexed {
				// The index alone prevents counting twice: no UID needed.
				if ix != unknownCompletionIndex && ix < int(j.completions()) && !jc.prevSucceededIndexes.has(ix) {
					newSucceededIndexes = append(newSucceededIndexes, ix)
					needsFlush = true
				}
			} else if !jc.uncountedSucceeded[uid] {
				needsFlush = true
				uncounted.Succeeded = append(uncounted.Succeeded, uid)
			}
		case failed || (jc.finishedCondition != nil && jc.finishedCondition.Type != condSuccessCriteriaMet):
			// Once the Job fails, every pod not finished counts as failed.
			if !jc.uncountedFailed[uid] && (!isIndexed || (ix != unknownCompletionIndex && ix < int(j.completions()))) {
				if _, count, _ := matchPodFailurePolicy(j.Spec.PodFailurePolicy, p); count {
					needsFlush = true
					uncounted.Failed = append(uncounted.Failed, uid)
				}
			}
		}
		if len(newSucceededIndexes)+len(uncounted.Succeeded)+len(uncounted.Failed) >= MaxUncountedPods {
			// Enough for one sync: the status and pod updates bring the Job back.
			reachedMax = true
			break
		}
	}
	if isIndexed {
		jc.succeededIndexes = jc.succeededIndexes.withOrderedIndexes(newSucceededIndexes)
		s := jc.succeededIndexes.String()
		if s != j.Status.CompletedIndexes {
			needsFlush = true
		}
		j.Status.Succeeded = int32(jc.succeededIndexes.total())
		j.Status.CompletedIndexes = s
	}
	now := time.Now()
	// An interim FailureTarget or SuccessCriteriaMet is written before any finalizer goes,
	// so the reason survives a crash; the final condition follows once all is counted.
	if fc := jc.finishedCondition; fc != nil && fc.Type == condFailureTarget {
		j.Status.Conditions = append(j.Status.Conditions, *fc)
		needsFlush = true
		jc.finishedCondition = newCondition(condFailed, "True", fc.Reason, fc.Message, now)
	}
	if fc := jc.finishedCondition; fc != nil && fc.Type == condSuccessCriteriaMet {
		if findTrue(j.Status.Conditions, condSuccessCriteriaMet) == nil {
			j.Status.Conditions = append(j.Status.Conditions, *fc)
			needsFlush = true
		}
		jc.finishedCondition = newCondition(condComplete, "True", fc.Reason, fc.Message, now)
	}
	needsFlush, err := c.flushUncountedAndRemoveFinalizers(ctx, jc, toRemove, uidsWithFinalizer, needsFlush)
	if err != nil {
		return err
	}
	finished := !reachedMax && c.enactJobFinished(jc, now)
	if finished {
		needsFlush = true
	}
	if !needsFlush {
		return nil
	}
	cause := "counters"
	if finished {
		cause = "job finished: " + jc.finishedCondition.Type
	}
	if err := c.updateStatus(ctx, jc, cause); err != nil {
		return fmt.Errorf("removing uncounted pods from status: %w", err)
	}
	if finished {
		c.recordJobFinished(ctx, jc)
		c.finishedJobs.Store(j.uid(), struct{}{})
	}
	return nil
}

// canRemoveFinalizer mirrors canRemoveFinalizer without backoffLimitPerIndex: the Job is
// being deleted or finishing, or the pod succeeded or failed.
func canRemoveFinalizer(jc *syncJobCtx, p *api.Unstructured, failed bool) bool {
	return jc.job.obj.GetDeletionTimestamp() != nil || jc.finishedCondition != nil || phase(p) == "Succeeded" || failed
}

// flushUncountedAndRemoveFinalizers mirrors flushUncountedAndRemoveFinalizers: write the
// uncounted UIDs, remove the finalizers, move what was removed to the counters. It returns
// whether the status still has changes to write.
func (c *Controller) flushUncountedAndRemoveFinalizers(ctx context.Context, jc *syncJobCtx, toRemove []*api.Unstructured, uidsWithFinalizer map[string]bool, needsFlush bool) (bool, error) {
	if needsFlush {
		cause := "active pods changed"
		if u := jc.job.Status.UncountedTerminatedPods; len(u.Succeeded)+len(u.Failed) > 0 {
			cause = "uncounted terminated pods"
		}
		if err := c.updateStatus(ctx, jc, cause); err != nil {
			return needsFlush, fmt.Errorf("adding uncounted pods to status: %w", err)
		}
		c.backoff.updateBackoffRecord(jc.newBackoffRecord)
		needsFlush = false
	}
	var rmErr error
	if len(toRemove) > 0 {
		key := jc.job.key()
		uids := make([]string, len(toRemove))
		for i, p := range toRemove {
			uids[i] = p.GetUID()
		}
		c.finalizerExpectations.expectFinalizersRemoved(key, uids)
		for _, p := range toRemove {
			err := c.removeTrackingFinalizer(ctx, key, p)
			if err != nil {
				// No update will come for this pod: stop expecting one.
				c.finalizerExpectations.finalizerRemovalObserved(key, p.GetUID())
				if !api.IsNotFound(err) {
					rmErr = cmpErr(rmErr, err)
					continue
				}
			}
			delete(uidsWithFinalizer, p.GetUID())
		}
	}
	if cleanUncountedPodsWithoutFinalizers(&jc.job.Status, uidsWithFinalizer) {
		needsFlush = true
	}
	if rmErr != nil && needsFlush {
		// Record the partial progress before retrying.
		if err := c.updateStatus(ctx, jc, "partial finalizer removal"); err != nil {
			return needsFlush, fmt.Errorf("removing uncounted pods from status: %w", err)
		}
	}
	return needsFlush, rmErr
}

// cleanUncountedPodsWithoutFinalizers mirrors cleanUncountedPodsWithoutFinalizers: an
// uncounted UID whose pod no longer carries the finalizer becomes a count.
func cleanUncountedPodsWithoutFinalizers(st *jobStatus, withFinalizer map[string]bool) bool {
	u := st.UncountedTerminatedPods
	keep := func(ids []string) []string {
		var out []string
		for _, id := range ids {
			if withFinalizer[id] {
				out = append(out, id)
			}
		}
		return out
	}
	updated := false
	if k := keep(u.Succeeded); len(k) != len(u.Succeeded) {
		st.Succeeded += int32(len(u.Succeeded) - len(k))
		u.Succeeded = k
		updated = true
	}
	if k := keep(u.Failed); len(k) != len(u.Failed) {
		st.Failed += int32(len(u.Failed) - len(k))
		u.Failed = k
		updated = true
	}
	return updated
}

// enactJobFinished mirrors enactJobFinished: the terminal condition, once no pod is
// uncounted and none is terminating.
func (c *Controller) enactJobFinished(jc *syncJobCtx, now time.Time) bool {
	fc := jc.finishedCondition
	if fc == nil {
		return false
	}
	st := &jc.job.Status
	if u := st.UncountedTerminatedPods; u != nil && len(u.Succeeded)+len(u.Failed) > 0 {
		return false
	}
	if jc.terminating > 0 {
		return false
	}
	st.Conditions, _ = ensureJobConditionStatus(st.Conditions, fc.Type, fc.Status, fc.Reason, fc.Message, now)
	if fc.Type == condComplete {
		t := fc.LastTransitionTime
		st.CompletionTime = &t
	}
	return true
}

// recordJobFinished mirrors recordJobFinished's events.
func (c *Controller) recordJobFinished(ctx context.Context, jc *syncJobCtx) {
	j, fc := jc.job, jc.finishedCondition
	if fc.Type == condComplete {
		if j.Spec.Completions != nil && j.Status.Succeeded > *j.Spec.Completions {
			c.cc.Recorder.Eventf(ctx, component, j.obj, app.EventTypeWarning, "TooManySucceededPods", "Too many succeeded pods running after completion count reached")
		}
		c.cc.Recorder.Eventf(ctx, component, j.obj, app.EventTypeNormal, "Completed", "Job completed")
		return
	}
	c.cc.Recorder.Eventf(ctx, component, j.obj, app.EventTypeWarning, fc.Reason, "%s", fc.Message)
}

// updateStatus mirrors updateJobStatus: write the status through the status subresource
// and continue from what the server returned.
func (c *Controller) updateStatus(ctx context.Context, jc *syncJobCtx, cause string) error {
	u, err := jc.job.withStatus()
	if err != nil {
		return err
	}
	out, err := c.cc.Client.Resource(app.Jobs).Namespace(jc.job.namespace()).UpdateStatus(ctx, u, api.UpdateOptions{})
	st := jc.job.Status
	c.hop("update-status", jc.job.key(), u.GetResourceVersion(), slog.String("cause", cause),
		slog.Int("active", int(st.Active)), slog.Int("succeeded", int(st.Succeeded)), slog.Int("failed", int(st.Failed)), slog.Any("err", err))
	if err != nil {
		return err
	}
	jc.job.obj = out
	c.consistency.WroteAt(jc.job.key(), out.GetResourceVersion())
	return nil
}
