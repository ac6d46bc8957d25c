package apps

import "github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"

// StatefulSets is the statefulsets resource (pkg/registry/apps/statefulset).
func StatefulSets() rest.Kind {
	return rest.Kind{Group: "apps", Resource: "statefulsets", Kind: "StatefulSet", ShortNames: []string{"sts"}, Categories: []string{"all"},
		Strategy: workload("StatefulSet", true, rest.ZeroStatus("replicas", "availableReplicas"))}
}
