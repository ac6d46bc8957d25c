package admission

import (
	"context"
	"fmt"

	"github.com/informer-lab/informer-lab/api"
)

// Priority mirrors the Priority plugin of plugin/pkg/admission/priority for pods: a pod's
// priority comes from its PriorityClass, else from the global default class, else is 0
// with PreemptLowerPriority. A priority or policy in the body must match the computed one.
// The plugin's PriorityClass check (a single globalDefault) is the PriorityClass
// strategy's ValidateState, which runs under the write lock.
type Priority struct{}

// Name implements Interface.
func (Priority) Name() string { return "Priority" }

// Handles implements Interface.
func (Priority) Handles(op Operation) bool { return op == Create || op == Update || op == Delete }

// Admit implements MutationInterface (admitPod).
func (Priority) Admit(_ context.Context, a *Attributes) error {
	if !isPod(a) {
		return nil
	}
	spec := podSpec(a)
	switch a.Operation {
	case Update:
		// An update that drops them keeps the stored values.
		old := child(a.OldObject.Object, "spec")
		for _, k := range []string{"priority", "preemptionPolicy"} {
			if spec[k] == nil && old != nil && old[k] != nil {
				spec[k] = old[k]
			}
		}
		return nil
	case Create:
	default:
		return nil
	}
	name, value, policy, err := establishPriority(a, str(spec, "priorityClassName"))
	if err != nil {
		return err
	}
	if name != "" {
		spec["priorityClassName"] = name
	}
	if p, ok := api.AsInt64(spec["priority"]); spec["priority"] != nil && (!ok || p != value) {
		return forbidden(a, fmt.Errorf("the integer value of priority (%v) must not be provided in pod spec; priority admission controller computed %d from the given PriorityClass name", spec["priority"], value))
	}
	spec["priority"] = value
	if policy != "" {
		if p := str(spec, "preemptionPolicy"); p != "" && p != policy {
			return forbidden(a, fmt.Errorf("the string value of PreemptionPolicy (%s) must not be provided in pod spec; priority admission controller computed %s from the given PriorityClass name", p, policy))
		}
		spec["preemptionPolicy"] = policy
	}
	return nil
}

// establishPriority mirrors establishPriority: the class's name, value and policy.
func establishPriority(a *Attributes, className string) (string, int64, string, error) {
	if className == "" {
		if pc := defaultPriorityClass(a); pc != nil {
			v, _ := api.AsInt64(pc.Object["value"])
			return pc.GetName(), v, str(pc.Object, "preemptionPolicy"), nil
		}
		return "", 0, "PreemptLowerPriority", nil
	}
	pc := a.get("scheduling.k8s.io", "priorityclasses", "", className)
	if pc == nil {
		return "", 0, "", forbidden(a, fmt.Errorf("no PriorityClass with name %s was found", className))
	}
	v, _ := api.AsInt64(pc.Object["value"])
	return className, v, str(pc.Object, "preemptionPolicy"), nil
}

// defaultPriorityClass mirrors getDefaultPriorityClass: of the global defaults, the one of
// lowest value.
func defaultPriorityClass(a *Attributes) *api.Unstructured {
	var out *api.Unstructured
	var outValue int64
	for _, pc := range a.list("scheduling.k8s.io", "priorityclasses", "") {
		if pc.Object["globalDefault"] != true {
			continue
		}
		v, _ := api.AsInt64(pc.Object["value"])
		if out == nil || outValue > v {
			out, outValue = pc, v
		}
	}
	return out
}
