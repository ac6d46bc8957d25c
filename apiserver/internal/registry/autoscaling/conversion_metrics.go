package autoscaling

import (
	"strconv"
	"strings"
)

// The metric conversions of pkg/apis/autoscaling/v1/conversion.go: v1 metrics name their
// target by field (targetValue, targetAverageValue, targetAverageUtilization), v2 ones by a
// target type.

// orZero is a quantity member without omitempty: a missing one is written "0".
func orZero(q *quantity) quantity {
	if q == nil || len(*q) == 0 || string(*q) == "null" {
		return zeroQuantity
	}
	return *q
}

func ptr(q quantity) *quantity { return &q }

// isZeroQuantity reports whether a quantity is zero, in any of its forms ("0", "0m", 0).
func isZeroQuantity(q quantity) bool {
	s := strings.Trim(string(q), `"`)
	s = strings.TrimRight(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
	f, err := strconv.ParseFloat(s, 64)
	return err == nil && f == 0
}

func metricSpecToV1(m metricSpecV2) metricSpecV1 {
	out := metricSpecV1{Type: m.Type}
	if o := m.Object; o != nil {
		out.Object = &struct {
			Target       crossVersionObjectReference `json:"target"`
			MetricName   string                      `json:"metricName"`
			TargetValue  quantity                    `json:"targetValue"`
			Selector     *labelSelector              `json:"selector,omitempty"`
			AverageValue *quantity                   `json:"averageValue,omitempty"`
		}{o.DescribedObject, o.Metric.Name, orZero(o.Target.Value), o.Metric.Selector, o.Target.AverageValue}
	}
	if p := m.Pods; p != nil {
		out.Pods = &struct {
			MetricName         string         `json:"metricName"`
			TargetAverageValue quantity       `json:"targetAverageValue"`
			Selector           *labelSelector `json:"selector,omitempty"`
		}{p.Metric.Name, orZero(p.Target.AverageValue), p.Metric.Selector}
	}
	if r := m.Resource; r != nil {
		out.Resource = &resourceSourceV1{r.Name, r.Target.AverageUtilization, r.Target.AverageValue}
	}
	if c := m.ContainerResource; c != nil {
		out.ContainerResource = &struct {
			resourceSourceV1
			Container string `json:"container"`
		}{resourceSourceV1{c.Name, c.Target.AverageUtilization, c.Target.AverageValue}, c.Container}
	}
	if e := m.External; e != nil {
		out.External = &struct {
			MetricName         string         `json:"metricName"`
			MetricSelector     *labelSelector `json:"metricSelector,omitempty"`
			TargetValue        *quantity      `json:"targetValue,omitempty"`
			TargetAverageValue *quantity      `json:"targetAverageValue,omitempty"`
		}{e.Metric.Name, e.Metric.Selector, e.Target.Value, e.Target.AverageValue}
	}
	return out
}

func metricSpecFromV1(m metricSpecV1) metricSpecV2 {
	out := metricSpecV2{Type: m.Type}
	if o := m.Object; o != nil {
		t := metricTarget{Type: "Value", Value: ptr(orZero(&o.TargetValue)), AverageValue: o.AverageValue}
		if o.AverageValue != nil {
			// v1 cannot leave targetValue out: a zero one beside an average means none.
			t.Type, t.Value = "AverageValue", nil
			if !isZeroQuantity(orZero(&o.TargetValue)) {
				t.Value = ptr(o.TargetValue)
			}
		}
		out.Object = &objectSourceV2{DescribedObject: o.Target, Target: t, Metric: metricIdentifier{o.MetricName, o.Selector}}
	}
	if p := m.Pods; p != nil {
		out.Pods = &podsSourceV2{Metric: metricIdentifier{p.MetricName, p.Selector},
			Target: metricTarget{Type: "AverageValue", AverageValue: ptr(orZero(&p.TargetAverageValue))}}
	}
	if r := m.Resource; r != nil {
		out.Resource = &resourceSourceV2{Name: r.Name, Target: resourceTarget(*r)}
	}
	if c := m.ContainerResource; c != nil {
		out.ContainerResource = &containerResourceSourceV2{Name: c.Name, Target: resourceTarget(c.resourceSourceV1), Container: c.Container}
	}
	if e := m.External; e != nil {
		t := metricTarget{Type: "Value", Value: e.TargetValue, AverageValue: e.TargetAverageValue}
		if e.TargetValue == nil {
			t.Type = "AverageValue"
		}
		out.External = &externalSourceV2{Metric: metricIdentifier{e.MetricName, e.MetricSelector}, Target: t}
	}
	return out
}

// resourceTarget mirrors Convert_v1_ResourceMetricSource_To_autoscaling_ResourceMetricSource's target.
func resourceTarget(r resourceSourceV1) metricTarget {
	t := metricTarget{Type: "Utilization", AverageValue: r.TargetAverageValue, AverageUtilization: r.TargetAverageUtilization}
	if r.TargetAverageUtilization == nil {
		t.Type = "AverageValue"
	}
	return t
}

func metricStatusToV1(m metricStatusV2) metricStatusV1 {
	out := metricStatusV1{Type: m.Type}
	if o := m.Object; o != nil {
		out.Object = &struct {
			Target       crossVersionObjectReference `json:"target"`
			MetricName   string                      `json:"metricName"`
			CurrentValue quantity                    `json:"currentValue"`
			Selector     *labelSelector              `json:"selector,omitempty"`
			AverageValue *quantity                   `json:"averageValue,omitempty"`
		}{o.DescribedObject, o.Metric.Name, orZero(o.Current.Value), o.Metric.Selector, o.Current.AverageValue}
	}
	if p := m.Pods; p != nil {
		out.Pods = &struct {
			MetricName          string         `json:"metricName"`
			CurrentAverageValue quantity       `json:"currentAverageValue"`
			Selector            *labelSelector `json:"selector,omitempty"`
		}{p.Metric.Name, orZero(p.Current.AverageValue), p.Metric.Selector}
	}
	if r := m.Resource; r != nil {
		out.Resource = &resourceStatusV1{r.Name, r.Current.AverageUtilization, orZero(r.Current.AverageValue)}
	}
	if c := m.ContainerResource; c != nil {
		out.ContainerResource = &struct {
			resourceStatusV1
			Container string `json:"container"`
		}{resourceStatusV1{c.Name, c.Current.AverageUtilization, orZero(c.Current.AverageValue)}, c.Container}
	}
	if e := m.External; e != nil {
		out.External = &struct {
			MetricName          string         `json:"metricName"`
			MetricSelector      *labelSelector `json:"metricSelector,omitempty"`
			CurrentValue        quantity       `json:"currentValue"`
			CurrentAverageValue *quantity      `json:"currentAverageValue,omitempty"`
		}{e.Metric.Name, e.Metric.Selector, orZero(e.Current.Value), e.Current.AverageValue}
	}
	return out
}

func metricStatusFromV1(m metricStatusV1) metricStatusV2 {
	out := metricStatusV2{Type: m.Type}
	if o := m.Object; o != nil {
		out.Object = &objectStatusV2{Metric: metricIdentifier{o.MetricName, o.Selector},
			Current:         metricValueStatus{Value: ptr(orZero(&o.CurrentValue)), AverageValue: o.AverageValue},
			DescribedObject: o.Target}
	}
	if p := m.Pods; p != nil {
		out.Pods = &podsStatusV2{Metric: metricIdentifier{p.MetricName, p.Selector},
			Current: metricValueStatus{AverageValue: ptr(orZero(&p.CurrentAverageValue))}}
	}
	if r := m.Resource; r != nil {
		out.Resource = &resourceStatusV2{Name: r.Name, Current: metricValueStatus{
			AverageValue: ptr(orZero(&r.CurrentAverageValue)), AverageUtilization: r.CurrentAverageUtilization}}
	}
	if c := m.ContainerResource; c != nil {
		out.ContainerResource = &containerResourceStatusV2{Name: c.Name, Container: c.Container, Current: metricValueStatus{
			AverageValue: ptr(orZero(&c.CurrentAverageValue)), AverageUtilization: c.CurrentAverageUtilization}}
	}
	if e := m.External; e != nil {
		out.External = &externalStatusV2{Metric: metricIdentifier{e.MetricName, e.MetricSelector},
			Current: metricValueStatus{Value: ptr(orZero(&e.CurrentValue)), AverageValue: e.CurrentAverageValue}}
	}
	return out
}
