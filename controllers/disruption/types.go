package disruption

import (
	"github.com/informer-lab/informer-lab/controllers/app"
)

// pdbSpec is policy/v1 PodDisruptionBudgetSpec's JSON shape.
type pdbSpec struct {
	MinAvailable   *app.IntOrString   `json:"minAvailable,omitempty"`
	MaxUnavailable *app.IntOrString   `json:"maxUnavailable,omitempty"`
	Selector       *app.LabelSelector `json:"selector,omitempty"`
}

// condition is metav1.Condition's JSON shape.
type condition struct {
	Type               string `json:"type"`
	Status             string `json:"status"`
	ObservedGeneration int64  `json:"observedGeneration,omitempty"`
	LastTransitionTime string `json:"lastTransitionTime"`
	Reason             string `json:"reason"`
	Message            string `json:"message"`
}

// pdbStatus is policy/v1 PodDisruptionBudgetStatus's JSON shape.
type pdbStatus struct {
	ObservedGeneration int64             `json:"observedGeneration,omitempty"`
	DisruptedPods      map[string]string `json:"disruptedPods,omitempty"`
	DisruptionsAllowed int32             `json:"disruptionsAllowed"`
	CurrentHealthy     int32             `json:"currentHealthy"`
	DesiredHealthy     int32             `json:"desiredHealthy"`
	ExpectedPods       int32             `json:"expectedPods"`
	Conditions         []condition       `json:"conditions,omitempty"`
}

// pdb is policy/v1 PodDisruptionBudget's JSON shape.
type pdb struct {
	Spec   pdbSpec   `json:"spec"`
	Status pdbStatus `json:"status"`
}

// The condition and its reasons (policy/v1).
const (
	disruptionAllowedCondition = "DisruptionAllowed"
	sufficientPodsReason       = "SufficientPods"
	insufficientPodsReason     = "InsufficientPods"
	syncFailedReason           = "SyncFailed"
)

// setStatusCondition mirrors apimeta.SetStatusCondition: the transition time moves only when
// the status does.
func setStatusCondition(conds []condition, c condition) []condition {
	for i := range conds {
		if conds[i].Type != c.Type {
			continue
		}
		if conds[i].Status == c.Status {
			c.LastTransitionTime = conds[i].LastTransitionTime
		}
		conds[i] = c
		return conds
	}
	return append(conds, c)
}

// findCondition mirrors apimeta.FindStatusCondition.
func findCondition(conds []condition, t string) *condition {
	for i := range conds {
		if conds[i].Type == t {
			return &conds[i]
		}
	}
	return nil
}
