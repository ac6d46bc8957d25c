// Package scheduling holds the strategy of scheduling.k8s.io/v1 PriorityClasses, on the model
// of kubernetes pkg/registry/scheduling/priorityclass and pkg/apis/scheduling:
//
//  1. A PriorityClass starts at generation 1, which never moves; its value and preemption
//     policy are immutable.
//  2. Names starting with "system-" are reserved: only the two system classes, with their
//     exact values, may use them, and those two can never be deleted. A fresh server
//     creates them (Bootstrap).
//  3. A user-defined class may not be worth more than 1000000000.
//  4. At most one class is the global default: the Priority admission plugin refuses a
//     second one.
package scheduling

import "github.com/informer-lab/informer-lab/api"

// Group is the scheduling.k8s.io API group.
const Group = "scheduling.k8s.io"

func gvk(kind string) api.GroupVersionKind {
	return api.GroupVersionKind{Group: Group, Version: "v1", Kind: kind}
}
