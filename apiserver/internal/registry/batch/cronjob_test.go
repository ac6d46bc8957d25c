package batch

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

func cronJobWith(spec map[string]any) *api.Unstructured {
	s := map[string]any{"concurrencyPolicy": "Allow", "jobTemplate": map[string]any{"spec": map[string]any{"template": map[string]any{
		"spec": map[string]any{"restartPolicy": "Never", "containers": []any{map[string]any{"name": "c", "image": "busybox"}}}}}}}
	for k, v := range spec {
		s[k] = v
	}
	return &api.Unstructured{Object: map[string]any{"apiVersion": "batch/v1", "kind": "CronJob", "metadata": map[string]any{"name": "cj"}, "spec": s}}
}

func messages(causes []api.StatusCause) []string {
	out := []string{}
	for _, c := range causes {
		out = append(out, c.Field+": "+c.Message)
	}
	return out
}

// TestCh01_Strategy_CronJobSchedule: validateCronJobSpec's schedule and time zone checks,
// with the messages the real server gives (the conformance suite's finding-cronjob cases).
func TestCh01_Strategy_CronJobSchedule(t *testing.T) {
	tests := []struct {
		name string
		spec map[string]any
		want []string
	}{
		{"valid", map[string]any{"schedule": "*/5 * * * *"}, []string{}},
		{"names and descriptors", map[string]any{"schedule": "@every 90s", "timeZone": "Asia/Tokyo"}, []string{}},
		{"one field", map[string]any{"schedule": "bad"}, []string{`spec.schedule: Invalid value: "bad": expected exactly 5 fields, found 1: [bad]`}},
		{"weekday 7", map[string]any{"schedule": "0 0 * * 7"}, []string{`spec.schedule: Invalid value: "0 0 * * 7": end of range (7) above maximum (6): 7`}},
		{"TZ", map[string]any{"schedule": "TZ=UTC 0 * * * *"}, []string{`spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead`}},
		{"unknown zone", map[string]any{"schedule": "0 * * * *", "timeZone": "Mars/Olympus"}, []string{`spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus`}},
		{"Local", map[string]any{"schedule": "0 * * * *", "timeZone": "Local"}, []string{`spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones`}},
		{"empty zone", map[string]any{"schedule": "0 * * * *", "timeZone": ""}, []string{`spec.timeZone: Invalid value: "": timeZone must be nil or non-empty string`}},
		{"negative limits", map[string]any{"schedule": "0 * * * *", "startingDeadlineSeconds": int64(-1), "failedJobsHistoryLimit": int64(-2)}, []string{
			`spec.startingDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0`,
			`spec.failedJobsHistoryLimit: Invalid value: -2: must be greater than or equal to 0`}},
		{"policy", map[string]any{"schedule": "0 * * * *", "concurrencyPolicy": "Sometimes"}, []string{
			`spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"`}},
	}
	s := CronJobs().Strategy
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, messages(s.Validate(cronJobWith(tc.spec))))
		})
	}
	// An update may keep a TZ the stored schedule had, but not add one.
	old := cronJobWith(map[string]any{"schedule": "TZ=UTC 0 * * * *"})
	require.Empty(t, s.ValidateUpdate(cronJobWith(map[string]any{"schedule": "TZ=UTC 5 * * * *"}), old))
	require.Equal(t, []string{`spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead`},
		messages(s.ValidateUpdate(cronJobWith(map[string]any{"schedule": "TZ=UTC 0 * * * *"}), cronJobWith(map[string]any{"schedule": "0 * * * *"}))))
}
