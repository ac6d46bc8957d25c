package apiserver

import "github.com/informer-lab/informer-lab/api"

// jobDeleteOrphanWarning is the warning of the batch/v1 Job's Delete and DeleteCollection
// (pkg/registry/batch/job/storage): batch/v1 orphans a Job's pods by default.
const jobDeleteOrphanWarning = "child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning"

// jobDeleteWarning mirrors the check of the Job REST's Delete: a delete of a batch/v1 Job
// that names no propagation policy is warned that its pods stay.
func jobDeleteWarning(res *resource, opts api.DeleteOptions) []string {
	if !res.Builtin || res.Info.Group != "batch" || res.Info.Kind != "Job" || opts.PropagationPolicy != nil || opts.OrphanDependents != nil {
		return nil
	}
	return []string{jobDeleteOrphanWarning}
}
