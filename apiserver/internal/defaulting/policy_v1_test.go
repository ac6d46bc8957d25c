package defaulting

import "testing"

// policyCases are the kinds of policy_v1.go, and those served without defaults.
var policyCases = []defaultCase{
	{
		name: "limit range container defaults", version: "v1", kind: "LimitRange",
		in: `{"spec":{"limits":[{"type":"Container","max":{"cpu":"1","memory":"1Gi"},"min":{"cpu":"100m"},"default":{"memory":"512Mi"}},
			{"type":"Pod","max":{"cpu":"2"}}]}}`,
		want: `{"spec":{"limits":[{"type":"Container","max":{"cpu":"1","memory":"1Gi"},"min":{"cpu":"100m"},
			"default":{"cpu":"1","memory":"512Mi"},"defaultRequest":{"cpu":"1","memory":"512Mi"}},{"type":"Pod","max":{"cpu":"2"}}]}}`,
	},
	{
		name: "limit range min only", version: "v1", kind: "LimitRange",
		in:   `{"spec":{"limits":[{"type":"Container","min":{"cpu":"100m"}},{"type":"Container"}]}}`,
		want: `{"spec":{"limits":[{"type":"Container","min":{"cpu":"100m"},"defaultRequest":{"cpu":"100m"}},{"type":"Container"}]}}`,
	},
	{
		name: "hpa v2 without metrics", group: "autoscaling", version: "v2", kind: "HorizontalPodAutoscaler",
		in: `{"spec":{"scaleTargetRef":{"kind":"Deployment","name":"web","apiVersion":"apps/v1"},"maxReplicas":5}}`,
		want: `{"spec":{"scaleTargetRef":{"kind":"Deployment","name":"web","apiVersion":"apps/v1"},"maxReplicas":5,"minReplicas":1,
			"metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":80}}}]}}`,
	},
	{
		name: "hpa v2 behavior filled in", group: "autoscaling", version: "v2", kind: "HorizontalPodAutoscaler",
		in: `{"spec":{"minReplicas":0,"maxReplicas":3,"metrics":[{"type":"Pods"}],"behavior":{"scaleDown":{"stabilizationWindowSeconds":300}}}}`,
		want: `{"spec":{"minReplicas":0,"maxReplicas":3,"metrics":[{"type":"Pods"}],"behavior":{
			"scaleUp":{"stabilizationWindowSeconds":0,"selectPolicy":"Max","policies":[{"type":"Pods","value":4,"periodSeconds":15},{"type":"Percent","value":100,"periodSeconds":15}]},
			"scaleDown":{"stabilizationWindowSeconds":300,"selectPolicy":"Max","policies":[{"type":"Percent","value":100,"periodSeconds":15}]}}}}`,
	},
	{
		name: "hpa v1 min replicas", group: "autoscaling", version: "v1", kind: "HorizontalPodAutoscaler",
		in:   `{"spec":{"maxReplicas":5,"targetCPUUtilizationPercentage":50}}`,
		want: `{"spec":{"maxReplicas":5,"targetCPUUtilizationPercentage":50,"minReplicas":1}}`,
	},
	{
		name: "priority class preemption policy", group: "scheduling.k8s.io", version: "v1", kind: "PriorityClass",
		in:   `{"value":1000}`,
		want: `{"value":1000,"preemptionPolicy":"PreemptLowerPriority"}`,
	},
	{name: "resource quota has none", version: "v1", kind: "ResourceQuota", in: `{"spec":{"hard":{"pods":"10"}}}`, want: `{"spec":{"hard":{"pods":"10"}}}`},
	{name: "component status has none", version: "v1", kind: "ComponentStatus", in: `{"conditions":[]}`, want: `{"conditions":[]}`},
	{name: "binding has none", version: "v1", kind: "Binding", in: `{"target":{"name":"n"}}`, want: `{"target":{"name":"n"}}`},
	{name: "controller revision has none", group: "apps", version: "v1", kind: "ControllerRevision", in: `{"revision":1}`, want: `{"revision":1}`},
	{name: "pdb has none", group: "policy", version: "v1", kind: "PodDisruptionBudget", in: `{"spec":{"minAvailable":1}}`, want: `{"spec":{"minAvailable":1}}`},
}

// TestCh01_Defaulting_PolicyKinds covers LimitRange, HorizontalPodAutoscaler (v2 and v1),
// PriorityClass and the served kinds without defaults.
func TestCh01_Defaulting_PolicyKinds(t *testing.T) { runCases(t, policyCases) }
