package scheduler

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/informer-lab/informer-lab/api"
)

func testNode(name string, labels map[string]any, spec map[string]any) *api.Unstructured {
	if spec == nil {
		spec = map[string]any{}
	}
	return &api.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Node",
		"metadata": map[string]any{"name": name, "labels": labels}, "spec": spec,
		"status": map[string]any{"allocatable": map[string]any{"cpu": "2", "memory": "4Gi", "pods": "3"}}}}
}

func testPod(spec map[string]any) *api.Unstructured {
	if spec["containers"] == nil {
		spec["containers"] = []any{map[string]any{"name": "c", "image": "nginx",
			"resources": map[string]any{"requests": map[string]any{"cpu": "500m", "memory": "1Gi"}}}}
	}
	return &api.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"name": "p", "namespace": "ns"}, "spec": spec}}
}

func affinity(terms ...any) map[string]any {
	return map[string]any{"nodeAffinity": map[string]any{"requiredDuringSchedulingIgnoredDuringExecution": map[string]any{"nodeSelectorTerms": terms}}}
}

func expr(key, op string, values ...any) map[string]any {
	return map[string]any{"matchExpressions": []any{map[string]any{"key": key, "operator": op, "values": values}}}
}

// TestCh14_Scheduler_Filters: each filter's verdict on one node, with upstream's reasons.
func TestCh14_Scheduler_Filters(t *testing.T) {
	labels := map[string]any{"disk": "ssd", "zone": "a", "cores": "8"}
	taint := map[string]any{"taints": []any{map[string]any{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}}}
	tol := []any{map[string]any{"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}}
	tests := []struct {
		name     string
		pod      map[string]any
		nodeSpec map[string]any
		used     resources
		want     []string
	}{
		{"fits", map[string]any{}, nil, resources{}, nil},
		{"unschedulable node", map[string]any{}, map[string]any{"unschedulable": true}, resources{}, []string{reasonUnschedulable}},
		{"unschedulable tolerated", map[string]any{"tolerations": []any{map[string]any{"key": "node.kubernetes.io/unschedulable", "operator": "Exists"}}},
			map[string]any{"unschedulable": true}, resources{}, nil},
		{"untolerated taint", map[string]any{}, taint, resources{}, []string{reasonTaint}},
		{"tolerated taint", map[string]any{"tolerations": tol}, taint, resources{}, nil},
		{"PreferNoSchedule ignored", map[string]any{}, map[string]any{"taints": []any{map[string]any{"key": "k", "effect": "PreferNoSchedule"}}}, resources{}, nil},
		{"nodeSelector match", map[string]any{"nodeSelector": map[string]any{"disk": "ssd"}}, nil, resources{}, nil},
		{"nodeSelector miss", map[string]any{"nodeSelector": map[string]any{"disk": "hdd"}}, nil, resources{}, []string{reasonAffinity}},
		{"In", map[string]any{"affinity": affinity(expr("zone", "In", "a", "b"))}, nil, resources{}, nil},
		{"NotIn", map[string]any{"affinity": affinity(expr("zone", "NotIn", "a"))}, nil, resources{}, []string{reasonAffinity}},
		{"Exists", map[string]any{"affinity": affinity(expr("disk", "Exists"))}, nil, resources{}, nil},
		{"DoesNotExist", map[string]any{"affinity": affinity(expr("disk", "DoesNotExist"))}, nil, resources{}, []string{reasonAffinity}},
		{"Gt", map[string]any{"affinity": affinity(expr("cores", "Gt", "4"))}, nil, resources{}, nil},
		{"Lt", map[string]any{"affinity": affinity(expr("cores", "Lt", "4"))}, nil, resources{}, []string{reasonAffinity}},
		{"terms are ORed", map[string]any{"affinity": affinity(expr("zone", "In", "b"), expr("disk", "In", "ssd"))}, nil, resources{}, nil},
		{"empty term matches nothing", map[string]any{"affinity": affinity(map[string]any{})}, nil, resources{}, []string{reasonAffinity}},
		{"matchFields metadata.name", map[string]any{"affinity": affinity(map[string]any{"matchFields": []any{
			map[string]any{"key": "metadata.name", "operator": "In", "values": []any{"n1"}}}})}, nil, resources{}, nil},
		{"matchFields other node", map[string]any{"affinity": affinity(map[string]any{"matchFields": []any{
			map[string]any{"key": "metadata.name", "operator": "In", "values": []any{"n2"}}}})}, nil, resources{}, []string{reasonAffinity}},
		{"insufficient cpu", map[string]any{}, nil, resources{milliCPU: 1600, pods: 1}, []string{reasonCPU}},
		{"insufficient cpu and memory", map[string]any{}, nil, resources{milliCPU: 1600, memory: 3<<30 + 1, pods: 1}, []string{reasonCPU, reasonMemory}},
		{"too many pods", map[string]any{}, nil, resources{pods: 3}, []string{reasonPods}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := filter(testPod(tc.pod), testNode("n1", labels, tc.nodeSpec), tc.used)
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestCh14_Scheduler_FitErrorMessage: the FitError and preemption message as upstream words it.
func TestCh14_Scheduler_FitErrorMessage(t *testing.T) {
	got := fitError(3, map[string][]string{"a": {reasonCPU}, "b": {reasonAffinity}, "c": {reasonAffinity}})
	assert.Equal(t, "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't match Pod's node affinity/selector. "+
		"preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.", got)
	assert.Equal(t, "no nodes available to schedule pods", fitError(0, nil))
}

// TestCh14_Scheduler_Requests: a pod's requests (init containers, limits as requests,
// overhead) and the non-zero defaults scoring uses.
func TestCh14_Scheduler_Requests(t *testing.T) {
	pod := testPod(map[string]any{
		"containers": []any{
			map[string]any{"name": "a", "resources": map[string]any{"requests": map[string]any{"cpu": "250m", "memory": "64Mi"}}},
			map[string]any{"name": "b", "resources": map[string]any{"limits": map[string]any{"cpu": "1", "memory": "1G"}}},
		},
		"initContainers": []any{map[string]any{"name": "i", "resources": map[string]any{"requests": map[string]any{"cpu": "2"}}}},
		"overhead":       map[string]any{"cpu": "10m"},
	})
	assert.Equal(t, resources{milliCPU: 2010, memory: 64<<20 + 1e9, pods: 1}, podRequests(pod, false))
	empty := testPod(map[string]any{"containers": []any{map[string]any{"name": "a"}}})
	assert.Equal(t, resources{pods: 1}, podRequests(empty, false))
	assert.Equal(t, resources{milliCPU: 100, memory: 200 << 20, pods: 1}, podRequests(empty, true))
	assert.Greater(t, score(resources{milliCPU: 100}, resources{milliCPU: 1000, memory: 1}, resources{}),
		score(resources{milliCPU: 100}, resources{milliCPU: 1000, memory: 1}, resources{milliCPU: 500}))
}
