package scheduling

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// The priority bounds of pkg/apis/scheduling/types.go.
const (
	// HighestUserDefinablePriority is the highest value a user's class may have.
	HighestUserDefinablePriority = 1000000000
	// SystemCriticalPriority is system-cluster-critical's value; system-node-critical's is
	// 1000 more.
	SystemCriticalPriority = 2 * HighestUserDefinablePriority
	systemPrefix           = "system-"
)

// systemClass is one of the PriorityClasses a kube-apiserver creates at start-up
// (SystemPriorityClasses in pkg/apis/scheduling/v1/helpers.go).
type systemClass struct {
	name, description string
	value             int64
}

var systemClasses = []systemClass{
	{"system-node-critical", "Used for system critical pods that must not be moved from their current node.", SystemCriticalPriority + 1000},
	{"system-cluster-critical", "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.", SystemCriticalPriority},
}

// priorityClassStrategy mirrors pkg/registry/scheduling/priorityclass/strategy.go, with the
// delete guard of its REST storage and the PriorityClass half of the Priority admission plugin.
type priorityClassStrategy struct{ rest.Base }

// Validate implements rest.Strategy: ValidatePriorityClass.
func (priorityClassStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	var causes []api.StatusCause
	value, _ := api.AsInt64(obj.Object["value"])
	name := obj.GetName()
	if strings.HasPrefix(name, systemPrefix) {
		if err := isKnownSystemClass(name, value, obj.Object["globalDefault"] == true); err != nil {
			causes = append(causes, validation.Forbidden("metadata.name",
				"priority class names with '"+systemPrefix+"' prefix are reserved for system use only. error: "+err.Error()))
		}
	} else if value > HighestUserDefinablePriority {
		causes = append(causes, validation.Forbidden("value", fmt.Sprintf("maximum allowed value of a user defined priority is %d", HighestUserDefinablePriority)))
	}
	if p, ok := obj.Object["preemptionPolicy"].(string); ok {
		switch p {
		case "PreemptLowerPriority", "Never":
		case "":
			causes = append(causes, validation.Required("preemptionPolicy", ""))
		default:
			causes = append(causes, validation.NotSupported("preemptionPolicy", p, []string{"PreemptLowerPriority", "Never"}))
		}
	}
	return causes
}

// Canonicalize implements rest.Strategy: the object as the typed one is written out: the
// value always, a false globalDefault and an empty description never (omitempty).
func (priorityClassStrategy) Canonicalize(obj *api.Unstructured) {
	rest.EnsureMember(obj.Object, int64(0), "value")
	if obj.Object["globalDefault"] == false {
		delete(obj.Object, "globalDefault")
	}
	if obj.Object["description"] == "" {
		delete(obj.Object, "description")
	}
}

// isKnownSystemClass mirrors IsKnownSystemPriorityClass.
func isKnownSystemClass(name string, value int64, globalDefault bool) error {
	for _, c := range systemClasses {
		if c.name != name {
			continue
		}
		if c.value != value {
			return fmt.Errorf("value of %s PriorityClass must be %d", name, c.value)
		}
		if globalDefault {
			return fmt.Errorf("globalDefault of %s PriorityClass must be false", name)
		}
		return nil
	}
	return fmt.Errorf("%s is not a known system priority class", name)
}

// ValidateUpdate implements rest.Strategy: ValidatePriorityClassUpdate.
func (priorityClassStrategy) ValidateUpdate(obj, old *api.Unstructured) []api.StatusCause {
	var causes []api.StatusCause
	if !reflect.DeepEqual(obj.Object["value"], old.Object["value"]) {
		causes = append(causes, validation.Forbidden("value", "may not be changed in an update."))
	}
	if p := obj.Object["preemptionPolicy"]; !reflect.DeepEqual(p, old.Object["preemptionPolicy"]) {
		causes = append(causes, validation.Invalid("preemptionPolicy", p, "field is immutable"))
	}
	return causes
}

// ValidateDelete implements rest.DeleteValidator: the system classes stay.
func (priorityClassStrategy) ValidateDelete(name string) error {
	for _, c := range systemClasses {
		if c.name == name {
			return api.NewForbidden(api.GroupResource{Group: Group, Resource: "priorityclasses"}, name,
				errors.New("this is a system priority class and cannot be deleted"))
		}
	}
	return nil
}

// ValidateState implements rest.StateValidator: the Priority admission plugin's
// validatePriorityClass. A class that becomes the global default may not join another one
// (the one of lowest value, if a race let in several).
func (priorityClassStrategy) ValidateState(obj, old *api.Unstructured, list rest.Lister) error {
	if obj.Object["globalDefault"] != true {
		return nil
	}
	var current *api.Unstructured
	for _, pc := range list(Group, "priorityclasses") {
		if pc.Object["globalDefault"] != true {
			continue
		}
		v, _ := api.AsInt64(pc.Object["value"])
		if cv, _ := api.AsInt64(valueOf(current)); current == nil || cv > v {
			current = pc
		}
	}
	if current == nil || (old != nil && current.GetName() == obj.GetName()) {
		return nil
	}
	return api.NewForbidden(api.GroupResource{Group: Group, Resource: "priorityclasses"}, obj.GetName(),
		fmt.Errorf("PriorityClass %s is already marked as default. Only one default can exist", current.GetName()))
}

func valueOf(pc *api.Unstructured) any {
	if pc == nil {
		return nil
	}
	return pc.Object["value"]
}

// bootstrap returns the system classes as the post-start hook creates them.
func bootstrap() []map[string]any {
	out := make([]map[string]any, len(systemClasses))
	for i, c := range systemClasses {
		out[i] = map[string]any{
			"apiVersion": Group + "/v1", "kind": "PriorityClass",
			"metadata": map[string]any{"name": c.name}, "value": c.value, "description": c.description,
		}
	}
	return out
}

// PriorityClasses is the priorityclasses resource (pkg/registry/scheduling/priorityclass).
func PriorityClasses() rest.Kind {
	return rest.Kind{Group: Group, Resource: "priorityclasses", Kind: "PriorityClass", ShortNames: []string{"pc"},
		Bootstrap: bootstrap,
		Strategy: priorityClassStrategy{rest.Base{GVK: gvk("PriorityClass"), Cluster: true, Generation: true, Unconditional: true,
			SpecChanged: func(_, _ *api.Unstructured) bool { return false }}}}
}
