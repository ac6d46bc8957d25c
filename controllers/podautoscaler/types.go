package podautoscaler

// The JSON shapes of autoscaling/v2 the controller reads and writes.

type crossVersionObjectReference struct {
	Kind       string `json:"kind"`
	Name       string `json:"name"`
	APIVersion string `json:"apiVersion,omitempty"`
}

type metricTarget struct {
	Type               string  `json:"type"`
	Value              *string `json:"value,omitempty"`
	AverageValue       *string `json:"averageValue,omitempty"`
	AverageUtilization *int32  `json:"averageUtilization,omitempty"`
}

type resourceMetricSource struct {
	Name   string       `json:"name"`
	Target metricTarget `json:"target"`
}

type metricIdentifier struct {
	Name string `json:"name"`
}

type podsMetricSource struct {
	Metric metricIdentifier `json:"metric"`
	Target metricTarget     `json:"target"`
}

type metricSpec struct {
	Type     string                `json:"type"`
	Resource *resourceMetricSource `json:"resource,omitempty"`
	Pods     *podsMetricSource     `json:"pods,omitempty"`
}

type scalingPolicy struct {
	Type          string `json:"type"`
	Value         int32  `json:"value"`
	PeriodSeconds int32  `json:"periodSeconds"`
}

type scalingRules struct {
	StabilizationWindowSeconds *int32          `json:"stabilizationWindowSeconds,omitempty"`
	SelectPolicy               *string         `json:"selectPolicy,omitempty"`
	Policies                   []scalingPolicy `json:"policies,omitempty"`
}

type behavior struct {
	ScaleUp   *scalingRules `json:"scaleUp,omitempty"`
	ScaleDown *scalingRules `json:"scaleDown,omitempty"`
}

type hpaSpec struct {
	ScaleTargetRef crossVersionObjectReference `json:"scaleTargetRef"`
	MinReplicas    *int32                      `json:"minReplicas,omitempty"`
	MaxReplicas    int32                       `json:"maxReplicas"`
	Metrics        []metricSpec                `json:"metrics,omitempty"`
	Behavior       *behavior                   `json:"behavior,omitempty"`
}

type metricValueStatus struct {
	Value              *string `json:"value,omitempty"`
	AverageValue       *string `json:"averageValue,omitempty"`
	AverageUtilization *int32  `json:"averageUtilization,omitempty"`
}

type resourceMetricStatus struct {
	Name    string            `json:"name"`
	Current metricValueStatus `json:"current"`
}

type podsMetricStatus struct {
	Metric  metricIdentifier  `json:"metric"`
	Current metricValueStatus `json:"current"`
}

type metricStatus struct {
	Type     string                `json:"type"`
	Resource *resourceMetricStatus `json:"resource,omitempty"`
	Pods     *podsMetricStatus     `json:"pods,omitempty"`
}

type hpaCondition struct {
	Type               string `json:"type"`
	Status             string `json:"status"`
	LastTransitionTime string `json:"lastTransitionTime,omitempty"`
	Reason             string `json:"reason,omitempty"`
	Message            string `json:"message,omitempty"`
}

type hpaStatus struct {
	ObservedGeneration *int64         `json:"observedGeneration,omitempty"`
	LastScaleTime      *string        `json:"lastScaleTime,omitempty"`
	CurrentReplicas    int32          `json:"currentReplicas,omitempty"`
	DesiredReplicas    int32          `json:"desiredReplicas"`
	CurrentMetrics     []metricStatus `json:"currentMetrics,omitempty"`
	Conditions         []hpaCondition `json:"conditions,omitempty"`
}

type hpa struct {
	Spec   hpaSpec   `json:"spec"`
	Status hpaStatus `json:"status"`
}

// The condition types (autoscaling/v2).
const (
	ableToScale    = "AbleToScale"
	scalingActive  = "ScalingActive"
	scalingLimited = "ScalingLimited"
)
