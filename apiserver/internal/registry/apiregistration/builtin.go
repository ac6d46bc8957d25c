package apiregistration

import (
	"time"

	"github.com/informer-lab/informer-lab/api"
)

// The automanaged label: "onstart" for the built-in group-versions registered once at
// start-up, "true" for those kept in step with the CRDs.
const (
	automanagedKey     = "kube-aggregator.kubernetes.io/automanaged"
	automanagedOnStart = "onstart"
	automanagedSynced  = "true"
)

// builtinPriority is one built-in group-version's place, as kube-apiserver's
// apiVersionPriorities give it (pkg/controlplane/apiserver/aggregator.go).
type builtinPriority struct {
	group, version         string
	groupMinimum, priority int64
}

// builtinPriorities lists the group-versions a default v1.36 kube-apiserver serves, by
// APIService name. The aggregator's own group, apiregistration.k8s.io, has none.
var builtinPriorities = []builtinPriority{
	{"", "v1", 18000, 1},
	{"admissionregistration.k8s.io", "v1", 16700, 15},
	{"apiextensions.k8s.io", "v1", 16700, 15},
	{"apps", "v1", 17800, 15},
	{"authentication.k8s.io", "v1", 17700, 15},
	{"authorization.k8s.io", "v1", 17600, 15},
	{"autoscaling", "v1", 17500, 15},
	{"batch", "v1", 17400, 15},
	{"certificates.k8s.io", "v1", 17300, 15},
	{"coordination.k8s.io", "v1", 16500, 15},
	{"discovery.k8s.io", "v1", 16200, 15},
	{"events.k8s.io", "v1", 17750, 15},
	{"flowcontrol.apiserver.k8s.io", "v1", 16100, 21},
	{"networking.k8s.io", "v1", 17200, 15},
	{"node.k8s.io", "v1", 16300, 15},
	{"policy", "v1", 17100, 15},
	{"rbac.authorization.k8s.io", "v1", 17000, 15},
	{"resource.k8s.io", "v1", 16200, 21},
	{"scheduling.k8s.io", "v1", 16600, 15},
	{"storage.k8s.io", "v1", 16800, 15},
	{"autoscaling", "v2", 17500, 30},
}

// Builtin returns the APIServices a fresh kube-apiserver v1.36 registers for its own
// group-versions (the autoregister controller's onstart set), sorted by name, each local
// and Available as the strategy makes it on create.
func Builtin() []map[string]any {
	stamp := time.Now().UTC().Truncate(time.Second)
	out := make([]map[string]any, 0, len(builtinPriorities))
	for _, b := range builtinPriorities {
		out = append(out, apiService(b.group, b.version, b.groupMinimum, b.priority, automanagedOnStart, stamp))
	}
	return out
}

// ForCRD returns the APIServices the crd-autoregister controller keeps for a CRD's group
// and its served versions: CRDs rank below every built-in group (1000) and their versions
// are ordered by name alone (100). now stamps the Available condition.
func ForCRD(group string, servedVersions []string, now time.Time) []map[string]any {
	out := make([]map[string]any, 0, len(servedVersions))
	for _, v := range servedVersions {
		out = append(out, apiService(group, v, 1000, 100, automanagedSynced, now))
	}
	return out
}

// Name is the name of the APIService of a group-version: version.group ("v1." for core).
func Name(group, version string) string { return version + "." + group }

// IsCRDManaged reports whether obj is an APIService the crd-autoregister controller keeps.
func IsCRDManaged(obj *api.Unstructured) bool {
	return obj.GetLabels()[automanagedKey] == automanagedSynced
}

func apiService(group, version string, groupMinimum, priority int64, managed string, now time.Time) map[string]any {
	spec := map[string]any{"version": version, "groupPriorityMinimum": groupMinimum, "versionPriority": priority}
	if group != "" {
		spec["group"] = group
	}
	return map[string]any{
		"apiVersion": Group + "/v1", "kind": "APIService",
		"metadata": map[string]any{"name": Name(group, version), "labels": map[string]any{automanagedKey: managed}},
		"spec":     spec,
		"status":   map[string]any{"conditions": []any{localAvailable(now)}},
	}
}
