package fieldpath

import (
	"encoding/json"
	"testing"
)

const deploymentFields = `{"f:metadata":{"f:labels":{".":{},"f:a":{}}},"f:spec":{"f:progressDeadlineSeconds":{},"f:replicas":{},"f:revisionHistoryLimit":{},"f:selector":{},"f:strategy":{"f:rollingUpdate":{".":{},"f:maxSurge":{},"f:maxUnavailable":{}},"f:type":{}},"f:template":{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"nginx\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:ports":{".":{},"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{},"f:protocol":{}}},"f:resources":{},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},"f:dnsPolicy":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{}}}}}`

// BenchmarkCh01_SSA_FieldsV1FromJSON: the FieldsV1 of a created Deployment, from bytes.
func BenchmarkCh01_SSA_FieldsV1FromJSON(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := FromJSON([]byte(deploymentFields)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCh01_SSA_FieldsV1FromTree: the same, from the decoded tree storage gives back.
func BenchmarkCh01_SSA_FieldsV1FromTree(b *testing.B) {
	var tree map[string]any
	if err := json.Unmarshal([]byte(deploymentFields), &tree); err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		if _, err := FromUnstructured(tree); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCh01_SSA_FieldsV1ToJSON: encoding it again.
func BenchmarkCh01_SSA_FieldsV1ToJSON(b *testing.B) {
	s, err := FromJSON([]byte(deploymentFields))
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		if _, err := s.ToJSON(); err != nil {
			b.Fatal(err)
		}
	}
}
