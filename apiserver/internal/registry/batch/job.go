package batch

import "github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"

// Jobs is the jobs resource (pkg/registry/batch/job). The label says "successful"; the
// member it reads is status.succeeded.
func Jobs() rest.Kind {
	return rest.Kind{Group: "batch", Resource: "jobs", Kind: "Job", Categories: []string{"all"},
		Fields:   map[string]rest.FieldRead{"status.successful": rest.IntField("status.succeeded")},
		Strategy: templated("Job", "spec.template")}
}
