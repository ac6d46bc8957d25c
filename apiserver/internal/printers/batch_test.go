package printers

import (
	"testing"
	"time"
)

// TestCh01_Printers_Job checks printJob: STATUS from the conditions in kube-apiserver's
// order, COMPLETIONS with and without spec.completions, and DURATION.
func TestCh01_Printers_Job(t *testing.T) {
	assertColumns(t, jobPrinter,
		"Name|string|name|0", "Status|string||0", "Completions|string||0", "Duration|string||0", "Age|string||0",
		"Containers|string||1", "Images|string||1", "Selector|string||1")
	const jobTemplate = `"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"pi","image":"perl:5.40"}]}}`
	sel := `"selector":{"matchLabels":{"batch.kubernetes.io/controller-uid":"u1"}}`
	runCellCases(t, jobPrinter, []cellCase{
		{
			name: "complete",
			json: withMeta("pi", `,"spec":{"completions":1,"parallelism":1,`+sel+`,`+jobTemplate+`},
				"status":{"succeeded":1,"startTime":"`+ago(4*time.Minute)+`","completionTime":"`+ago(3*time.Minute)+`",
				"conditions":[{"type":"SuccessCriteriaMet","status":"True"},{"type":"Complete","status":"True"}]}`),
			want: []any{"pi", "Complete", "1/1", "60s", "5m", "pi", "perl:5.40", "batch.kubernetes.io/controller-uid=u1"},
		},
		{
			name: "running in parallel without completions",
			json: withMeta("work", `,"spec":{"parallelism":3,`+jobTemplate+`},"status":{"active":3,"succeeded":1,"startTime":"`+ago(2*time.Minute)+`"}`),
			want: []any{"work", "Running", "1/1 of 3", "2m", "5m", "pi", "perl:5.40", "<none>"},
		},
		{
			name: "no status",
			json: withMeta("new", `,"spec":{"completions":5}`),
			want: []any{"new", "Running", "0/5", "", "5m", "", "", "<none>"},
		},
		{
			name: "failed beats terminating",
			json: `{"metadata":{"name":"f","creationTimestamp":"` + created + `","deletionTimestamp":"` + ago(time.Second) + `"},
				"status":{"conditions":[{"type":"Complete","status":"False"},{"type":"Failed","status":"True"}]}}`,
			want: []any{"f", "Failed", "0/1", "", "5m", "", "", "<none>"},
		},
		{
			name: "terminating beats suspended",
			json: `{"metadata":{"name":"t","creationTimestamp":"` + created + `","deletionTimestamp":"` + ago(time.Second) + `"},
				"status":{"conditions":[{"type":"Suspended","status":"True"}]}}`,
			want: []any{"t", "Terminating", "0/1", "", "5m", "", "", "<none>"},
		},
		{
			name: "suspended",
			json: withMeta("s", `,"spec":{"suspend":true},"status":{"conditions":[{"type":"Suspended","status":"True"}]}`),
			want: []any{"s", "Suspended", "0/1", "", "5m", "", "", "<none>"},
		},
		{
			name: "failure target",
			json: withMeta("ft", `,"status":{"conditions":[{"type":"FailureTarget","status":"True"}]}`),
			want: []any{"ft", "FailureTarget", "0/1", "", "5m", "", "", "<none>"},
		},
		{
			name: "success criteria met",
			json: withMeta("sc", `,"status":{"conditions":[{"type":"SuccessCriteriaMet","status":"True"}]}`),
			want: []any{"sc", "SuccessCriteriaMet", "0/1", "", "5m", "", "", "<none>"},
		},
	})
}

// TestCh01_Printers_CronJob checks printCronJob: time zone, suspend, active jobs and the
// last schedule, with the job template's wide columns.
func TestCh01_Printers_CronJob(t *testing.T) {
	assertColumns(t, cronJobPrinter,
		"Name|string|name|0", "Schedule|string||0", "Timezone|string||0", "Suspend|boolean||0", "Active|integer||0",
		"Last Schedule|string||0", "Age|string||0", "Containers|string||1", "Images|string||1", "Selector|string||1")
	runCellCases(t, cronJobPrinter, []cellCase{
		{
			name: "scheduled and running",
			json: withMeta("backup", `,"spec":{"schedule":"*/5 * * * *","timeZone":"Etc/UTC","suspend":true,
				"jobTemplate":{"spec":{"selector":{"matchLabels":{"job":"backup"}},"template":{"spec":{"containers":[{"name":"b","image":"restic:0.18"}]}}}}},
				"status":{"active":[{"kind":"Job","name":"backup-1"},{"kind":"Job","name":"backup-2"}],"lastScheduleTime":"`+ago(time.Minute)+`"}`),
			want: []any{"backup", "*/5 * * * *", "Etc/UTC", "True", int64(2), "60s", "5m", "b", "restic:0.18", "job=backup"},
		},
		{
			name: "never scheduled, defaults",
			json: withMeta("nightly", `,"spec":{"schedule":"@daily","timeZone":null,"jobTemplate":{"spec":{"template":{"spec":{"containers":[{"name":"n"}]}}}}}`),
			want: []any{"nightly", "@daily", "<none>", "False", int64(0), "<none>", "5m", "n", "", "<none>"},
		},
	})
}
