package cronjob

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/internal/cron"
)

func tm(s string) time.Time {
	t, err := time.Parse(time.RFC3339, "2024-05-06T"+s+"Z")
	if err != nil {
		panic(err)
	}
	return t
}

func testCronJob(created string, last string, deadline *int64) *cronJob {
	u := &api.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "cj", "namespace": "ns", "creationTimestamp": "2024-05-06T" + created + "Z"}}}
	cj := &cronJob{obj: u}
	if last != "" {
		t := api.NewTime(tm(last))
		cj.Status.LastScheduleTime = &t
	}
	cj.Spec.StartingDeadlineSeconds = deadline
	return cj
}

// TestCh14_CronJob_MostRecentScheduleTime: which activation is due, and how many were
// missed, from the creation or the last schedule, with and without a deadline.
func TestCh14_CronJob_MostRecentScheduleTime(t *testing.T) {
	hourly, err := cron.ParseStandard("0 * * * *")
	require.NoError(t, err)
	minutely, err := cron.ParseStandard("* * * * *")
	require.NoError(t, err)
	hour := int64(3600)
	tests := []struct {
		name         string
		cj           *cronJob
		sched        cron.Schedule
		now          string
		withDeadline bool
		want         string // "" for none
		missed       missedSchedules
	}{
		{"not due yet", testCronJob("10:00:00", "", nil), hourly, "10:30:00", false, "", noneMissed},
		{"first activation due", testCronJob("10:00:00", "", nil), hourly, "11:00:01", false, "11:00:00", noneMissed},
		{"already ran", testCronJob("10:00:00", "11:00:00", nil), hourly, "11:30:00", false, "", noneMissed},
		{"three missed: the latest", testCronJob("09:00:00", "10:00:00", nil), hourly, "13:01:00", false, "13:00:00", fewMissed},
		{"more than 100 missed", testCronJob("00:00:00", "00:00:00", nil), minutely, "03:20:30", false, "03:20:00", manyMissed},
		{"the deadline moves the start", testCronJob("00:00:00", "10:00:00", &hour), hourly, "13:30:00", true, "13:00:00", noneMissed},
		{"the deadline ignored without includeDeadline", testCronJob("00:00:00", "10:00:00", &hour), hourly, "13:30:00", false, "13:00:00", fewMissed},
		{"the deadline hides old activations", testCronJob("00:00:00", "00:00:00", &hour), minutely, "03:20:30", true, "03:20:00", fewMissed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, got, missed, err := mostRecentScheduleTime(tc.cj, tm(tc.now), tc.sched, tc.withDeadline)
			require.NoError(t, err)
			if tc.want == "" {
				require.Nil(t, got)
			} else {
				require.NotNil(t, got)
				require.Equal(t, tm(tc.want), *got)
			}
			require.Equal(t, tc.missed, missed)
		})
	}
}

// TestCh14_CronJob_NextScheduleTimeDuration: the wait until the next activation, plus
// 100 ms.
func TestCh14_CronJob_NextScheduleTimeDuration(t *testing.T) {
	hourly, err := cron.ParseStandard("0 * * * *")
	require.NoError(t, err)
	require.Equal(t, 30*time.Minute+nextScheduleDelta, nextScheduleTimeDuration(testCronJob("10:00:00", "", nil), tm("10:30:00"), hourly))
	require.Equal(t, 59*time.Minute+nextScheduleDelta, nextScheduleTimeDuration(testCronJob("09:00:00", "10:00:00", nil), tm("11:01:00"), hourly))
	require.Equal(t, 50*time.Minute+nextScheduleDelta, nextScheduleTimeDuration(testCronJob("01:00:00", "02:00:00", nil), tm("13:10:00"), hourly))
}

// TestCh14_CronJob_FormatScheduleAndJobName: spec.timeZone becomes a TZ= prefix; the Job
// name is the scheduled minute since the epoch.
func TestCh14_CronJob_FormatScheduleAndJobName(t *testing.T) {
	c := &Controller{}
	cj := testCronJob("00:00:00", "", nil)
	cj.Spec.Schedule = "0 * * * *"
	require.Equal(t, "0 * * * *", c.formatSchedule(cj, false))
	tz := "Asia/Tokyo"
	cj.Spec.TimeZone = &tz
	require.Equal(t, "TZ=Asia/Tokyo 0 * * * *", c.formatSchedule(cj, false))
	bad := "Mars/Olympus"
	cj.Spec.TimeZone = &bad
	require.Equal(t, "0 * * * *", c.formatSchedule(cj, false))
	cj.Spec.Schedule = "CRON_TZ=UTC 0 * * * *"
	require.Equal(t, "CRON_TZ=UTC 0 * * * *", c.formatSchedule(cj, false))
	require.Equal(t, "cj-28583160", getJobName(cj, tm("10:00:00")))
}

// TestCh14_CronJob_JobFromTemplate: labels, annotations and spec from the template, the
// scheduled-timestamp annotation in the CronJob's zone, the controller reference.
func TestCh14_CronJob_JobFromTemplate(t *testing.T) {
	u := &api.Unstructured{Object: map[string]any{
		"apiVersion": "batch/v1", "kind": "CronJob",
		"metadata": map[string]any{"name": "cj", "namespace": "ns", "uid": "u1"},
		"spec": map[string]any{"timeZone": "Asia/Tokyo", "jobTemplate": map[string]any{
			"metadata": map[string]any{"labels": map[string]any{"a": "1"}, "annotations": map[string]any{"b": "2"}},
			"spec":     map[string]any{"backoffLimit": int64(2)},
		}},
	}}
	cj, err := newCronJob(u)
	require.NoError(t, err)
	j, err := getJobFromTemplate2(cj, tm("10:00:00"))
	require.NoError(t, err)
	require.Equal(t, "cj-28583160", j.GetName())
	require.Equal(t, map[string]string{"a": "1"}, j.GetLabels())
	require.Equal(t, map[string]string{"b": "2", CronJobScheduledTimestampAnnotation: "2024-05-06T19:00:00+09:00"}, j.GetAnnotations())
	require.Equal(t, "u1", j.GetOwnerReferences()[0].UID)
	require.Equal(t, int64(2), j.Object["spec"].(map[string]any)["backoffLimit"])
}
