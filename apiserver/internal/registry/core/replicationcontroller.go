package core

import (
	"fmt"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// ReplicationControllers is the replicationcontrollers resource
// (pkg/registry/core/replicationcontroller): status and scale subresources, a generation
// that moves on spec changes, and the status.replicas field label.
func ReplicationControllers() rest.Kind {
	return rest.Kind{Resource: "replicationcontrollers", Kind: "ReplicationController", ShortNames: []string{"rc"}, Categories: []string{"all"},
		Fields: map[string]rest.FieldRead{"status.replicas": rest.IntField("status.replicas")},
		Strategy: replicationControllerStrategy{rest.Base{GVK: gvk("ReplicationController"), Status: true, Scale: true, Generation: true,
			Unconditional: true, ResetStatus: rest.ZeroStatus("replicas")}}}
}

// replicationControllerStrategy mirrors pkg/registry/core/replicationcontroller/strategy.go.
type replicationControllerStrategy struct{ rest.Base }

// Validate implements rest.Strategy: ValidateReplicationControllerSpec's template checks.
func (s replicationControllerStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	return rest.RequiredCauses(s.GVK, obj, rcCauses(obj.Object), "spec.template")
}

// ValidateName implements rest.NameValidator: the declarative validation of
// ReplicationControllers counts a name's length in bytes, and says so.
func (replicationControllerStrategy) ValidateName(name string) []string {
	return validation.DNS1123SubdomainInBytes(name)
}

// WarningsOnCreate implements rest.Strategy: a name that is not a DNS label, then the pod
// template's warnings (those PodSpecWarnings computes).
func (replicationControllerStrategy) WarningsOnCreate(obj *api.Unstructured) []string {
	var warnings []string
	if msgs := validation.IsDNS1123Label(obj.GetName()); len(msgs) > 0 {
		warnings = append(warnings, fmt.Sprintf("metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: %v", msgs))
	}
	return append(warnings, validation.PodSpecWarnings(obj.Object, "spec.template")...)
}

// rcCauses mirrors ValidateReplicationControllerSpec and ValidatePodTemplateSpecForRC on the
// defaulted object: a selector and a template are required, the selector (a plain map) must
// match the template's labels, its pods restart Always and have no deadline.
func rcCauses(obj map[string]any) []api.StatusCause {
	spec := child(obj, "spec")
	var causes []api.StatusCause
	sel := child(spec, "selector")
	if len(sel) == 0 {
		causes = append(causes, validation.Required("spec.selector", ""))
	}
	if n, ok := api.AsInt64(spec["replicas"]); ok && n < 0 {
		causes = append(causes, validation.Invalid("spec.replicas", n, "must be greater than or equal to 0"))
	}
	tmpl := child(spec, "template")
	if tmpl == nil {
		return append(causes, validation.Required("spec.template", ""))
	}
	labels := child(child(tmpl, "metadata"), "labels")
	if len(sel) > 0 && !validation.SelectorMatches(map[string]any{"matchLabels": sel}, labels) {
		causes = append(causes, validation.Invalid("spec.template.metadata.labels", labels, "`selector` does not match template `labels`"))
	}
	causes = append(causes, validation.PodSpecCauses(obj, "spec.template.spec")...)
	podSpec := child(tmpl, "spec")
	rp := str(podSpec, "restartPolicy")
	if rp != "Always" {
		causes = append(causes, validation.NotSupported("spec.template.spec.restartPolicy", rp, []string{"Always"}))
	}
	if podSpec["activeDeadlineSeconds"] != nil {
		causes = append(causes, validation.Forbidden("spec.template.spec.activeDeadlineSeconds", "activeDeadlineSeconds in ReplicationController is not Supported"))
	}
	return causes
}
