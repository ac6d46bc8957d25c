package autoscaling

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

func tree(t *testing.T, s string) map[string]any {
	t.Helper()
	var u api.Unstructured
	require.NoError(t, u.UnmarshalJSON([]byte(s)), s)
	return u.Object
}

// storedV2 is a stored autoscaling/v2 object with one metric of every type, a behavior, and a
// status with current metrics and a condition. The v1 annotations below are what a real
// kube-apiserver v1.36.3 answered for it at autoscaling/v1.
const storedV2 = `{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler",
"metadata":{"name":"h2","namespace":"ns","annotations":{"keep":"me"}},
"spec":{"scaleTargetRef":{"kind":"Deployment","name":"web","apiVersion":"apps/v1"},"minReplicas":2,"maxReplicas":10,
"metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":60}}},
{"type":"Resource","resource":{"name":"memory","target":{"type":"AverageValue","averageValue":"500Mi"}}},
{"type":"Pods","pods":{"metric":{"name":"packets"},"target":{"type":"AverageValue","averageValue":"1k"}}},
{"type":"Object","object":{"describedObject":{"kind":"Ingress","name":"main","apiVersion":"networking.k8s.io/v1"},"target":{"type":"Value","value":"10k"},"metric":{"name":"requests"}}},
{"type":"External","external":{"metric":{"name":"queue","selector":{"matchLabels":{"q":"a"}}},"target":{"type":"AverageValue","averageValue":"30"}}},
{"type":"ContainerResource","containerResource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":70},"container":"app"}}],
"behavior":{"scaleUp":{"stabilizationWindowSeconds":0,"selectPolicy":"Max","policies":[{"type":"Pods","value":4,"periodSeconds":15},{"type":"Percent","value":100,"periodSeconds":15}],"tolerance":"50m"},
"scaleDown":{"stabilizationWindowSeconds":300,"selectPolicy":"Max","policies":[{"type":"Percent","value":10,"periodSeconds":60}]}}},
"status":{"currentReplicas":3,"desiredReplicas":4,
"currentMetrics":[{"type":"Resource","resource":{"name":"cpu","current":{"averageValue":"120m","averageUtilization":42}}},
{"type":"Pods","pods":{"metric":{"name":"packets"},"current":{"averageValue":"900"}}},
{"type":"External","external":{"metric":{"name":"queue"},"current":{"averageValue":"12"}}}],
"conditions":[{"type":"AbleToScale","status":"True","lastTransitionTime":"2026-01-01T00:00:00Z","reason":"ReadyForNewScale"}]}}`

var wantV1Annotations = map[string]any{
	"keep": "me",
	"autoscaling.alpha.kubernetes.io/behavior": `{"ScaleUp":{"StabilizationWindowSeconds":0,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":4,"PeriodSeconds":15},` +
		`{"Type":"Percent","Value":100,"PeriodSeconds":15}],"Tolerance":"50m"},"ScaleDown":{"StabilizationWindowSeconds":300,"SelectPolicy":"Max",` +
		`"Policies":[{"Type":"Percent","Value":10,"PeriodSeconds":60}],"Tolerance":null}}`,
	"autoscaling.alpha.kubernetes.io/conditions": `[{"type":"AbleToScale","status":"True","lastTransitionTime":"2026-01-01T00:00:00Z","reason":"ReadyForNewScale"}]`,
	"autoscaling.alpha.kubernetes.io/current-metrics": `[{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":42,"currentAverageValue":"120m"}},` +
		`{"type":"Pods","pods":{"metricName":"packets","currentAverageValue":"900"}},` +
		`{"type":"External","external":{"metricName":"queue","currentValue":"0","currentAverageValue":"12"}}]`,
	"autoscaling.alpha.kubernetes.io/metrics": `[{"type":"Resource","resource":{"name":"memory","targetAverageValue":"500Mi"}},` +
		`{"type":"Pods","pods":{"metricName":"packets","targetAverageValue":"1k"}},` +
		`{"type":"Object","object":{"target":{"kind":"Ingress","name":"main","apiVersion":"networking.k8s.io/v1"},"metricName":"requests","targetValue":"10k"}},` +
		`{"type":"External","external":{"metricName":"queue","metricSelector":{"matchLabels":{"q":"a"}},"targetAverageValue":"30"}},` +
		`{"type":"ContainerResource","containerResource":{"name":"cpu","targetAverageUtilization":70,"container":"app"}}]`,
}

// TestCh01_HPAConversion_ToV1 checks ToV1 against the real server's answer: the CPU
// utilization in its field, everything else in annotations, byte for byte.
func TestCh01_HPAConversion_ToV1(t *testing.T) {
	obj := tree(t, storedV2)
	ToV1(obj)
	want := tree(t, `{"apiVersion":"autoscaling/v1","kind":"HorizontalPodAutoscaler","metadata":{"name":"h2","namespace":"ns"},
		"spec":{"scaleTargetRef":{"kind":"Deployment","name":"web","apiVersion":"apps/v1"},"minReplicas":2,"maxReplicas":10,"targetCPUUtilizationPercentage":60},
		"status":{"currentReplicas":3,"desiredReplicas":4,"currentCPUUtilizationPercentage":42}}`)
	want["metadata"].(map[string]any)["annotations"] = wantV1Annotations
	if d := cmp.Diff(want, obj); d != "" {
		t.Errorf("ToV1 (-want +got):\n%s", d)
	}
}

// TestCh01_HPAConversion_RoundTrip checks FromV1 on ToV1's answer: the stored object comes
// back whole, the annotations gone, as a v1 client's read-modify-write leaves it.
func TestCh01_HPAConversion_RoundTrip(t *testing.T) {
	obj := tree(t, storedV2)
	ToV1(obj)
	FromV1(obj)
	want := tree(t, storedV2)
	CanonicalV2(want)
	// v1 keeps the CPU target in its field, which comes back after the annotated metrics.
	metrics := want["spec"].(map[string]any)["metrics"].([]any)
	want["spec"].(map[string]any)["metrics"] = append(metrics[1:], metrics[0])
	// The current metrics come back from the annotation, with the quantities v1 always writes.
	current := want["status"].(map[string]any)["currentMetrics"].([]any)
	current[2].(map[string]any)["external"].(map[string]any)["current"].(map[string]any)["value"] = "0"
	if d := cmp.Diff(want, obj); d != "" {
		t.Errorf("FromV1(ToV1(x)) (-want +got):\n%s", d)
	}
}

// TestCh01_HPAConversion_FromV1 checks the v1 side alone: the CPU target, the default of 80%
// when there is no metric, the status CPU utilization, and annotations that do not parse.
func TestCh01_HPAConversion_FromV1(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{
			"cpu target",
			`{"apiVersion":"autoscaling/v1","kind":"HorizontalPodAutoscaler","metadata":{"name":"h"},
			"spec":{"scaleTargetRef":{"kind":"Deployment","name":"web","apiVersion":"apps/v1"},"maxReplicas":5,"targetCPUUtilizationPercentage":50},
			"status":{"currentReplicas":1,"desiredReplicas":2,"currentCPUUtilizationPercentage":30}}`,
			`{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"h"},
			"spec":{"scaleTargetRef":{"kind":"Deployment","name":"web","apiVersion":"apps/v1"},"maxReplicas":5,
			"metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":50}}}]},
			"status":{"currentReplicas":1,"desiredReplicas":2,"currentMetrics":[{"type":"Resource","resource":{"name":"cpu","current":{"averageUtilization":30}}}]}}`,
		},
		{
			"no metric: 80% CPU; a broken annotation is dropped",
			`{"apiVersion":"autoscaling/v1","kind":"HorizontalPodAutoscaler","metadata":{"name":"h","annotations":{"autoscaling.alpha.kubernetes.io/metrics":"not json"}},
			"spec":{"scaleTargetRef":{"kind":"ReplicationController","name":"rc"},"minReplicas":1,"maxReplicas":3}}`,
			`{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"h"},
			"spec":{"scaleTargetRef":{"kind":"ReplicationController","name":"rc"},"minReplicas":1,"maxReplicas":3,
			"metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":80}}}]},
			"status":{"desiredReplicas":0,"currentMetrics":null}}`,
		},
		{
			"object metric with an average: a zero targetValue means none",
			`{"apiVersion":"autoscaling/v1","kind":"HorizontalPodAutoscaler","metadata":{"name":"h","annotations":{
			"autoscaling.alpha.kubernetes.io/metrics":"[{\"type\":\"Object\",\"object\":{\"target\":{\"kind\":\"Service\",\"name\":\"s\"},\"metricName\":\"rps\",\"targetValue\":\"0\",\"averageValue\":\"5\"}}]"}},
			"spec":{"scaleTargetRef":{"kind":"Deployment","name":"web","apiVersion":"apps/v1"},"maxReplicas":3}}`,
			`{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"h"},
			"spec":{"scaleTargetRef":{"kind":"Deployment","name":"web","apiVersion":"apps/v1"},"maxReplicas":3,
			"metrics":[{"type":"Object","object":{"describedObject":{"kind":"Service","name":"s"},"target":{"type":"AverageValue","averageValue":"5"},"metric":{"name":"rps"}}}]},
			"status":{"desiredReplicas":0,"currentMetrics":null}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj := tree(t, tt.in)
			FromV1(obj)
			if d := cmp.Diff(tree(t, tt.want), obj); d != "" {
				t.Errorf("FromV1 (-want +got):\n%s", d)
			}
		})
	}
}

// TestCh01_HPAConversion_CanonicalV2 checks point 3 of the package contract and that the v2
// conversion drops v1's annotations.
func TestCh01_HPAConversion_CanonicalV2(t *testing.T) {
	obj := tree(t, `{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"h",
		"annotations":{"autoscaling.alpha.kubernetes.io/conditions":"[]"}},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"d"},"maxReplicas":2}}`)
	CanonicalV2(obj)
	got, err := json.Marshal(obj)
	require.NoError(t, err)
	assert.JSONEq(t, `{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"h"},
		"spec":{"scaleTargetRef":{"kind":"Deployment","name":"d"},"maxReplicas":2},"status":{"desiredReplicas":0,"currentMetrics":null}}`, string(got))
}

// TestCh01_Strategy_HPAValidate checks the replica bounds and the scale target.
func TestCh01_Strategy_HPAValidate(t *testing.T) {
	k := HorizontalPodAutoscalers()
	assert.Equal(t, "v2", k.Version)
	require.Len(t, k.Conversions, 1)
	assert.Equal(t, "v1", k.Conversions[0].Version)
	s := k.Strategy
	assert.False(t, s.HasGeneration())
	tests := []struct {
		spec string
		want []string
	}{
		{`{"scaleTargetRef":{"kind":"Deployment","name":"web","apiVersion":"apps/v1"},"minReplicas":1,"maxReplicas":3}`, nil},
		{`{"scaleTargetRef":{"kind":"ReplicationController","name":"rc","apiVersion":"v1"},"maxReplicas":3}`, nil},
		{`{"scaleTargetRef":{"kind":"Deployment","name":"a/b","apiVersion":"v1"},"minReplicas":0,"maxReplicas":0}`, []string{
			"spec.minReplicas: Invalid value: 0: must be greater than or equal to 1",
			"spec.maxReplicas: Required value: must be set and greater than 0",
			`spec.scaleTargetRef.name: Invalid value: "a/b": may not contain '/'`,
			`spec.scaleTargetRef.apiVersion: Invalid value: "v1": apiVersion must specify API group`,
			"spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas",
		}},
		{`{"scaleTargetRef":{"apiVersion":"a/b/c"},"minReplicas":4,"maxReplicas":2}`, []string{
			"spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`",
			"spec.scaleTargetRef.kind: Required value",
			"spec.scaleTargetRef.name: Required value",
			`spec.scaleTargetRef.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c`,
		}},
	}
	for _, tt := range tests {
		obj := &api.Unstructured{Object: tree(t, `{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"h"},"spec":`+tt.spec+`}`)}
		var got []string
		for _, c := range s.Validate(obj) {
			got = append(got, c.Field+": "+c.Message)
		}
		assert.Equal(t, tt.want, got, tt.spec)
	}
}
