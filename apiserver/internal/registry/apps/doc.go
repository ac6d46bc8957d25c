// Package apps holds the strategies of the apps/v1 kinds, one file per kind, on the model of
// kubernetes pkg/registry/apps/<kind>/strategy.go:
//
//  1. Every kind has the status subresource and keeps its generation; Deployments,
//     ReplicaSets and StatefulSets also serve scale.
//  2. A new object's status is reset, written out as the real server serialises it.
//  3. A selector is required and must select the template's labels, and the template needs
//     a pod spec with containers (workload.go).
//  4. A Deployment's generation also moves when its annotations change.
//  5. A ControllerRevision has neither status nor generation; its data is required and
//     immutable, its revision number is not.
package apps

import (
	"slices"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

func gvk(kind string) api.GroupVersionKind {
	return api.GroupVersionKind{Group: "apps", Version: "v1", Kind: kind}
}

// workloadStrategy is what the four workload strategies share: the selector and template
// checks of ValidateDeploymentSpec and its siblings.
type workloadStrategy struct{ rest.Base }

// Validate implements rest.Strategy: the kind's spec rules, then the schema's required
// members the rules did not name.
func (s workloadStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	own := validation.WorkloadCauses(s.GVK.Kind, obj.Object)
	causes := rest.RequiredCauses(s.GVK, obj, own, "spec.template")
	if s.GVK.Kind == "StatefulSet" {
		// The rules check the pod volumes merged with the claims, whose indexes differ from
		// the schema's: the schema's causes about volumes are left out.
		causes = slices.DeleteFunc(causes[len(own):], func(c api.StatusCause) bool {
			return strings.HasPrefix(c.Field, "spec.template.spec.volumes[")
		})
		causes = append(own, causes...)
	}
	if s.GVK.Kind == "DaemonSet" {
		// ValidateDaemonSetSpec does not require a selector: a missing one selects nothing.
		causes = slices.DeleteFunc(causes, func(c api.StatusCause) bool {
			return c.Field == "spec.selector" && c.Type == api.CauseTypeFieldValueRequired
		})
	}
	return causes
}

func workload(kind string, scale bool, reset func() map[string]any) workloadStrategy {
	return workloadStrategy{rest.Base{GVK: gvk(kind), Status: true, Scale: scale, Generation: true, Unconditional: true, ResetStatus: reset}}
}
