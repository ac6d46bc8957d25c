package defaulting

// maxInt32 is the backoff limit of a job with a per-index limit: in effect, none.
const maxInt32 = int64(1<<31 - 1)

// defaultJob mirrors SetObjectDefaults_Job in pkg/apis/batch/v1: SetDefaults_Job, the pod
// failure policy's patterns, then the template's pod spec. JobPodReplacementPolicy is GA
// and locked on in v1.36, so podReplacementPolicy is always defaulted.
func defaultJob(obj map[string]any) {
	spec := ensure(obj, "spec")
	if spec == nil {
		return
	}
	defaultJobSpec(spec)
	if labels, ok := path(spec, "template", "metadata")["labels"].(map[string]any); ok {
		if meta := ensure(obj, "metadata"); meta != nil && isEmptyObject(meta, "labels") {
			meta["labels"] = copyMap(labels)
		}
	}
	defaultTemplateSpec(spec)
}

// defaultJobSpec holds the spec half of SetDefaults_Job.
func defaultJobSpec(spec map[string]any) {
	if spec["completions"] == nil && spec["parallelism"] == nil {
		spec["completions"] = int64(1)
	}
	setPtr(spec, "parallelism", int64(1))
	if spec["backoffLimitPerIndex"] != nil {
		setPtr(spec, "backoffLimit", maxInt32)
	} else {
		setPtr(spec, "backoffLimit", int64(6))
	}
	setPtr(spec, "completionMode", "NonIndexed")
	setPtr(spec, "suspend", false)
	if spec["podFailurePolicy"] != nil {
		setPtr(spec, "podReplacementPolicy", "Failed")
	} else {
		setPtr(spec, "podReplacementPolicy", "TerminatingOrFailed")
	}
	setPtr(spec, "manualSelector", false)
	defaultPodFailurePolicy(spec)
}

// defaultPodFailurePolicy mirrors SetDefaults_PodFailurePolicyOnPodConditionsPattern.
func defaultPodFailurePolicy(spec map[string]any) {
	each(child(spec, "podFailurePolicy"), "rules", func(rule map[string]any) {
		each(rule, "onPodConditions", func(p map[string]any) { setString(p, "status", "True") })
	})
}

// defaultCronJob mirrors SetObjectDefaults_CronJob. The job template gets the pod failure
// pattern and pod spec defaults but not SetDefaults_Job: the Job made from it is defaulted
// when it is created.
func defaultCronJob(obj map[string]any) {
	spec := ensure(obj, "spec")
	if spec == nil {
		return
	}
	setString(spec, "concurrencyPolicy", "Allow")
	setPtr(spec, "suspend", false)
	setPtr(spec, "successfulJobsHistoryLimit", int64(3))
	setPtr(spec, "failedJobsHistoryLimit", int64(1))
	if jspec := path(spec, "jobTemplate", "spec"); jspec != nil {
		defaultPodFailurePolicy(jspec)
		defaultTemplateSpec(jspec)
	}
}
