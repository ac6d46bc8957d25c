package printers

import (
	"strconv"
	"time"

	"github.com/informer-lab/informer-lab/api"
)

var (
	jobPrinter = &Printer{
		specs: []col{
			nameColumn(),
			column("Status", "string", text("Status of the job.")),
			column("Completions", "string", doc(batchV1+"JobStatus", "succeeded")),
			column("Duration", "string", text("Time required to complete the job.")),
			ageColumn(),
			wide("Containers", "string", containersDescription),
			wide("Images", "string", imagesDescription),
			wide("Selector", "string", doc(batchV1+"JobSpec", "selector")),
		},
		cells: jobCells,
	}

	cronJobPrinter = &Printer{
		specs: []col{
			nameColumn(),
			column("Schedule", "string", doc(batchV1+"CronJobSpec", "schedule")),
			column("Timezone", "string", doc(batchV1+"CronJobSpec", "timeZone")),
			column("Suspend", "boolean", doc(batchV1+"CronJobSpec", "suspend")),
			column("Active", "integer", doc(batchV1+"CronJobStatus", "active")),
			column("Last Schedule", "string", doc(batchV1+"CronJobStatus", "lastScheduleTime")),
			ageColumn(),
			wide("Containers", "string", containersDescription),
			wide("Images", "string", imagesDescription),
			wide("Selector", "string", doc(batchV1+"JobSpec", "selector")),
		},
		cells: cronJobCells,
	}
)

// jobCells mirrors printJob.
func jobCells(o object, now time.Time) ([]any, []api.TableRowCondition) {
	spec, status := o.obj("spec"), o.obj("status")
	succeeded := strconv.FormatInt(status.int("succeeded"), 10)
	var completions string
	switch n, set := spec.integer("completions"); {
	case set:
		completions = succeeded + "/" + strconv.FormatInt(n, 10)
	case spec.int("parallelism") > 1:
		completions = succeeded + "/1 of " + strconv.FormatInt(spec.int("parallelism"), 10)
	default:
		completions = succeeded + "/1"
	}

	var duration string
	start, started := status.time("startTime")
	if started {
		end, done := status.time("completionTime")
		if !done {
			end = now
		}
		duration = humanDuration(end.Sub(start))
	}

	conditions := status.objects("conditions")
	var state string
	switch {
	case conditionTrue(conditions, "Complete"):
		state = "Complete"
	case conditionTrue(conditions, "Failed"):
		state = "Failed"
	case o.deleting():
		state = "Terminating"
	case conditionTrue(conditions, "Suspended"):
		state = "Suspended"
	case conditionTrue(conditions, "FailureTarget"):
		state = "FailureTarget"
	case conditionTrue(conditions, "SuccessCriteriaMet"):
		state = "SuccessCriteriaMet"
	default:
		state = "Running"
	}

	names, images := containerCells(spec.obj("template"))
	return []any{o.name(), state, completions, duration, age(o, now), names, images, formatLabelSelector(spec.obj("selector"))}, nil
}

// cronJobCells mirrors printCronJob. A missing suspend reads as false, the batch/v1 default.
func cronJobCells(o object, now time.Time) ([]any, []api.TableRowCondition) {
	spec, status := o.obj("spec"), o.obj("status")
	timeZone := "<none>"
	if spec.has("timeZone") {
		timeZone = spec.str("timeZone")
	}
	// printBoolPtr; an unset suspend is false (batch/v1 default), so "<unset>" never shows.
	suspend := "False"
	if b, _ := spec.boolean("suspend"); b {
		suspend = "True"
	}
	last := "<none>"
	if status.has("lastScheduleTime") {
		last = status.since(now, "lastScheduleTime")
	}
	jobSpec := spec.obj("jobTemplate", "spec")
	names, images := containerCells(jobSpec.obj("template"))
	return []any{
		o.name(), spec.str("schedule"), timeZone, suspend, int64(len(status.list("active"))),
		last, age(o, now), names, images, formatLabelSelector(jobSpec.obj("selector")),
	}, nil
}
