package job

import (
	"encoding/json"
	"slices"
	"strconv"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
)

// The well-known names of pkg/apis/batch (k8s.io/api/batch/v1 types.go).
const (
	// JobTrackingFinalizer keeps a finished pod until the controller has counted it.
	JobTrackingFinalizer = "batch.kubernetes.io/job-tracking"
	// JobCompletionIndexAnnotation (and label) carries an Indexed Job pod's index.
	JobCompletionIndexAnnotation = "batch.kubernetes.io/job-completion-index"
	completionIndexEnvName       = "JOB_COMPLETION_INDEX"
	// ControllerName is the job's spec.managedBy value this controller owns.
	ControllerName = "kubernetes.io/job-controller"

	indexedCompletion    = "Indexed"
	nonIndexedCompletion = "NonIndexed"

	// Condition types and reasons of batch/v1.
	condSuspended          = "Suspended"
	condComplete           = "Complete"
	condFailed             = "Failed"
	condFailureTarget      = "FailureTarget"
	condSuccessCriteriaMet = "SuccessCriteriaMet"

	reasonBackoffLimitExceeded = "BackoffLimitExceeded"
	reasonDeadlineExceeded     = "DeadlineExceeded"
	reasonCompletionsReached   = "CompletionsReached"
	reasonPodFailurePolicy     = "PodFailurePolicy"

	unknownCompletionIndex = -1
)

// jobSpec is the part of batch/v1 JobSpec the controller reads.
type jobSpec struct {
	Parallelism           *int32             `json:"parallelism,omitempty"`
	Completions           *int32             `json:"completions,omitempty"`
	ActiveDeadlineSeconds *int64             `json:"activeDeadlineSeconds,omitempty"`
	BackoffLimit          *int32             `json:"backoffLimit,omitempty"`
	CompletionMode        *string            `json:"completionMode,omitempty"`
	Suspend               *bool              `json:"suspend,omitempty"`
	PodReplacementPolicy  *string            `json:"podReplacementPolicy,omitempty"`
	PodFailurePolicy      *podFailurePolicy  `json:"podFailurePolicy,omitempty"`
	ManagedBy             *string            `json:"managedBy,omitempty"`
	Selector              *app.LabelSelector `json:"selector,omitempty"`
	Template              struct {
		Spec struct {
			RestartPolicy string `json:"restartPolicy,omitempty"`
		} `json:"spec"`
	} `json:"template"`
	TTLSecondsAfterFinished *int32 `json:"ttlSecondsAfterFinished,omitempty"`
}

// jobCondition is batch/v1 JobCondition.
type jobCondition struct {
	Type               string   `json:"type"`
	Status             string   `json:"status"`
	LastProbeTime      api.Time `json:"lastProbeTime,omitempty"`
	LastTransitionTime api.Time `json:"lastTransitionTime,omitempty"`
	Reason             string   `json:"reason,omitempty"`
	Message            string   `json:"message,omitempty"`
}

// uncountedTerminatedPods is batch/v1 UncountedTerminatedPods.
type uncountedTerminatedPods struct {
	Succeeded []string `json:"succeeded,omitempty"`
	Failed    []string `json:"failed,omitempty"`
}

// jobStatus is batch/v1 JobStatus.
type jobStatus struct {
	Conditions              []jobCondition           `json:"conditions,omitempty"`
	StartTime               *api.Time                `json:"startTime,omitempty"`
	CompletionTime          *api.Time                `json:"completionTime,omitempty"`
	Active                  int32                    `json:"active,omitempty"`
	Succeeded               int32                    `json:"succeeded,omitempty"`
	Failed                  int32                    `json:"failed,omitempty"`
	Terminating             *int32                   `json:"terminating,omitempty"`
	CompletedIndexes        string                   `json:"completedIndexes,omitempty"`
	FailedIndexes           *string                  `json:"failedIndexes,omitempty"`
	UncountedTerminatedPods *uncountedTerminatedPods `json:"uncountedTerminatedPods,omitempty"`
	Ready                   *int32                   `json:"ready,omitempty"`
}

// job is a Job read from the cache: the object as the server sent it, with typed views of
// its spec and status. Writes start from obj, so no field the views leave out is lost.
type job struct {
	obj    *api.Unstructured
	Spec   jobSpec   `json:"spec"`
	Status jobStatus `json:"status"`
}

func newJob(u *api.Unstructured) (*job, error) {
	j, err := app.FromUnstructured[job](u)
	if err != nil {
		return nil, err
	}
	j.obj = u.DeepCopy()
	return j, nil
}

func (j *job) key() string       { return j.obj.GetNamespace() + "/" + j.obj.GetName() }
func (j *job) name() string      { return j.obj.GetName() }
func (j *job) namespace() string { return j.obj.GetNamespace() }
func (j *job) uid() string       { return j.obj.GetUID() }

// withStatus returns the object with the typed status written into it.
func (j *job) withStatus() (*api.Unstructured, error) {
	b, err := json.Marshal(j.Status)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	u := j.obj.DeepCopy()
	u.Object["status"] = m
	return u, nil
}

func (j *job) isIndexed() bool {
	return j.Spec.CompletionMode != nil && *j.Spec.CompletionMode == indexedCompletion
}

func (j *job) suspended() bool { return j.Spec.Suspend != nil && *j.Spec.Suspend }

func (j *job) completions() int32 {
	if j.Spec.Completions == nil {
		return 0
	}
	return *j.Spec.Completions
}

// onlyReplaceFailedPods mirrors onlyReplaceFailedPods (JobPodReplacementPolicy is GA).
func (j *job) onlyReplaceFailedPods() bool {
	return (j.Spec.PodReplacementPolicy != nil && *j.Spec.PodReplacementPolicy == "Failed") || j.Spec.PodFailurePolicy != nil
}

// findCondition mirrors findConditionByType.
func findCondition(list []jobCondition, t string) *jobCondition {
	for i := range list {
		if list[i].Type == t {
			return &list[i]
		}
	}
	return nil
}

// isJobFinished mirrors util.IsJobFinished: Complete or Failed is True.
func isJobFinished(st *jobStatus) bool {
	for _, c := range st.Conditions {
		if (c.Type == condComplete || c.Type == condFailed) && c.Status == "True" {
			return true
		}
	}
	return false
}

// JobFinishTime mirrors jobutil.JobFinishTime for the ttl-after-finished controller: the
// lastTransitionTime of the True Complete or Failed condition.
func JobFinishTime(u *api.Unstructured) (time.Time, bool) {
	j, err := app.FromUnstructured[job](u)
	if err != nil {
		return time.Time{}, false
	}
	for _, c := range j.Status.Conditions {
		if (c.Type == condComplete || c.Type == condFailed) && c.Status == "True" {
			return c.LastTransitionTime.Time, !c.LastTransitionTime.IsZero()
		}
	}
	return time.Time{}, false
}

// IsJobFinished mirrors util.IsJobFinished on an unstructured Job.
func IsJobFinished(u *api.Unstructured) bool {
	_, ok := JobFinishTime(u)
	if ok {
		return true
	}
	j, err := app.FromUnstructured[job](u)
	return err == nil && isJobFinished(&j.Status)
}

func newCondition(t, status, reason, message string, now time.Time) *jobCondition {
	return &jobCondition{Type: t, Status: status, LastProbeTime: api.NewTime(now), LastTransitionTime: api.NewTime(now), Reason: reason, Message: message}
}

// ensureJobConditionStatus mirrors ensureJobConditionStatus: set a condition, and say
// whether the list changed; a False condition is not added when absent.
func ensureJobConditionStatus(list []jobCondition, t, status, reason, message string, now time.Time) ([]jobCondition, bool) {
	if c := findCondition(list, t); c != nil {
		if c.Status != status || c.Reason != reason || c.Message != message {
			*c = *newCondition(t, status, reason, message, now)
			return list, true
		}
		return list, false
	}
	if status != "False" {
		return append(list, *newCondition(t, status, reason, message, now)), true
	}
	return list, false
}

// Pod helpers over the unstructured pods of the informer.

func hasJobTrackingFinalizer(p *api.Unstructured) bool {
	return slices.Contains(p.GetFinalizers(), JobTrackingFinalizer)
}

// getCompletionIndex mirrors getCompletionIndex: the annotation's index, or -1.
func getCompletionIndex(p *api.Unstructured) int {
	v, ok := p.GetAnnotations()[JobCompletionIndexAnnotation]
	if !ok {
		return unknownCompletionIndex
	}
	i, err := strconv.Atoi(v)
	if err != nil || i < 0 {
		return unknownCompletionIndex
	}
	return i
}

// isPodFailed mirrors isPodFailed: Failed, or (unless only failed pods are replaced) being
// deleted before it succeeded.
func isPodFailed(p *api.Unstructured, j *job) bool {
	if app.PodPhase(p) == "Failed" {
		return true
	}
	if j.onlyReplaceFailedPods() {
		return false
	}
	return p.GetDeletionTimestamp() != nil && app.PodPhase(p) != "Succeeded"
}

// isPodTerminating mirrors controller.IsPodTerminating: being deleted, not yet finished.
func isPodTerminating(p *api.Unstructured) bool {
	ph := app.PodPhase(p)
	return p.GetDeletionTimestamp() != nil && ph != "Failed" && ph != "Succeeded"
}

// containerStatuses returns status.containerStatuses (or another list of statuses).
func containerStatuses(p *api.Unstructured, field string) []map[string]any {
	v, _ := app.Nested(p.Object, "status", field)
	list, _ := v.([]any)
	out := make([]map[string]any, 0, len(list))
	for _, x := range list {
		if m, ok := x.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

func parseTime(v any) (time.Time, bool) {
	s, _ := v.(string)
	if s == "" {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339, s)
	return t, err == nil
}

// restartCount sums the restarts of the pod's containers and init containers.
func restartCount(p *api.Unstructured) int64 {
	var n int64
	for _, f := range []string{"initContainerStatuses", "containerStatuses"} {
		for _, cs := range containerStatuses(p, f) {
			c, _ := app.NestedInt64(cs, "restartCount")
			n += c
		}
	}
	return n
}
