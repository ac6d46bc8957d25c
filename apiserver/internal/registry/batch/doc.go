// Package batch holds the strategies of the batch/v1 kinds, one file per kind, on the model
// of kubernetes pkg/registry/batch/<kind>/strategy.go:
//
//  1. Jobs and CronJobs have the status subresource, keep their generation and start with
//     an empty status.
//  2. Their pod template needs containers and a restart policy of OnFailure or Never.
package batch

import (
	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// templateStrategy checks the Job pod template at template.
type templateStrategy struct {
	rest.Base
	template string
}

// Validate implements rest.Strategy: ValidateJobSpec's template checks, then presence.
func (s templateStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	return rest.RequiredCauses(s.GVK, obj, validation.JobTemplateCauses(obj.Object, s.template), s.template)
}

func templated(kind, template string) templateStrategy {
	return templateStrategy{rest.Base{GVK: api.GroupVersionKind{Group: "batch", Version: "v1", Kind: kind},
		Status: true, Generation: true, Unconditional: true, ResetStatus: rest.EmptyStatus}, template}
}
