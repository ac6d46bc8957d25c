package apps

import "github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"

// DaemonSets is the daemonsets resource (pkg/registry/apps/daemonset).
func DaemonSets() rest.Kind {
	return rest.Kind{Group: "apps", Resource: "daemonsets", Kind: "DaemonSet", ShortNames: []string{"ds"}, Categories: []string{"all"},
		Strategy: daemonSetStrategy{workload("DaemonSet", false, rest.ZeroStatus("currentNumberScheduled", "numberMisscheduled", "desiredNumberScheduled", "numberReady"))}}
}
