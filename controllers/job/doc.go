// Package job is the simulated cluster's Job controller. It mirrors
// k8s.io/kubernetes pkg/controller/job (job_controller.go, backoff_utils.go,
// indexed_job_utils.go, pod_failure_policy.go, tracking_utils.go) as of v1.36, where
// JobPodReplacementPolicy, JobManagedBy and JobSuccessPolicy are GA.
//
// The contract:
//
//  1. A Job runs min(parallelism, completions - succeeded) pods (parallelism alone when
//     completions is unset, until one pod succeeds). Each pod is made from the template
//     with the batch.kubernetes.io/job-tracking finalizer; the server's Job defaulting has
//     already put the job-name and controller-uid labels (plain and batch.kubernetes.io/)
//     and the selector on the template. Indexed Jobs give each pod the lowest pending index
//     in the batch.kubernetes.io/job-completion-index annotation and label, the hostname
//     <job>-<index>, the generated name <job>-<index>- and JOB_COMPLETION_INDEX.
//  2. A finished pod is counted in three writes, as upstream counts it: its UID goes to
//     status.uncountedTerminatedPods, then its finalizer is removed, then the UID becomes
//     a count (succeeded, failed; completedIndexes for Indexed Jobs). Expectations keep a
//     pod the informer has not caught up with from being created, deleted or counted twice.
//  3. After a failure, new pods wait 10 s, doubling with each failure since the last
//     success, up to 6 min. More failures than backoffLimit, or more time since startTime
//     than activeDeadlineSeconds, fail the Job: FailureTarget first (reason
//     BackoffLimitExceeded or DeadlineExceeded), its active pods deleted, then Failed once
//     none is left terminating. Reaching completions writes SuccessCriteriaMet, then
//     Complete with completionTime. A FailJob rule of podFailurePolicy fails the Job with
//     reason PodFailurePolicy; an Ignore rule does not count the failure.
//  4. A suspended Job has no pods (they are deleted without being counted), condition
//     Suspended True and no startTime; resuming sets Suspended False and a new startTime.
//  5. Events: SuccessfulCreate, SuccessfulDelete, FailedCreate, FailedDelete, Completed,
//     Suspended, Resumed and the failure reasons, with upstream's messages.
//
// Left out: pod adoption and release (a pod is the Job's when its controller reference
// says so), backoffLimitPerIndex and maxFailedIndexes, successPolicy, the Workload and
// PodGroup of gang scheduling, and metrics.
package job
