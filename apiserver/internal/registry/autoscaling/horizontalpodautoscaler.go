package autoscaling

import (
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// hpaStrategy mirrors pkg/registry/autoscaling/horizontalpodautoscaler/strategy.go.
type hpaStrategy struct{ rest.Base }

// Canonicalize implements rest.Strategy: the stored object as the typed v2 object is
// written out (see CanonicalV2).
func (hpaStrategy) Canonicalize(obj *api.Unstructured) { CanonicalV2(obj.Object) }

// GetResetFields implements rest.Strategy: the status, at both versions.
func (hpaStrategy) GetResetFields() map[string][]string {
	return map[string][]string{"autoscaling/v1": {"status"}, "autoscaling/v2": {"status"}}
}

// Validate implements rest.Strategy: validateHorizontalPodAutoscalerSpec's replica bounds
// and scale target, its metrics, then its behavior.
func (hpaStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	spec, _ := obj.Object["spec"].(map[string]any)
	var causes []api.StatusCause
	minR, hasMin := api.AsInt64(spec["minReplicas"])
	if hasMin && minR < 1 {
		causes = append(causes, validation.Invalid("spec.minReplicas", minR, "must be greater than or equal to 1"))
	}
	maxR, _ := api.AsInt64(spec["maxReplicas"])
	switch {
	case maxR == 0:
		causes = append(causes, validation.Required("spec.maxReplicas", "must be set and greater than 0"))
	case maxR < 0:
		causes = append(causes, validation.Invalid("spec.maxReplicas", maxR, "must be greater than or equal to 1"))
	}
	if hasMin && maxR < minR {
		causes = append(causes, validation.Invalid("spec.maxReplicas", maxR, "must be greater than or equal to `minReplicas`"))
	}
	causes = append(causes, scaleTargetCauses(spec)...)
	causes = append(causes, metricsCauses(spec)...)
	if hasMin && minR == 0 && !hasMetricOfType(spec, "Object", "External") {
		causes = append(causes, validation.Forbidden("spec.metrics", "must specify at least one Object or External metric to support scaling to zero replicas"))
	}
	return append(causes, behaviorCauses(spec)...)
}

// hasMetricOfType reports whether spec.metrics has a metric of one of the types.
func hasMetricOfType(spec map[string]any, types ...string) bool {
	metrics, _ := spec["metrics"].([]any)
	for _, m := range metrics {
		mm, _ := m.(map[string]any)
		for _, t := range types {
			if mm["type"] == t {
				return true
			}
		}
	}
	return false
}

// scaleTargetCauses mirrors ValidateCrossVersionObjectReference for spec.scaleTargetRef,
// whose apiVersion must name a group unless the kind is ReplicationController.
func scaleTargetCauses(spec map[string]any) []api.StatusCause {
	ref, _ := spec["scaleTargetRef"].(map[string]any)
	var causes []api.StatusCause
	for _, f := range []string{"kind", "name"} {
		v, _ := ref[f].(string)
		path := "spec.scaleTargetRef." + f
		if v == "" {
			causes = append(causes, validation.Required(path, ""))
			continue
		}
		for _, msg := range pathSegmentProblems(v) {
			causes = append(causes, validation.Invalid(path, v, msg))
		}
	}
	apiVersion, _ := ref["apiVersion"].(string)
	kind, _ := ref["kind"].(string)
	group, _, hasGroup := strings.Cut(apiVersion, "/")
	switch {
	case strings.Count(apiVersion, "/") > 1:
		causes = append(causes, validation.Invalid("spec.scaleTargetRef.apiVersion", apiVersion, "unexpected GroupVersion string: "+apiVersion))
	case (!hasGroup || group == "") && kind != "ReplicationController":
		causes = append(causes, validation.Invalid("spec.scaleTargetRef.apiVersion", apiVersion, "apiVersion must specify API group"))
	}
	return causes
}

// pathSegmentProblems mirrors IsPathSegmentName.
func pathSegmentProblems(name string) []string {
	var out []string
	if name == "." || name == ".." {
		out = append(out, `may not be '`+name+`'`)
	}
	for _, bad := range []string{"/", "%"} {
		if strings.Contains(name, bad) {
			out = append(out, `may not contain '`+bad+`'`)
		}
	}
	return out
}

// HorizontalPodAutoscalers is the horizontalpodautoscalers resource
// (pkg/registry/autoscaling/horizontalpodautoscaler), stored at v2 and served at v1 too.
func HorizontalPodAutoscalers() rest.Kind {
	return rest.Kind{Group: Group, Version: "v2", Resource: "horizontalpodautoscalers", Kind: "HorizontalPodAutoscaler",
		ShortNames: []string{"hpa"}, Categories: []string{"all"},
		Conversions: []rest.Conversion{{Version: "v1", ToStorage: FromV1, FromStorage: ToV1}},
		Strategy: hpaStrategy{rest.Base{GVK: gvk("v2", "HorizontalPodAutoscaler"), Status: true, Unconditional: true,
			ResetStatus: func() map[string]any { return map[string]any{"desiredReplicas": int64(0), "currentMetrics": nil} }}}}
}
