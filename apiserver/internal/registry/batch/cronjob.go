package batch

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
	"github.com/informer-lab/informer-lab/internal/cron"
)

// cronJobStrategy mirrors pkg/registry/batch/cronjob/strategy.go: the job template's
// checks, with the schedule and time zone checks of validateCronJobSpec before them.
type cronJobStrategy struct{ templateStrategy }

// CronJobs is the cronjobs resource (pkg/registry/batch/cronjob).
func CronJobs() rest.Kind {
	return rest.Kind{Group: "batch", Resource: "cronjobs", Kind: "CronJob", ShortNames: []string{"cj"}, Categories: []string{"all"},
		Strategy: cronJobStrategy{templated("CronJob", "spec.jobTemplate.spec.template")}}
}

// Validate implements rest.Strategy: ValidateCronJobCreate's spec checks, then the name's
// length, which leaves room for the 11 characters of the Jobs' suffix.
func (s cronJobStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	causes := s.causes(obj, nil)
	if name := obj.GetName(); len(name) > 52 {
		causes = append(causes, validation.Invalid("metadata.name", name, "must be no more than 52 characters"))
	}
	return causes
}

// causes mirrors validateCronJobSpec's order: schedule, startingDeadlineSeconds, timeZone,
// concurrencyPolicy, the job template, then the history limits.
func (s cronJobStrategy) causes(obj, old *api.Unstructured) []api.StatusCause {
	causes := cronJobSpecCauses(obj, old)
	for _, c := range s.templateStrategy.Validate(obj) {
		if c.Field == "spec.schedule" && slices.ContainsFunc(causes, func(d api.StatusCause) bool { return d.Field == c.Field }) {
			continue // schedule's Required value comes first, as upstream reports it
		}
		causes = append(causes, c)
	}
	spec, _ := obj.Object["spec"].(map[string]any)
	for _, f := range []string{"successfulJobsHistoryLimit", "failedJobsHistoryLimit"} {
		if n, ok := spec[f].(int64); ok && n < 0 {
			causes = append(causes, validation.Invalid("spec."+f, n, "must be greater than or equal to 0"))
		}
	}
	return causes
}

// OwnUpdateRules implements rest.OwnUpdateRules: an update has its own schedule rules (a
// TZ the stored schedule already had is allowed; an unchanged time zone is not checked).
func (cronJobStrategy) OwnUpdateRules() {}

// ValidateUpdate implements rest.Strategy: ValidateCronJobUpdate's spec checks.
func (s cronJobStrategy) ValidateUpdate(obj, old *api.Unstructured) []api.StatusCause {
	return s.causes(obj, old)
}

// cronJobSpecCauses mirrors validateCronJobSpec up to the job template; old is nil on
// create.
func cronJobSpecCauses(obj, old *api.Unstructured) []api.StatusCause {
	spec, _ := obj.Object["spec"].(map[string]any)
	var causes []api.StatusCause
	schedule, _ := spec["schedule"].(string)
	tz, hasTZ := spec["timeZone"].(string)
	var oldSpec map[string]any
	if old != nil {
		oldSpec, _ = old.Object["spec"].(map[string]any)
	}
	if schedule == "" {
		causes = append(causes, validation.Required("spec.schedule", ""))
	} else {
		oldSchedule, _ := oldSpec["schedule"].(string)
		causes = append(causes, scheduleFormatCauses(schedule, strings.Contains(oldSchedule, "TZ"), hasTZ)...)
	}
	if n, ok := spec["startingDeadlineSeconds"].(int64); ok && n < 0 {
		causes = append(causes, validation.Invalid("spec.startingDeadlineSeconds", n, "must be greater than or equal to 0"))
	}
	oldTZ, oldHasTZ := oldSpec["timeZone"].(string)
	if hasTZ && (old == nil || !oldHasTZ || oldTZ != tz) {
		causes = append(causes, timeZoneCauses(tz)...)
	}
	// Defaulting has made an absent or empty policy Allow.
	switch cp, _ := spec["concurrencyPolicy"].(string); cp {
	case "Allow", "Forbid", "Replace", "":
	default:
		causes = append(causes, validation.NotSupported("spec.concurrencyPolicy", cp, []string{"Allow", "Forbid", "Replace"}))
	}
	return causes
}

// scheduleFormatCauses mirrors validateScheduleFormat: the schedule must parse, and TZ or
// CRON_TZ in it is refused unless the stored schedule already had one.
func scheduleFormatCauses(schedule string, allowTZ, hasTimeZone bool) []api.StatusCause {
	const path = "spec.schedule"
	var causes []api.StatusCause
	if _, err := cron.ParseStandard(schedule); err != nil {
		causes = append(causes, validation.Invalid(path, schedule, err.Error()))
	}
	switch {
	case allowTZ && strings.Contains(schedule, "TZ") && hasTimeZone:
		causes = append(causes, validation.Invalid(path, schedule, "cannot use both timeZone field and TZ or CRON_TZ in schedule"))
	case !allowTZ && strings.Contains(schedule, "TZ"):
		causes = append(causes, validation.Invalid(path, schedule, "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"))
	}
	return causes
}

var validTimeZoneCharacters = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z\.\-_0-9+]{1,14}$`) })

// timeZoneCauses mirrors validateTimeZone: a non-empty IANA name the process can load,
// not "Local", made of safe path parts.
func timeZoneCauses(tz string) []api.StatusCause {
	const path = "spec.timeZone"
	if tz == "" {
		return []api.StatusCause{validation.Invalid(path, tz, "timeZone must be nil or non-empty string")}
	}
	for _, part := range strings.Split(tz, "/") {
		if part == "." || part == ".." || strings.HasPrefix(part, "-") || !validTimeZoneCharacters().MatchString(part) {
			return []api.StatusCause{validation.Invalid(path, tz, fmt.Sprintf("unknown time zone %s", tz))}
		}
	}
	var causes []api.StatusCause
	if strings.EqualFold(tz, "Local") {
		causes = append(causes, validation.Invalid(path, tz, "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones"))
	}
	if _, err := time.LoadLocation(tz); err != nil {
		causes = append(causes, validation.Invalid(path, tz, err.Error()))
	}
	return causes
}

// Canonicalize implements rest.Strategy: the job template's metadata and its pod
// template's are structs, not pointers, in the Go types, so the real server always writes
// them out, {} when empty.
func (cronJobStrategy) Canonicalize(obj *api.Unstructured) {
	rest.EnsureMember(obj.Object, map[string]any{}, "spec", "jobTemplate", "metadata")
	rest.EnsureMember(obj.Object, map[string]any{}, "spec", "jobTemplate", "spec", "template", "metadata")
}
