package core

import (
	"regexp"
	"slices"
	"sync"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// quotaScopes are the scopes IsStandardResourceQuotaScope knows.
var quotaScopes = []string{"Terminating", "NotTerminating", "BestEffort", "NotBestEffort", "PriorityClass",
	"VolumeAttributesClass", "CrossNamespacePodAffinity"}

// existsOnlyScopes are the scopes whose requirement must use the Exists operator.
var existsOnlyScopes = []string{"BestEffort", "NotBestEffort", "Terminating", "NotTerminating", "CrossNamespacePodAffinity"}

// scopeRequirementNotRequired are the presence causes the real validation does not give
// for a scope selector's requirement: its scope name and operator are plain values.
var scopeRequirementNotRequired = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^spec\.scopeSelector\.matchExpressions\[\d+\]\.(scopeName|operator)$`)
})

// Validate implements rest.Strategy: validateScopedResourceSelectorRequirement's scope
// name and operator rules, then presence. Its paths name matchExpressions without the
// requirement's index, as the real ones do.
func (s resourceQuotaStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	var causes []api.StatusCause
	sel, _ := child(obj.Object, "spec")["scopeSelector"].(map[string]any)
	exprs, _ := sel["matchExpressions"].([]any)
	const path = "spec.scopeSelector.matchExpressions"
	for _, e := range exprs {
		em, _ := e.(map[string]any)
		scope, _ := em["scopeName"].(string)
		op, _ := em["operator"].(string)
		values, _ := em["values"].([]any)
		if !slices.Contains(quotaScopes, scope) {
			causes = append(causes, validation.Invalid(path+".scopeName", scope, "unsupported scope"))
		}
		if slices.Contains(existsOnlyScopes, scope) && op != "Exists" {
			causes = append(causes, validation.Invalid(path+".operator", op,
				"must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity"))
		}
		switch op {
		case "In", "NotIn":
			if len(values) == 0 {
				causes = append(causes, validation.Required(path+".values", "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"))
			}
		case "Exists", "DoesNotExist":
			if len(values) != 0 {
				causes = append(causes, validation.Invalid(path+".values", values, "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"))
			}
		default:
			causes = append(causes, validation.Invalid(path+".operator", op, "not a valid selector operator"))
		}
	}
	return rest.RequiredCausesExcept(s.GVK, obj, causes, scopeRequirementNotRequired())
}
