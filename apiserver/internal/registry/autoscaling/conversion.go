package autoscaling

import (
	"encoding/json"

	"github.com/informer-lab/informer-lab/api"
)

// The annotations autoscaling/v1 keeps what it has no fields for in
// (pkg/apis/autoscaling/annotations.go). Every version drops them on the way in; v1 writes
// them on the way out.
const (
	metricSpecsAnnotation    = "autoscaling.alpha.kubernetes.io/metrics"
	metricStatusesAnnotation = "autoscaling.alpha.kubernetes.io/current-metrics"
	conditionsAnnotation     = "autoscaling.alpha.kubernetes.io/conditions"
	behaviorAnnotation       = "autoscaling.alpha.kubernetes.io/behavior"
)

var roundTripAnnotations = []string{
	metricSpecsAnnotation, behaviorAnnotation, "autoscaling.alpha.kubernetes.io/scale-down-tolerance",
	"autoscaling.alpha.kubernetes.io/scale-up-tolerance", metricStatusesAnnotation, conditionsAnnotation,
}

// defaultCPUUtilization mirrors autoscaling.DefaultCPUUtilization.
const defaultCPUUtilization = 80

// dropRoundTripAnnotations mirrors DropRoundTripHorizontalPodAutoscalerAnnotations on a
// metadata tree, removing an annotations map it empties.
func dropRoundTripAnnotations(meta map[string]any) {
	ann, _ := meta["annotations"].(map[string]any)
	if ann == nil {
		return
	}
	found := false
	for _, k := range roundTripAnnotations {
		if _, ok := ann[k]; ok {
			delete(ann, k)
			found = true
		}
	}
	if found && len(ann) == 0 {
		delete(meta, "annotations")
	}
}

// readTree decodes the JSON of a tree into v, as the typed decoder reads the same object.
func readTree(obj map[string]any, v any) {
	data, err := json.Marshal(obj)
	if err == nil {
		err = json.Unmarshal(data, v)
	}
	_ = err // a stored or decoded tree always fits its type
}

// writeTree replaces obj's members with v's JSON, numbers as the decoder keeps them.
func writeTree(obj map[string]any, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		return
	}
	var u api.Unstructured
	if u.UnmarshalJSON(data) != nil {
		return
	}
	clear(obj)
	for k, val := range u.Object {
		obj[k] = val
	}
}

// metadataOf returns a copy of the tree's metadata.
func metadataOf(obj map[string]any) map[string]any {
	m, _ := obj["metadata"].(map[string]any)
	if m == nil {
		return nil
	}
	return api.DeepCopyJSONValue(m).(map[string]any)
}

func rawMetadata(meta map[string]any) json.RawMessage {
	if meta == nil {
		return nil
	}
	data, _ := json.Marshal(meta)
	return data
}

// CanonicalV2 writes a stored autoscaling/v2 tree out as the typed object would be: what
// Convert_v2_HorizontalPodAutoscaler_To_autoscaling and back leave (no v1 annotations), with
// every member that has no omitempty.
func CanonicalV2(obj map[string]any) {
	var h hpaV2
	readTree(obj, &h)
	meta := metadataOf(obj)
	if meta != nil {
		dropRoundTripAnnotations(meta)
	}
	h.Metadata = rawMetadata(meta)
	writeTree(obj, h)
}

// ToV1 converts a stored autoscaling/v2 tree in place to autoscaling/v1, as
// Convert_autoscaling_HorizontalPodAutoscaler_To_v1_HorizontalPodAutoscaler does: the
// first CPU utilization target becomes targetCPUUtilizationPercentage, and every other
// metric, the current metrics, the behavior and the conditions go into annotations.
func ToV1(obj map[string]any) {
	var in hpaV2
	readTree(obj, &in)
	var out hpaV1
	out.Kind, out.APIVersion = in.Kind, "autoscaling/v1"
	out.Spec.ScaleTargetRef = in.Spec.ScaleTargetRef
	out.Spec.MinReplicas, out.Spec.MaxReplicas = in.Spec.MinReplicas, in.Spec.MaxReplicas
	var other []metricSpecV1
	for _, m := range in.Spec.Metrics {
		if isCPUUtilization(m) {
			if out.Spec.TargetCPUUtilizationPercentage == nil {
				out.Spec.TargetCPUUtilizationPercentage = m.Resource.Target.AverageUtilization
			}
			continue
		}
		other = append(other, metricSpecToV1(m))
	}
	st := in.Status
	out.Status.ObservedGeneration, out.Status.LastScaleTime = st.ObservedGeneration, st.LastScaleTime
	out.Status.CurrentReplicas, out.Status.DesiredReplicas = st.CurrentReplicas, st.DesiredReplicas
	current := make([]metricStatusV1, len(st.CurrentMetrics))
	for i, m := range st.CurrentMetrics {
		// The last CPU utilization wins: the real loop does not stop at the first.
		if m.Type == "Resource" && m.Resource != nil && m.Resource.Name == "cpu" && m.Resource.Current.AverageUtilization != nil {
			out.Status.CurrentCPUUtilizationPercentage = m.Resource.Current.AverageUtilization
		}
		current[i] = metricStatusToV1(m)
	}

	meta := metadataOf(obj)
	if meta != nil {
		dropRoundTripAnnotations(meta)
	}
	ann := map[string]string{}
	if len(other) > 0 {
		ann[metricSpecsAnnotation] = jsonText(other)
	}
	if len(st.CurrentMetrics) > 0 {
		ann[metricStatusesAnnotation] = jsonText(current)
	}
	if in.Spec.Behavior != nil {
		ann[behaviorAnnotation] = jsonText(behaviorToInternal(in.Spec.Behavior))
	}
	if len(st.Conditions) > 0 {
		ann[conditionsAnnotation] = jsonText(st.Conditions)
	}
	if len(ann) > 0 {
		if meta == nil {
			meta = map[string]any{}
		}
		all, _ := meta["annotations"].(map[string]any)
		if all == nil {
			all = map[string]any{}
			meta["annotations"] = all
		}
		for k, v := range ann {
			all[k] = v
		}
	}
	out.Metadata = rawMetadata(meta)
	writeTree(obj, out)
}

// FromV1 converts an autoscaling/v1 tree in place to the stored autoscaling/v2, as
// Convert_v1_HorizontalPodAutoscaler_To_autoscaling_HorizontalPodAutoscaler does: the
// annotations give back what v1 has no fields for, then go; no metric at all means the
// CPU utilization default of 80%.
func FromV1(obj map[string]any) {
	var in hpaV1
	readTree(obj, &in)
	meta := metadataOf(obj)
	ann := map[string]string{}
	if m, ok := meta["annotations"].(map[string]any); ok {
		for k, v := range m {
			if s, ok := v.(string); ok {
				ann[k] = s
			}
		}
	}
	var out hpaV2
	out.Kind, out.APIVersion = in.Kind, "autoscaling/v2"
	out.Spec.ScaleTargetRef = in.Spec.ScaleTargetRef
	out.Spec.MinReplicas, out.Spec.MaxReplicas = in.Spec.MinReplicas, in.Spec.MaxReplicas
	if p := in.Spec.TargetCPUUtilizationPercentage; p != nil {
		out.Spec.Metrics = []metricSpecV2{cpuUtilization(*p)}
	}
	if text, ok := ann[metricSpecsAnnotation]; ok {
		var other []metricSpecV1
		if json.Unmarshal([]byte(text), &other) == nil {
			metrics := make([]metricSpecV2, 0, len(other)+1)
			for _, m := range other {
				metrics = append(metrics, metricSpecFromV1(m))
			}
			out.Spec.Metrics = append(metrics, out.Spec.Metrics...)
		}
	}
	if text, ok := ann[behaviorAnnotation]; ok {
		var b behaviorInternal
		if json.Unmarshal([]byte(text), &b) == nil && (b.ScaleUp != nil || b.ScaleDown != nil) {
			out.Spec.Behavior = behaviorFromInternal(&b)
		}
	}

	st := in.Status
	out.Status.ObservedGeneration, out.Status.LastScaleTime = st.ObservedGeneration, st.LastScaleTime
	out.Status.CurrentReplicas, out.Status.DesiredReplicas = st.CurrentReplicas, st.DesiredReplicas
	if p := st.CurrentCPUUtilizationPercentage; p != nil {
		out.Status.CurrentMetrics = []metricStatusV2{{Type: "Resource", Resource: &resourceStatusV2{Name: "cpu",
			Current: metricValueStatus{AverageUtilization: p}}}}
	}
	if text, ok := ann[metricStatusesAnnotation]; ok {
		var current []metricStatusV1
		if json.Unmarshal([]byte(text), &current) == nil {
			out.Status.CurrentMetrics = make([]metricStatusV2, len(current))
			for i, m := range current {
				out.Status.CurrentMetrics[i] = metricStatusFromV1(m)
			}
		}
	}
	if len(out.Spec.Metrics) == 0 {
		out.Spec.Metrics = []metricSpecV2{cpuUtilization(defaultCPUUtilization)}
	}
	if text, ok := ann[conditionsAnnotation]; ok {
		var conds []condition
		if json.Unmarshal([]byte(text), &conds) == nil {
			out.Status.Conditions = conds
		}
	}
	if meta != nil {
		dropRoundTripAnnotations(meta)
	}
	out.Metadata = rawMetadata(meta)
	writeTree(obj, out)
}

func jsonText(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}

// isCPUUtilization reports whether a metric is the one v1 has a field for.
func isCPUUtilization(m metricSpecV2) bool {
	return m.Type == "Resource" && m.Resource != nil && m.Resource.Name == "cpu" && m.Resource.Target.AverageUtilization != nil
}

func cpuUtilization(percent int64) metricSpecV2 {
	return metricSpecV2{Type: "Resource", Resource: &resourceSourceV2{Name: "cpu",
		Target: metricTarget{Type: "Utilization", AverageUtilization: &percent}}}
}

func behaviorToInternal(b *behaviorV2) behaviorInternal {
	rules := func(r *scalingRulesV2) *rulesInternal {
		if r == nil {
			return nil
		}
		out := &rulesInternal{StabilizationWindowSeconds: r.StabilizationWindowSeconds, SelectPolicy: r.SelectPolicy, Tolerance: r.Tolerance}
		for _, p := range r.Policies {
			out.Policies = append(out.Policies, policyInternal(p))
		}
		return out
	}
	return behaviorInternal{ScaleUp: rules(b.ScaleUp), ScaleDown: rules(b.ScaleDown)}
}

func behaviorFromInternal(b *behaviorInternal) *behaviorV2 {
	rules := func(r *rulesInternal) *scalingRulesV2 {
		if r == nil {
			return nil
		}
		out := &scalingRulesV2{StabilizationWindowSeconds: r.StabilizationWindowSeconds, SelectPolicy: r.SelectPolicy, Tolerance: r.Tolerance}
		for _, p := range r.Policies {
			out.Policies = append(out.Policies, scalingPolicy(p))
		}
		return out
	}
	return &behaviorV2{ScaleUp: rules(b.ScaleUp), ScaleDown: rules(b.ScaleDown)}
}
