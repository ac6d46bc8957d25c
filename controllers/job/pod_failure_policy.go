package job

import (
	"fmt"
	"slices"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
)

// podFailurePolicy is batch/v1 PodFailurePolicy.
type podFailurePolicy struct {
	Rules []podFailurePolicyRule `json:"rules"`
}

type podFailurePolicyRule struct {
	Action          string                   `json:"action"`
	OnExitCodes     *onExitCodesRequirement  `json:"onExitCodes,omitempty"`
	OnPodConditions []onPodConditionsPattern `json:"onPodConditions,omitempty"`
}

type onExitCodesRequirement struct {
	ContainerName *string `json:"containerName,omitempty"`
	Operator      string  `json:"operator"`
	Values        []int64 `json:"values"`
}

type onPodConditionsPattern struct {
	Type   string `json:"type"`
	Status string `json:"status"`
}

// matchPodFailurePolicy mirrors matchPodFailurePolicy: the first rule that matches the
// failed pod decides. It returns the Job's failure message for FailJob, whether the
// failure counts against backoffLimit, and the action taken ("" when no rule matched).
// FailIndex needs backoffLimitPerIndex, which this controller leaves out: it counts.
func matchPodFailurePolicy(pfp *podFailurePolicy, pod *api.Unstructured) (*string, bool, string) {
	if pfp == nil {
		return nil, true, ""
	}
	for i, r := range pfp.Rules {
		var msg string
		switch {
		case r.OnExitCodes != nil:
			name, code, ok := matchOnExitCodes(pod, r.OnExitCodes)
			if !ok {
				continue
			}
			msg = fmt.Sprintf("Container %s for pod %s/%s failed with exit code %v matching %v rule at index %d",
				name, pod.GetNamespace(), pod.GetName(), code, r.Action, i)
		case r.OnPodConditions != nil:
			ct, ok := matchOnPodConditions(pod, r.OnPodConditions)
			if !ok {
				continue
			}
			msg = fmt.Sprintf("Pod %s/%s has condition %v matching %v rule at index %d",
				pod.GetNamespace(), pod.GetName(), ct, r.Action, i)
		default:
			continue
		}
		switch r.Action {
		case "Ignore":
			return nil, false, r.Action
		case "Count", "FailIndex":
			return nil, true, r.Action
		case "FailJob":
			return &msg, true, r.Action
		}
	}
	return nil, true, ""
}

// matchOnExitCodes mirrors matchOnExitCodes: a terminated container (then init container)
// with a non-zero exit code the requirement selects.
func matchOnExitCodes(pod *api.Unstructured, req *onExitCodesRequirement) (string, int64, bool) {
	for _, field := range []string{"containerStatuses", "initContainerStatuses"} {
		for _, cs := range containerStatuses(pod, field) {
			term := app.NestedMap(cs, "state", "terminated")
			if term == nil {
				continue
			}
			name, _ := cs["name"].(string)
			if req.ContainerName != nil && *req.ContainerName != name {
				continue
			}
			code, _ := app.NestedInt64(term, "exitCode")
			if code == 0 {
				continue
			}
			in := slices.Contains(req.Values, code)
			if (req.Operator == "In" && in) || (req.Operator == "NotIn" && !in) {
				return name, code, true
			}
		}
	}
	return "", 0, false
}

// matchOnPodConditions mirrors matchOnPodConditions.
func matchOnPodConditions(pod *api.Unstructured, patterns []onPodConditionsPattern) (string, bool) {
	for _, c := range conditionList(pod) {
		for _, p := range patterns {
			if c["type"] == p.Type && c["status"] == p.Status {
				t, _ := c["type"].(string)
				return t, true
			}
		}
	}
	return "", false
}

// getFailJobMessage mirrors getFailJobMessage: the first failed pod a FailJob rule matches.
func getFailJobMessage(j *job, pods []*api.Unstructured) *string {
	if j.Spec.PodFailurePolicy == nil {
		return nil
	}
	for _, p := range pods {
		if isPodFailed(p, j) {
			if msg, _, _ := matchPodFailurePolicy(j.Spec.PodFailurePolicy, p); msg != nil {
				return msg
			}
		}
	}
	return nil
}
