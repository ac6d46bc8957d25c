package policy

import (
	"encoding/json"
	"regexp"
	"slices"
	"strconv"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// podDisruptionBudgetStrategy mirrors pkg/registry/policy/poddisruptionbudget/strategy.go.
type podDisruptionBudgetStrategy struct{ rest.Base }

// Validate implements rest.Strategy: ValidatePodDisruptionBudgetSpec.
func (podDisruptionBudgetStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	spec, _ := obj.Object["spec"].(map[string]any)
	minAvail, maxUnavail := spec["minAvailable"], spec["maxUnavailable"]
	var causes []api.StatusCause
	if minAvail != nil && maxUnavail != nil {
		causes = append(causes, validation.InvalidRaw("spec", specText(spec), "minAvailable and maxUnavailable cannot be both set"))
	}
	for _, f := range []string{"minAvailable", "maxUnavailable"} {
		if v := spec[f]; v != nil {
			causes = append(causes, intOrPercentCauses("spec."+f, v)...)
		}
	}
	if p, ok := spec["unhealthyPodEvictionPolicy"].(string); ok && !slices.Contains(evictionPolicies, p) {
		causes = append(causes, validation.NotSupported("spec.unhealthyPodEvictionPolicy", p, evictionPolicies))
	}
	return causes
}

// ValidateName implements rest.NameValidator: ValidatePodDisruptionBudget checks no name,
// so "Bad_Name" and a 254-character name are both accepted.
func (podDisruptionBudgetStrategy) ValidateName(name string) []string {
	return validation.PathSegmentName(name)
}

// Canonicalize implements rest.Strategy: the spec is always written out.
func (podDisruptionBudgetStrategy) Canonicalize(obj *api.Unstructured) {
	rest.EnsureMember(obj.Object, map[string]any{}, "spec")
}

// evictionPolicies are the supported unhealthyPodEvictionPolicy values, sorted.
var evictionPolicies = []string{"AlwaysAllow", "IfHealthyBudget"}

var percent = regexp.MustCompile(`^[0-9]+%$`)

// intOrPercentCauses mirrors ValidatePositiveIntOrPercent and IsNotMoreThan100Percent.
func intOrPercentCauses(path string, v any) []api.StatusCause {
	if s, ok := v.(string); ok {
		if !percent.MatchString(s) {
			return []api.StatusCause{validation.Invalid(path, s, "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')")}
		}
		// Atoi saturates on overflow, as getPercentValue reads it.
		if n, _ := strconv.Atoi(s[:len(s)-1]); n > 100 {
			return []api.StatusCause{validation.Invalid(path, s, "must not be greater than 100%")}
		}
		return nil
	}
	if n, ok := api.AsInt64(v); ok && n < 0 {
		return []api.StatusCause{validation.Invalid(path, n, "must be greater than or equal to 0")}
	}
	return nil
}

// specText prints the spec as the "both set" message does: the internal struct's JSON, with
// its Go field names.
func specText(spec map[string]any) string {
	text, _ := json.Marshal(struct {
		MinAvailable               any
		Selector                   *validation.LabelSelector
		MaxUnavailable             any
		UnhealthyPodEvictionPolicy any
	}{spec["minAvailable"], validation.LabelSelectorOf(spec["selector"]), spec["maxUnavailable"], spec["unhealthyPodEvictionPolicy"]})
	return string(text)
}

// PodDisruptionBudgets is the poddisruptionbudgets resource (pkg/registry/policy/poddisruptionbudget).
func PodDisruptionBudgets() rest.Kind {
	return rest.Kind{Group: "policy", Resource: "poddisruptionbudgets", Kind: "PodDisruptionBudget", ShortNames: []string{"pdb"},
		Strategy: podDisruptionBudgetStrategy{rest.Base{GVK: gvk("PodDisruptionBudget"), Status: true, Generation: true,
			ResetStatus: rest.ZeroStatus("disruptionsAllowed", "currentHealthy", "desiredHealthy", "expectedPods")}}}
}
