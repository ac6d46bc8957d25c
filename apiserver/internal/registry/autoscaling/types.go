package autoscaling

import "encoding/json"

// The autoscaling/v2 and autoscaling/v1 HorizontalPodAutoscaler as encoding/json writes
// their k8s.io/api Go types: members in the structs' order, omitempty where they have it.
// Conversion reads a stored tree into the v2 form, converts, and writes the result back
// out, so every member the real server always writes (maxReplicas, desiredReplicas, a
// null currentMetrics, …) is there, and the annotations v1 keeps its extra data in hold
// the very bytes the real server puts there.

// quantity is a resource.Quantity member, kept as the JSON it came as.
type quantity = json.RawMessage

// zeroQuantity is how a zero resource.Quantity is written.
var zeroQuantity = quantity(`"0"`)

// labelSelector is metav1.LabelSelector.
type labelSelector struct {
	MatchLabels      map[string]string `json:"matchLabels,omitempty"`
	MatchExpressions []struct {
		Key      string   `json:"key"`
		Operator string   `json:"operator"`
		Values   []string `json:"values,omitempty"`
	} `json:"matchExpressions,omitempty"`
}

type crossVersionObjectReference struct {
	Kind       string `json:"kind"`
	Name       string `json:"name"`
	APIVersion string `json:"apiVersion,omitempty"`
}

// hpaV2 is autoscaling/v2 HorizontalPodAutoscaler, the stored version.
type hpaV2 struct {
	Kind       string          `json:"kind,omitempty"`
	APIVersion string          `json:"apiVersion,omitempty"`
	Metadata   json.RawMessage `json:"metadata,omitempty"`
	Spec       specV2          `json:"spec"`
	Status     statusV2        `json:"status"`
}

type specV2 struct {
	ScaleTargetRef crossVersionObjectReference `json:"scaleTargetRef"`
	MinReplicas    *int64                      `json:"minReplicas,omitempty"`
	MaxReplicas    int64                       `json:"maxReplicas"`
	Metrics        []metricSpecV2              `json:"metrics,omitempty"`
	Behavior       *behaviorV2                 `json:"behavior,omitempty"`
}

type behaviorV2 struct {
	ScaleUp   *scalingRulesV2 `json:"scaleUp,omitempty"`
	ScaleDown *scalingRulesV2 `json:"scaleDown,omitempty"`
}

type scalingRulesV2 struct {
	StabilizationWindowSeconds *int64          `json:"stabilizationWindowSeconds,omitempty"`
	SelectPolicy               *string         `json:"selectPolicy,omitempty"`
	Policies                   []scalingPolicy `json:"policies,omitempty"`
	Tolerance                  *quantity       `json:"tolerance,omitempty"`
}

type scalingPolicy struct {
	Type          string `json:"type"`
	Value         int64  `json:"value"`
	PeriodSeconds int64  `json:"periodSeconds"`
}

type metricSpecV2 struct {
	Type              string                     `json:"type"`
	Object            *objectSourceV2            `json:"object,omitempty"`
	Pods              *podsSourceV2              `json:"pods,omitempty"`
	Resource          *resourceSourceV2          `json:"resource,omitempty"`
	ContainerResource *containerResourceSourceV2 `json:"containerResource,omitempty"`
	External          *externalSourceV2          `json:"external,omitempty"`
}

type metricIdentifier struct {
	Name     string         `json:"name"`
	Selector *labelSelector `json:"selector,omitempty"`
}

type metricTarget struct {
	Type               string    `json:"type"`
	Value              *quantity `json:"value,omitempty"`
	AverageValue       *quantity `json:"averageValue,omitempty"`
	AverageUtilization *int64    `json:"averageUtilization,omitempty"`
}

type objectSourceV2 struct {
	DescribedObject crossVersionObjectReference `json:"describedObject"`
	Target          metricTarget                `json:"target"`
	Metric          metricIdentifier            `json:"metric"`
}

type podsSourceV2 struct {
	Metric metricIdentifier `json:"metric"`
	Target metricTarget     `json:"target"`
}

type resourceSourceV2 struct {
	Name   string       `json:"name"`
	Target metricTarget `json:"target"`
}

type containerResourceSourceV2 struct {
	Name      string       `json:"name"`
	Target    metricTarget `json:"target"`
	Container string       `json:"container"`
}

type externalSourceV2 struct {
	Metric metricIdentifier `json:"metric"`
	Target metricTarget     `json:"target"`
}

type statusV2 struct {
	ObservedGeneration *int64           `json:"observedGeneration,omitempty"`
	LastScaleTime      *string          `json:"lastScaleTime,omitempty"`
	CurrentReplicas    int64            `json:"currentReplicas,omitempty"`
	DesiredReplicas    int64            `json:"desiredReplicas"`
	CurrentMetrics     []metricStatusV2 `json:"currentMetrics"`
	Conditions         []condition      `json:"conditions,omitempty"`
}

// condition is HorizontalPodAutoscalerCondition, the same at both versions. A zero
// metav1.Time is written as null even under omitempty.
type condition struct {
	Type               string  `json:"type"`
	Status             string  `json:"status"`
	LastTransitionTime *string `json:"lastTransitionTime"`
	Reason             string  `json:"reason,omitempty"`
	Message            string  `json:"message,omitempty"`
}

type metricStatusV2 struct {
	Type              string                     `json:"type"`
	Object            *objectStatusV2            `json:"object,omitempty"`
	Pods              *podsStatusV2              `json:"pods,omitempty"`
	Resource          *resourceStatusV2          `json:"resource,omitempty"`
	ContainerResource *containerResourceStatusV2 `json:"containerResource,omitempty"`
	External          *externalStatusV2          `json:"external,omitempty"`
}

type metricValueStatus struct {
	Value              *quantity `json:"value,omitempty"`
	AverageValue       *quantity `json:"averageValue,omitempty"`
	AverageUtilization *int64    `json:"averageUtilization,omitempty"`
}

type objectStatusV2 struct {
	Metric          metricIdentifier            `json:"metric"`
	Current         metricValueStatus           `json:"current"`
	DescribedObject crossVersionObjectReference `json:"describedObject"`
}

type podsStatusV2 struct {
	Metric  metricIdentifier  `json:"metric"`
	Current metricValueStatus `json:"current"`
}

type resourceStatusV2 struct {
	Name    string            `json:"name"`
	Current metricValueStatus `json:"current"`
}

type containerResourceStatusV2 struct {
	Name      string            `json:"name"`
	Current   metricValueStatus `json:"current"`
	Container string            `json:"container"`
}

type externalStatusV2 struct {
	Metric  metricIdentifier  `json:"metric"`
	Current metricValueStatus `json:"current"`
}

// hpaV1 is autoscaling/v1 HorizontalPodAutoscaler.
type hpaV1 struct {
	Kind       string          `json:"kind,omitempty"`
	APIVersion string          `json:"apiVersion,omitempty"`
	Metadata   json.RawMessage `json:"metadata,omitempty"`
	Spec       struct {
		ScaleTargetRef                 crossVersionObjectReference `json:"scaleTargetRef"`
		MinReplicas                    *int64                      `json:"minReplicas,omitempty"`
		MaxReplicas                    int64                       `json:"maxReplicas"`
		TargetCPUUtilizationPercentage *int64                      `json:"targetCPUUtilizationPercentage,omitempty"`
	} `json:"spec"`
	Status struct {
		ObservedGeneration              *int64  `json:"observedGeneration,omitempty"`
		LastScaleTime                   *string `json:"lastScaleTime,omitempty"`
		CurrentReplicas                 int64   `json:"currentReplicas"`
		DesiredReplicas                 int64   `json:"desiredReplicas"`
		CurrentCPUUtilizationPercentage *int64  `json:"currentCPUUtilizationPercentage,omitempty"`
	} `json:"status"`
}

// metricSpecV1 is autoscaling/v1 MetricSpec, the element of the metrics annotation.
type metricSpecV1 struct {
	Type   string `json:"type"`
	Object *struct {
		Target       crossVersionObjectReference `json:"target"`
		MetricName   string                      `json:"metricName"`
		TargetValue  quantity                    `json:"targetValue"`
		Selector     *labelSelector              `json:"selector,omitempty"`
		AverageValue *quantity                   `json:"averageValue,omitempty"`
	} `json:"object,omitempty"`
	Pods *struct {
		MetricName         string         `json:"metricName"`
		TargetAverageValue quantity       `json:"targetAverageValue"`
		Selector           *labelSelector `json:"selector,omitempty"`
	} `json:"pods,omitempty"`
	Resource          *resourceSourceV1 `json:"resource,omitempty"`
	ContainerResource *struct {
		resourceSourceV1
		Container string `json:"container"`
	} `json:"containerResource,omitempty"`
	External *struct {
		MetricName         string         `json:"metricName"`
		MetricSelector     *labelSelector `json:"metricSelector,omitempty"`
		TargetValue        *quantity      `json:"targetValue,omitempty"`
		TargetAverageValue *quantity      `json:"targetAverageValue,omitempty"`
	} `json:"external,omitempty"`
}

type resourceSourceV1 struct {
	Name                     string    `json:"name"`
	TargetAverageUtilization *int64    `json:"targetAverageUtilization,omitempty"`
	TargetAverageValue       *quantity `json:"targetAverageValue,omitempty"`
}

// metricStatusV1 is autoscaling/v1 MetricStatus, the element of the current-metrics annotation.
type metricStatusV1 struct {
	Type   string `json:"type"`
	Object *struct {
		Target       crossVersionObjectReference `json:"target"`
		MetricName   string                      `json:"metricName"`
		CurrentValue quantity                    `json:"currentValue"`
		Selector     *labelSelector              `json:"selector,omitempty"`
		AverageValue *quantity                   `json:"averageValue,omitempty"`
	} `json:"object,omitempty"`
	Pods *struct {
		MetricName          string         `json:"metricName"`
		CurrentAverageValue quantity       `json:"currentAverageValue"`
		Selector            *labelSelector `json:"selector,omitempty"`
	} `json:"pods,omitempty"`
	Resource          *resourceStatusV1 `json:"resource,omitempty"`
	ContainerResource *struct {
		resourceStatusV1
		Container string `json:"container"`
	} `json:"containerResource,omitempty"`
	External *struct {
		MetricName          string         `json:"metricName"`
		MetricSelector      *labelSelector `json:"metricSelector,omitempty"`
		CurrentValue        quantity       `json:"currentValue"`
		CurrentAverageValue *quantity      `json:"currentAverageValue,omitempty"`
	} `json:"external,omitempty"`
}

type resourceStatusV1 struct {
	Name                      string   `json:"name"`
	CurrentAverageUtilization *int64   `json:"currentAverageUtilization,omitempty"`
	CurrentAverageValue       quantity `json:"currentAverageValue"`
}

// behaviorInternal is the internal HorizontalPodAutoscalerBehavior, which v1 keeps in an
// annotation as encoding/json writes it: no json tags, so Go's field names, and null for
// every unset pointer and slice.
type behaviorInternal struct {
	ScaleUp   *rulesInternal
	ScaleDown *rulesInternal
}

type rulesInternal struct {
	StabilizationWindowSeconds *int64
	SelectPolicy               *string
	Policies                   []policyInternal
	Tolerance                  *quantity
}

type policyInternal struct {
	Type          string
	Value         int64
	PeriodSeconds int64
}
