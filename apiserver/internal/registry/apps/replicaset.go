package apps

import "github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"

// ReplicaSets is the replicasets resource (pkg/registry/apps/replicaset). Surprising: its
// strategy computes status.replicas for selectors, but apps/v1 registers no field-label
// conversion for ReplicaSet, so the request is refused (400) before that value is ever read.
// Only metadata.name and metadata.namespace work.
func ReplicaSets() rest.Kind {
	return rest.Kind{Group: "apps", Resource: "replicasets", Kind: "ReplicaSet", ShortNames: []string{"rs"}, Categories: []string{"all"},
		Strategy: workload("ReplicaSet", true, rest.ZeroStatus("replicas"))}
}
