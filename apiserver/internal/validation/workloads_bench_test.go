package validation

import (
	"encoding/json"
	"testing"
)

// BenchmarkWorkloadCauses measures the spec rules of a typical Deployment, the share of a
// create that this validation adds.
func BenchmarkWorkloadCauses(b *testing.B) {
	var obj map[string]any
	err := json.Unmarshal([]byte(`{"spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}},
		"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%","maxUnavailable":"25%"}},
		"template":{"metadata":{"labels":{"app":"web"}},"spec":{"restartPolicy":"Always","dnsPolicy":"ClusterFirst",
		"volumes":[{"name":"data","emptyDir":{}}],
		"containers":[{"name":"web","image":"nginx","imagePullPolicy":"IfNotPresent","terminationMessagePolicy":"File",
		"ports":[{"containerPort":80,"protocol":"TCP","name":"http"}],"env":[{"name":"A","value":"1"}],
		"volumeMounts":[{"name":"data","mountPath":"/data"}],"resources":{"requests":{"cpu":"100m"},"limits":{"cpu":"1"}},
		"readinessProbe":{"httpGet":{"path":"/","port":80,"scheme":"HTTP"},"timeoutSeconds":1,"periodSeconds":10,"successThreshold":1,"failureThreshold":3}}]}}}}`), &obj)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if c := WorkloadCauses("Deployment", obj); len(c) != 0 {
			b.Fatal(c)
		}
	}
}
