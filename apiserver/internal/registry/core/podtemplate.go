package core

import (
	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// podTemplateStrategy mirrors pkg/registry/core/podtemplate/strategy.go: the generation
// starts at 1 and moves when the template changes.
type podTemplateStrategy struct{ rest.Base }

// Validate implements rest.Strategy: ValidatePodTemplateSpec's container checks, then presence.
func (s podTemplateStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	return rest.RequiredCauses(s.GVK, obj, validation.PodSpecCauses(obj.Object, "template.spec"), "")
}

// PodTemplates is the podtemplates resource (pkg/registry/core/podtemplate).
func PodTemplates() rest.Kind {
	return rest.Kind{Resource: "podtemplates", Kind: "PodTemplate", ReturnDeletedObject: true,
		Strategy: podTemplateStrategy{rest.Base{GVK: gvk("PodTemplate"), Generation: true, Unconditional: true}}}
}
