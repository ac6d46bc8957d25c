package autoscaling

import (
	"fmt"
	"slices"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// behaviorCauses mirrors validateBehavior: each of scaleUp and scaleDown, its stabilization
// window, select policy and policies.
func behaviorCauses(spec map[string]any) []api.StatusCause {
	b, _ := spec["behavior"].(map[string]any)
	var causes []api.StatusCause
	for _, dir := range []string{"scaleUp", "scaleDown"} {
		r, ok := b[dir].(map[string]any)
		if !ok {
			continue
		}
		p := "spec.behavior." + dir
		if w, ok := api.AsInt64(r["stabilizationWindowSeconds"]); ok {
			switch {
			case w < 0:
				causes = append(causes, validation.Invalid(p+".stabilizationWindowSeconds", w, "must be greater than or equal to zero"))
			case w > 3600:
				causes = append(causes, validation.Invalid(p+".stabilizationWindowSeconds", w, "must be less than or equal to 3600"))
			}
		}
		if sp, ok := r["selectPolicy"].(string); ok && !slices.Contains([]string{"Disabled", "Max", "Min"}, sp) {
			causes = append(causes, validation.NotSupported(p+".selectPolicy", sp, []string{"Disabled", "Max", "Min"}))
		}
		policies, _ := r["policies"].([]any)
		if len(policies) == 0 {
			causes = append(causes, validation.Required(p+".policies", "must specify at least one Policy"))
		}
		for i, pol := range policies {
			pm, _ := pol.(map[string]any)
			pp := fmt.Sprintf("%s.policies[%d]", p, i)
			if t, _ := pm["type"].(string); t != "Percent" && t != "Pods" {
				causes = append(causes, validation.NotSupported(pp+".type", t, []string{"Percent", "Pods"}))
			}
			if v, _ := api.AsInt64(pm["value"]); v <= 0 {
				causes = append(causes, validation.Invalid(pp+".value", v, "must be greater than zero"))
			}
			switch ps, _ := api.AsInt64(pm["periodSeconds"]); {
			case ps <= 0:
				causes = append(causes, validation.Invalid(pp+".periodSeconds", ps, "must be greater than zero"))
			case ps > 1800:
				causes = append(causes, validation.Invalid(pp+".periodSeconds", ps, "must be less than or equal to 1800"))
			}
		}
	}
	return causes
}
