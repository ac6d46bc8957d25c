package admission

import (
	"context"
	"fmt"
	"reflect"
	"regexp"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

// The namespace labels of Pod Security Admission.
const psaPrefix = "pod-security.kubernetes.io/"

// PodSecurity mirrors the PodSecurity plugin (k8s.io/pod-security-admission with
// kube-apiserver's default configuration: privileged:latest everywhere, no exemptions):
// a namespace's enforce label refuses pods that break its level, its warn label (which
// follows enforce when unset) sends Warning headers for pods and pod templates, and bad
// label values are refused on the namespace. Every version is checked with the newest
// checks; audit annotations are not kept.
type PodSecurity struct{}

// Name implements Interface.
func (PodSecurity) Name() string { return "PodSecurity" }

// Handles implements Interface.
func (PodSecurity) Handles(op Operation) bool { return op == Create || op == Update }

// levelVersion is api.LevelVersion.
type levelVersion struct{ level, version string }

func (l levelVersion) String() string { return l.level + ":" + l.version }

var psaLevels = map[string]int{"privileged": 0, "baseline": 1, "restricted": 2}
var psaVersion = regexp.MustCompile(`^v1\.(0|[1-9][0-9]*)$`)

// psaPolicy mirrors api.PolicyToEvaluate: the enforce, audit and warn levels, and the
// labels' errors.
func psaPolicy(labels map[string]string) (enforce, audit, warn levelVersion, causes []api.StatusCause) {
	enforce, audit, warn = levelVersion{"privileged", "latest"}, levelVersion{"privileged", "latest"}, levelVersion{"privileged", "latest"}
	bad := func(key, value, msg string) {
		causes = append(causes, api.StatusCause{Type: api.CauseTypeFieldValueInvalid, Field: "metadata.labels[" + psaPrefix + key + "]",
			Message: fmt.Sprintf("Invalid value: %q: %s", value, msg)})
	}
	level := func(key string, into *levelVersion, failOpen bool) bool {
		v, ok := labels[psaPrefix+key]
		if !ok {
			return false
		}
		if _, valid := psaLevels[v]; !valid {
			bad(key, v, "must be one of privileged, baseline, restricted")
			into.level = "restricted"
			if failOpen {
				into.level = "privileged"
			}
			return false
		}
		into.level = v
		return true
	}
	version := func(key string, into *levelVersion) bool {
		v, ok := labels[psaPrefix+key+"-version"]
		if !ok {
			return false
		}
		if v != "latest" && !psaVersion.MatchString(v) {
			bad(key+"-version", v, `must be "latest" or "v1.x"`)
			v = "latest"
		}
		into.version = v
		return true
	}
	hasEnforce := level("enforce", &enforce, false)
	version("enforce", &enforce)
	level("audit", &audit, true)
	version("audit", &audit)
	_, hasWarn := labels[psaPrefix+"warn"]
	level("warn", &warn, true)
	hasWarnVersion := version("warn", &warn)
	if !hasWarn && hasEnforce && psaLevels[enforce.level] > psaLevels[warn.level] {
		warn.level = enforce.level
		if !hasWarnVersion {
			warn.version = enforce.version
		}
	}
	return enforce, audit, warn, causes
}

// ignoredPodSubresources are the pod subresources the plugin lets through.
var ignoredPodSubresources = map[string]bool{"exec": true, "attach": true, "binding": true, "eviction": true,
	"log": true, "portforward": true, "proxy": true, "status": true}

// Validate implements ValidationInterface.
func (PodSecurity) Validate(ctx context.Context, a *Attributes) error {
	if a.Object == nil {
		return nil
	}
	switch {
	case a.Resource == api.GroupResource{Resource: "namespaces"}:
		if err := psaNamespace(a); err != nil {
			return err
		}
		rest.AddWarnings(ctx, psaExistingPods(a)...)
	case a.Resource == api.GroupResource{Resource: "pods"}:
		if ignoredPodSubresources[a.Subresource] || a.Namespaces == nil {
			return nil
		}
		if a.Operation == Update && !significantPodUpdate(a.Object.Object, a.OldObject.Object) {
			return nil
		}
		ns := a.Namespaces(a.Namespace)
		if ns == nil {
			return nil
		}
		enforce, _, warn, _ := psaPolicy(ns.GetLabels())
		spec := child(a.Object.Object, "spec")
		if detail := psaEvaluate(enforce, spec); detail != "" {
			return api.NewForbidden(a.Resource, a.Name, fmt.Errorf("violates PodSecurity %q: %s", enforce.String(), detail))
		}
		if detail := psaEvaluate(warn, spec); detail != "" {
			rest.AddWarnings(ctx, fmt.Sprintf("would violate PodSecurity %q: %s", warn.String(), detail))
		}
	default:
		tmpl := podTemplateOf(a)
		if tmpl == nil || a.Subresource != "" || a.Namespaces == nil {
			return nil
		}
		ns := a.Namespaces(a.Namespace)
		if ns == nil {
			return nil
		}
		_, _, warn, _ := psaPolicy(ns.GetLabels())
		if detail := psaEvaluate(warn, child(tmpl, "spec")); detail != "" {
			rest.AddWarnings(ctx, fmt.Sprintf("would violate PodSecurity %q: %s", warn.String(), detail))
		}
	}
	return nil
}

// psaNamespace mirrors ValidateNamespace's label check: bad values are a 422 on create,
// and on an update that brings new errors.
func psaNamespace(a *Attributes) error {
	if a.Subresource != "" {
		return nil
	}
	_, _, _, causes := psaPolicy(a.Object.GetLabels())
	if len(causes) == 0 {
		return nil
	}
	if a.Operation == Update && a.OldObject != nil {
		_, _, _, old := psaPolicy(a.OldObject.GetLabels())
		if len(old) > 0 && reflect.DeepEqual(old, causes) {
			return nil
		}
	}
	return api.NewInvalid(api.GroupKind{Kind: "Namespace"}, a.Name, causes)
}

// podTemplateOf mirrors the default PodSpecExtractor: the pod template of the workload
// kinds.
func podTemplateOf(a *Attributes) map[string]any {
	spec := child(a.Object.Object, "spec")
	switch a.Resource {
	case api.GroupResource{Group: "apps", Resource: "deployments"}, api.GroupResource{Group: "apps", Resource: "replicasets"},
		api.GroupResource{Group: "apps", Resource: "statefulsets"}, api.GroupResource{Group: "apps", Resource: "daemonsets"},
		api.GroupResource{Group: "batch", Resource: "jobs"}, api.GroupResource{Resource: "replicationcontrollers"}:
		return child(spec, "template")
	case api.GroupResource{Group: "batch", Resource: "cronjobs"}:
		return child(child(child(spec, "jobTemplate"), "spec"), "template")
	case api.GroupResource{Resource: "podtemplates"}:
		return child(a.Object.Object, "template")
	}
	return nil
}

// significantPodUpdate is a simplified isSignificantPodUpdate: an update counts when a
// container list's length or a container's security context changes.
func significantPodUpdate(pod, old map[string]any) bool {
	ps, os := child(pod, "spec"), child(old, "spec")
	for _, key := range containerKinds {
		a, b := items(ps, key), items(os, key)
		if len(a) != len(b) {
			return true
		}
		for i := range a {
			if !reflect.DeepEqual(a[i]["securityContext"], b[i]["securityContext"]) {
				return true
			}
		}
	}
	return !reflect.DeepEqual(ps["securityContext"], os["securityContext"])
}
