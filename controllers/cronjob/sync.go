package cronjob

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/internal/cron"
)

// syncCronJob mirrors syncCronJob: reconcile status.active with the Jobs, then start the
// Job of the latest due activation if the policies allow. It returns when to look again
// and whether the status changed.
func (c *Controller) syncCronJob(ctx context.Context, cj *cronJob, jobs []*api.Unstructured) (*time.Duration, bool, error) {
	now := time.Now()
	updateStatus := false
	children := map[string]bool{}
	for _, j := range jobs {
		children[j.GetUID()] = true
		found := inActiveList(cj, j.GetUID())
		finished, cond := finishedCondition(j)
		switch {
		case !found && !finished:
			// Perhaps the cache is behind our own status write: ask the server.
			fresh, err := c.cc.Client.Resource(app.CronJobs).Namespace(cj.obj.GetNamespace()).Get(ctx, cj.obj.GetName(), api.GetOptions{})
			if err != nil {
				return nil, updateStatus, err
			}
			if freshCJ, err := newCronJob(fresh); err == nil && inActiveList(freshCJ, j.GetUID()) {
				cj = adoptStatus(cj, freshCJ)
				continue
			}
			c.event(cj, app.EventTypeWarning, "UnexpectedJob", "Saw a job that the controller did not create or forgot: %s", j.GetName())
		case finished:
			if found {
				deleteFromActiveList(cj, j.GetUID())
				c.event(cj, app.EventTypeNormal, "SawCompletedJob", "Saw completed job: %s, condition: %v", j.GetName(), cond)
				updateStatus = true
			}
			if cond == "Complete" {
				if ct, err := time.Parse(time.RFC3339, app.NestedString(j.Object, "status", "completionTime")); err == nil {
					if cj.Status.LastSuccessfulTime == nil || ct.After(cj.Status.LastSuccessfulTime.Time) {
						t := api.NewTime(ct)
						cj.Status.LastSuccessfulTime = &t
						updateStatus = true
					}
				}
			}
		}
	}
	// An active Job the informer does not have may be gone: ask the server.
	for _, ref := range append([]objectReference(nil), cj.Status.Active...) {
		if children[ref.UID] {
			continue
		}
		_, err := c.cc.Client.Resource(app.Jobs).Namespace(ref.Namespace).Get(ctx, ref.Name, api.GetOptions{})
		switch {
		case api.IsNotFound(err):
			c.event(cj, app.EventTypeNormal, "MissingJob", "Active job went missing: %v", ref.Name)
			deleteFromActiveList(cj, ref.UID)
			updateStatus = true
		case err != nil:
			return nil, updateStatus, err
		}
	}
	if cj.obj.GetDeletionTimestamp() != nil {
		return nil, updateStatus, nil // being deleted: start nothing
	}
	if tz := cj.Spec.TimeZone; tz != nil {
		if _, err := time.LoadLocation(*tz); err != nil {
			c.event(cj, app.EventTypeWarning, "UnknownTimeZone", "invalid timeZone: %q: %s", *tz, err)
			return nil, updateStatus, nil
		}
	}
	if cj.Spec.Suspend != nil && *cj.Spec.Suspend {
		return nil, updateStatus, nil
	}
	sched, err := cron.ParseStandard(c.formatSchedule(cj, true))
	if err != nil {
		c.event(cj, app.EventTypeWarning, "UnparseableSchedule", "unparseable schedule: %q : %s", cj.Spec.Schedule, err)
		return nil, updateStatus, nil
	}
	scheduled, err := c.nextScheduleTime(cj, now, sched)
	if err != nil {
		c.event(cj, app.EventTypeWarning, "InvalidSchedule", "invalid schedule: %s : %s", cj.Spec.Schedule, err)
		return nil, updateStatus, nil
	}
	next := nextScheduleTimeDuration(cj, now, sched)
	if scheduled == nil {
		return &next, updateStatus, nil // nothing due
	}
	if d := cj.Spec.StartingDeadlineSeconds; d != nil && scheduled.Add(time.Duration(*d)*time.Second).Before(now) {
		c.event(cj, app.EventTypeWarning, "MissSchedule", "Missed scheduled time to start a job: %s", scheduled.UTC().Format(time.RFC1123Z))
		return &next, updateStatus, nil
	}
	name := getJobName(cj, *scheduled)
	if inActiveListByName(cj, cj.obj.GetNamespace(), name) ||
		(cj.Status.LastScheduleTime != nil && cj.Status.LastScheduleTime.Time.Equal(*scheduled)) {
		return &next, updateStatus, nil // this activation already ran
	}
	if cj.Spec.ConcurrencyPolicy == "Forbid" && len(cj.Status.Active) > 0 {
		c.event(cj, app.EventTypeNormal, "JobAlreadyActive", "Not starting job because prior execution is running and concurrency policy is Forbid")
		return &next, updateStatus, nil
	}
	if cj.Spec.ConcurrencyPolicy == "Replace" {
		for _, ref := range append([]objectReference(nil), cj.Status.Active...) {
			j, err := c.cc.Client.Resource(app.Jobs).Namespace(ref.Namespace).Get(ctx, ref.Name, api.GetOptions{})
			if err != nil {
				c.event(cj, app.EventTypeWarning, "FailedGet", "Get job: %v", err)
				return nil, updateStatus, err
			}
			if !c.deleteJobOf(ctx, cj, j, "concurrencyPolicy Replace") {
				return nil, updateStatus, fmt.Errorf("could not replace job %s/%s", j.GetNamespace(), j.GetName())
			}
			updateStatus = true
		}
	}
	req, err := getJobFromTemplate2(cj, *scheduled)
	if err != nil {
		return nil, updateStatus, err
	}
	created, err := c.cc.Client.Resource(app.Jobs).Namespace(cj.obj.GetNamespace()).Create(ctx, req, api.CreateOptions{})
	c.hop("create-job", cj.obj.GetNamespace()+"/"+cj.obj.GetName(), cj.obj.GetResourceVersion(), slog.String("job", name),
		slog.String("cause", "scheduled "+scheduled.UTC().Format(time.RFC3339)), slog.Any("err", err))
	switch {
	case api.IsAlreadyExists(err):
		existing, gerr := c.cc.Client.Resource(app.Jobs).Namespace(cj.obj.GetNamespace()).Get(ctx, name, api.GetOptions{})
		if gerr != nil {
			return nil, updateStatus, gerr
		}
		if ref := app.GetControllerOf(existing); ref == nil || ref.UID != cj.obj.GetUID() || inActiveList(cj, existing.GetUID()) {
			return nil, updateStatus, nil
		}
		created = existing // ours, made by a sync whose status write was lost
	case err != nil:
		c.event(cj, app.EventTypeWarning, "FailedCreate", "Error creating job: %v", err)
		return nil, updateStatus, err
	default:
		c.event(cj, app.EventTypeNormal, "SuccessfulCreate", "Created job %v", created.GetName())
	}
	cj.Status.Active = append(cj.Status.Active, objectReference{
		Kind: "Job", Namespace: created.GetNamespace(), Name: created.GetName(), UID: created.GetUID(),
		APIVersion: "batch/v1", ResourceVersion: created.GetResourceVersion(),
	})
	t := api.NewTime(*scheduled)
	cj.Status.LastScheduleTime = &t
	return &next, true, nil
}

// adoptStatus takes the server's status for the cached CronJob, as upstream continues
// with the fresh copy.
func adoptStatus(cached, fresh *cronJob) *cronJob {
	cached.Status = fresh.Status
	cached.obj.SetResourceVersion(fresh.obj.GetResourceVersion())
	return cached
}

// nextScheduleTime mirrors nextScheduleTime: the activation to run now, if any, with the
// TooManyMissedTimes warning.
func (c *Controller) nextScheduleTime(cj *cronJob, now time.Time, sched cron.Schedule) (*time.Time, error) {
	_, mostRecent, missed, err := mostRecentScheduleTime(cj, now, sched, true)
	if mostRecent == nil || mostRecent.After(now) {
		return nil, err
	}
	if missed == manyMissed {
		c.event(cj, app.EventTypeWarning, "TooManyMissedTimes", "too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew")
	}
	return mostRecent, err
}

// cleanupFinishedJobs mirrors cleanupFinishedJobs: the history limits.
func (c *Controller) cleanupFinishedJobs(ctx context.Context, cj *cronJob, jobs []*api.Unstructured) bool {
	if cj.Spec.FailedJobsHistoryLimit == nil && cj.Spec.SuccessfulJobsHistoryLimit == nil {
		return false
	}
	var succeeded, failed []*api.Unstructured
	for _, j := range jobs {
		switch finished, cond := finishedCondition(j); {
		case finished && cond == "Complete":
			succeeded = append(succeeded, j)
		case finished && cond == "Failed":
			failed = append(failed, j)
		}
	}
	updated := false
	if l := cj.Spec.SuccessfulJobsHistoryLimit; l != nil && c.removeOldestJobs(ctx, cj, succeeded, *l) {
		updated = true
	}
	if l := cj.Spec.FailedJobsHistoryLimit; l != nil && c.removeOldestJobs(ctx, cj, failed, *l) {
		updated = true
	}
	return updated
}

// removeOldestJobs mirrors removeOldestJobs.
func (c *Controller) removeOldestJobs(ctx context.Context, cj *cronJob, jobs []*api.Unstructured, keep int32) bool {
	n := len(jobs) - int(keep)
	if n <= 0 {
		return false
	}
	sortByJobStartTime(jobs)
	updated := false
	for _, j := range jobs[:n] {
		if c.deleteJobOf(ctx, cj, j, "history limit") {
			updated = true
		}
	}
	return updated
}

// deleteJobOf mirrors deleteJob: delete in the background and leave status.active.
func (c *Controller) deleteJobOf(ctx context.Context, cj *cronJob, j *api.Unstructured, cause string) bool {
	policy := "Background"
	err := c.cc.Client.Resource(app.Jobs).Namespace(j.GetNamespace()).Delete(ctx, j.GetName(), api.DeleteOptions{PropagationPolicy: &policy})
	c.hop("delete-job", cj.obj.GetNamespace()+"/"+cj.obj.GetName(), cj.obj.GetResourceVersion(), slog.String("job", j.GetName()), slog.String("cause", cause), slog.Any("err", err))
	if err == nil || api.IsNotFound(err) {
		c.deleted.Store(j.GetUID(), struct{}{})
	}
	if api.IsNotFound(err) {
		// Already gone: the cache was behind this controller's own delete. Upstream reports
		// FailedDelete here; nothing failed, so this controller stays quiet.
		deleteFromActiveList(cj, j.GetUID())
		return false
	}
	if err != nil {
		c.event(cj, app.EventTypeWarning, "FailedDelete", "Deleted job: %v", err)
		return false
	}
	deleteFromActiveList(cj, j.GetUID())
	c.event(cj, app.EventTypeNormal, "SuccessfulDelete", "Deleted job %v", j.GetName())
	return true
}
