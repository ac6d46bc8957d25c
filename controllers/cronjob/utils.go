package cronjob

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/internal/cron"
)

// CronJobScheduledTimestampAnnotation is batchv1.CronJobScheduledTimestampAnnotation: when
// the Job was scheduled, in the CronJob's time zone.
const CronJobScheduledTimestampAnnotation = "batch.kubernetes.io/cronjob-scheduled-timestamp"

// nextScheduleDelta mirrors nextScheduleDelta: wake a little after the scheduled time, so
// the schedule is certainly due when the sync runs.
const nextScheduleDelta = 100 * time.Millisecond

// tooManyMissed mirrors the 100 of mostRecentScheduleTime.
const tooManyMissed = 100

// objectReference is core/v1 ObjectReference, as status.active holds it.
type objectReference struct {
	Kind            string `json:"kind,omitempty"`
	Namespace       string `json:"namespace,omitempty"`
	Name            string `json:"name,omitempty"`
	UID             string `json:"uid,omitempty"`
	APIVersion      string `json:"apiVersion,omitempty"`
	ResourceVersion string `json:"resourceVersion,omitempty"`
}

type cronJobSpec struct {
	Schedule                   string  `json:"schedule"`
	TimeZone                   *string `json:"timeZone,omitempty"`
	StartingDeadlineSeconds    *int64  `json:"startingDeadlineSeconds,omitempty"`
	ConcurrencyPolicy          string  `json:"concurrencyPolicy,omitempty"`
	Suspend                    *bool   `json:"suspend,omitempty"`
	SuccessfulJobsHistoryLimit *int32  `json:"successfulJobsHistoryLimit,omitempty"`
	FailedJobsHistoryLimit     *int32  `json:"failedJobsHistoryLimit,omitempty"`
}

type cronJobStatus struct {
	Active             []objectReference `json:"active,omitempty"`
	LastScheduleTime   *api.Time         `json:"lastScheduleTime,omitempty"`
	LastSuccessfulTime *api.Time         `json:"lastSuccessfulTime,omitempty"`
}

// cronJob is a CronJob from the cache with typed views of what the controller reads;
// writes start from obj, so nothing the views leave out is lost.
type cronJob struct {
	obj    *api.Unstructured
	Spec   cronJobSpec   `json:"spec"`
	Status cronJobStatus `json:"status"`
}

func newCronJob(u *api.Unstructured) (*cronJob, error) {
	cj, err := app.FromUnstructured[cronJob](u)
	if err != nil {
		return nil, err
	}
	cj.obj = u.DeepCopy()
	return cj, nil
}

func (cj *cronJob) withStatus() (*api.Unstructured, error) {
	b, err := json.Marshal(cj.Status)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	u := cj.obj.DeepCopy()
	u.Object["status"] = m
	return u, nil
}

// inActiveList mirrors inActiveList.
func inActiveList(cj *cronJob, uid string) bool {
	for _, r := range cj.Status.Active {
		if r.UID == uid {
			return true
		}
	}
	return false
}

// inActiveListByName mirrors inActiveListByName.
func inActiveListByName(cj *cronJob, namespace, name string) bool {
	for _, r := range cj.Status.Active {
		if r.Name == name && r.Namespace == namespace {
			return true
		}
	}
	return false
}

// deleteFromActiveList mirrors deleteFromActiveList.
func deleteFromActiveList(cj *cronJob, uid string) {
	out := []objectReference{}
	for _, r := range cj.Status.Active {
		if r.UID != uid {
			out = append(out, r)
		}
	}
	cj.Status.Active = out
}

type missedSchedules int

const (
	noneMissed missedSchedules = iota
	fewMissed
	manyMissed
)

// mostRecentScheduleTime mirrors mostRecentScheduleTime: from the last schedule (or the
// creation), the latest activation not after now, and how many were missed. With
// includeDeadline, activations older than startingDeadlineSeconds are not considered.
func mostRecentScheduleTime(cj *cronJob, now time.Time, sched cron.Schedule, includeDeadline bool) (time.Time, *time.Time, missedSchedules, error) {
	earliest := cj.obj.GetCreationTimestamp().Time
	if cj.Status.LastScheduleTime != nil {
		earliest = cj.Status.LastScheduleTime.Time
	}
	if includeDeadline && cj.Spec.StartingDeadlineSeconds != nil {
		if d := now.Add(-time.Duration(*cj.Spec.StartingDeadlineSeconds) * time.Second); d.After(earliest) {
			earliest = d
		}
	}
	t1 := sched.Next(earliest)
	t2 := sched.Next(t1)
	if now.Before(t1) {
		return earliest, nil, noneMissed, nil
	}
	if now.Before(t2) {
		return earliest, &t1, noneMissed, nil
	}
	// Many activations passed: count them from the interval instead of walking them all.
	between := int64(t2.Sub(t1).Round(time.Second).Seconds())
	if between < 1 {
		return earliest, nil, noneMissed, fmt.Errorf("time difference between two schedules is less than 1 second")
	}
	missed := int64(now.Sub(t1).Seconds())/between + 1
	var mostRecent time.Time
	from := t1.Add(time.Duration((missed-2)*between) * time.Second)
	for t := sched.Next(from); !t.After(now); t = sched.Next(t) {
		mostRecent = t
	}
	kind := fewMissed
	if missed > tooManyMissed {
		kind = manyMissed
	}
	if mostRecent.IsZero() {
		return earliest, nil, kind, nil
	}
	return earliest, &mostRecent, kind, nil
}

// nextScheduleTimeDuration mirrors nextScheduleTimeDuration: how long until the next
// activation, plus nextScheduleDelta.
func nextScheduleTimeDuration(cj *cronJob, now time.Time, sched cron.Schedule) time.Duration {
	earliest, mostRecent, missed, err := mostRecentScheduleTime(cj, now, sched, false)
	switch {
	case err != nil:
		mostRecent = &now
	case mostRecent == nil && missed == noneMissed:
		mostRecent = &earliest
	case mostRecent == nil:
		mostRecent = &now
	}
	return sched.Next(*mostRecent).Add(nextScheduleDelta).Sub(now)
}

// formatSchedule mirrors formatSchedule: spec.timeZone becomes a TZ= prefix; a schedule
// that names TZ itself is used as it is, with a warning.
func (c *Controller) formatSchedule(cj *cronJob, warn bool) string {
	if strings.Contains(cj.Spec.Schedule, "TZ") {
		if warn {
			c.event(cj, app.EventTypeWarning, "UnsupportedSchedule", "CRON_TZ or TZ used in schedule %q is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details", cj.Spec.Schedule)
		}
		return cj.Spec.Schedule
	}
	if cj.Spec.TimeZone != nil {
		if _, err := time.LoadLocation(*cj.Spec.TimeZone); err != nil {
			return cj.Spec.Schedule
		}
		return "TZ=" + *cj.Spec.TimeZone + " " + cj.Spec.Schedule
	}
	return cj.Spec.Schedule
}

// getJobName mirrors getJobName: the scheduled time in minutes since the epoch, so one
// activation can never make two Jobs.
func getJobName(cj *cronJob, scheduled time.Time) string {
	return fmt.Sprintf("%s-%d", cj.obj.GetName(), scheduled.Unix()/60)
}

// getJobFromTemplate2 mirrors getJobFromTemplate2: the template's labels, annotations and
// spec, the scheduled-timestamp annotation, the name and the controller reference.
func getJobFromTemplate2(cj *cronJob, scheduled time.Time) (*api.Unstructured, error) {
	tz := ""
	if cj.Spec.TimeZone != nil {
		tz = *cj.Spec.TimeZone
	}
	loc, err := time.LoadLocation(tz)
	if err != nil {
		return nil, err
	}
	tmpl := app.NestedMap(cj.obj.Object, "spec", "jobTemplate")
	meta := app.NestedMap(tmpl, "metadata")
	labels := map[string]any{}
	annotations := map[string]any{}
	for k, v := range app.NestedMap(meta, "labels") {
		labels[k] = v
	}
	for k, v := range app.NestedMap(meta, "annotations") {
		annotations[k] = v
	}
	annotations[CronJobScheduledTimestampAnnotation] = scheduled.In(loc).Format(time.RFC3339)
	spec := deepCopy(app.NestedMap(tmpl, "spec"))
	if spec == nil {
		spec = map[string]any{}
	}
	j := &api.Unstructured{Object: map[string]any{
		"apiVersion": "batch/v1",
		"kind":       "Job",
		"metadata":   map[string]any{"name": getJobName(cj, scheduled), "labels": labels, "annotations": annotations},
		"spec":       spec,
	}}
	j.SetOwnerReferences([]api.OwnerReference{app.NewControllerRef(cj.obj)})
	return j, nil
}

// deepCopy copies a JSON-shaped map, keeping its number types.
func deepCopy(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	return (&api.Unstructured{Object: m}).DeepCopy().Object
}

// finishedCondition mirrors jobutil.FinishedCondition: whether the Job finished, and as
// Complete or Failed.
func finishedCondition(j *api.Unstructured) (bool, string) {
	v, _ := app.Nested(j.Object, "status", "conditions")
	list, _ := v.([]any)
	for _, x := range list {
		m, _ := x.(map[string]any)
		if t, _ := m["type"].(string); (t == "Complete" || t == "Failed") && m["status"] == "True" {
			return true, t
		}
	}
	return false, ""
}

// startTime is the Job's status.startTime, nil while unset.
func startTime(j *api.Unstructured) *time.Time {
	t, err := time.Parse(time.RFC3339, app.NestedString(j.Object, "status", "startTime"))
	if err != nil {
		return nil
	}
	return &t
}

// sortByJobStartTime mirrors byJobStartTime: started Jobs first, oldest first, then name.
func sortByJobStartTime(js []*api.Unstructured) {
	sort.SliceStable(js, func(a, b int) bool {
		ta, tb := startTime(js[a]), startTime(js[b])
		switch {
		case ta == nil && tb != nil:
			return false
		case ta != nil && tb == nil:
			return true
		case ta == nil || ta.Equal(*tb):
			return js[a].GetName() < js[b].GetName()
		}
		return ta.Before(*tb)
	})
}
