package batch

import "github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"

// CronJobs is the cronjobs resource (pkg/registry/batch/cronjob).
func CronJobs() rest.Kind {
	return rest.Kind{Group: "batch", Resource: "cronjobs", Kind: "CronJob", ShortNames: []string{"cj"}, Categories: []string{"all"},
		Strategy: templated("CronJob", "spec.jobTemplate.spec.template")}
}
