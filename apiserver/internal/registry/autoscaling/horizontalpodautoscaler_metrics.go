package autoscaling

import (
	"fmt"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// metricSourceTypes is validMetricSourceTypesList: sorted.
var metricSourceTypes = []string{"ContainerResource", "External", "Object", "Pods", "Resource"}

// metricSourceMembers are the member of each metric source type, in the order
// validateMetricSpec looks at them.
var metricSourceMembers = []struct{ member, typ string }{
	{"object", "Object"}, {"external", "External"}, {"pods", "Pods"}, {"resource", "Resource"}, {"containerResource", "ContainerResource"},
}

// metricsCauses mirrors validateMetrics' per-metric checks (validateMetricSpec): the type,
// the first source present (its own checks for pods, resource and containerResource
// sources), the source the type names, and no other source.
func metricsCauses(spec map[string]any) []api.StatusCause {
	var causes []api.StatusCause
	metrics, _ := spec["metrics"].([]any)
	for i, m := range metrics {
		mm, _ := m.(map[string]any)
		path := fmt.Sprintf("spec.metrics[%d]", i)
		typ, _ := mm["type"].(string)
		if typ == "" {
			causes = append(causes, validation.Required(path+".type", "must specify a metric source type"))
		}
		known := false
		for _, t := range metricSourceTypes {
			known = known || t == typ
		}
		if !known {
			causes = append(causes, validation.NotSupported(path+".type", typ, metricSourceTypes))
		}
		var present []string
		expected := ""
		for _, s := range metricSourceMembers {
			src, ok := mm[s.member].(map[string]any)
			if ok {
				present = append(present, s.member)
				if len(present) == 1 {
					causes = append(causes, metricSourceCauses(s.member, src, path+"."+s.member)...)
				}
			}
			if s.typ == typ {
				expected = s.member
			}
		}
		if _, ok := mm[expected].(map[string]any); expected != "" && !ok {
			causes = append(causes, validation.Required(path+"."+expected, "must populate information for the given metric source"))
		}
		if !known {
			causes = append(causes, validation.NotSupported(path+".type", typ, metricSourceTypes))
		}
		if len(present) > 1 {
			for _, p := range present {
				if p != expected {
					causes = append(causes, validation.Forbidden(path+"."+p, "must populate the given metric source only"))
				}
			}
		}
	}
	return causes
}

// metricSourceCauses mirrors validatePodsSource, validateResourceSource and
// validateContainerResourceSource (the object and external sources are not checked here).
func metricSourceCauses(member string, src map[string]any, path string) []api.StatusCause {
	var causes []api.StatusCause
	target, _ := src["target"].(map[string]any)
	switch member {
	case "pods":
		metric, _ := src["metric"].(map[string]any)
		if name, _ := metric["name"].(string); name == "" {
			causes = append(causes, validation.Required(path+".metric.name", "must specify a metric name"))
		}
		causes = append(causes, metricTargetCauses(target, path+".target")...)
		if _, ok := target["averageValue"]; !ok {
			causes = append(causes, validation.Required(path+".target.averageValue", "must specify a positive target averageValue"))
		}
		return causes
	case "resource", "containerResource":
		if name, _ := src["name"].(string); name == "" {
			causes = append(causes, validation.Required(path+".name", "must specify a resource name"))
		}
		if member == "containerResource" {
			c, _ := src["container"].(string)
			if c == "" {
				causes = append(causes, validation.Required(path+".container", "must specify a container"))
			}
			for _, msg := range validation.IsDNS1123Label(c) {
				if c != "" {
					causes = append(causes, validation.Invalid(path+".container", c, msg))
				}
			}
		}
		causes = append(causes, metricTargetCauses(target, path+".target")...)
		_, hasUtil := target["averageUtilization"]
		_, hasAvg := target["averageValue"]
		if !hasUtil && !hasAvg {
			causes = append(causes, validation.Required(path+".target.averageUtilization", "must set either a target raw value or a target utilization"))
		}
		if hasUtil && hasAvg {
			causes = append(causes, validation.Forbidden(path+".target.averageValue", "may not set both a target raw value and a target utilization"))
		}
	}
	return causes
}

// metricTargetCauses mirrors validateMetricTarget's type and utilization rules.
func metricTargetCauses(target map[string]any, path string) []api.StatusCause {
	var causes []api.StatusCause
	typ, _ := target["type"].(string)
	if typ == "" {
		causes = append(causes, validation.Required(path+".type", "must specify a metric target type"))
	}
	if typ != "Utilization" && typ != "Value" && typ != "AverageValue" {
		causes = append(causes, validation.Invalid(path+".type", typ, "must be either Utilization, Value, or AverageValue"))
	}
	if u, ok := api.AsInt64(target["averageUtilization"]); ok && u < 1 {
		causes = append(causes, validation.Invalid(path+".averageUtilization", u, "must be greater than 0"))
	}
	return causes
}
