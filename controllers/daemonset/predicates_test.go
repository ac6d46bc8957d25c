package daemonset

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

func testDS(t *testing.T, podSpec map[string]any) *daemonSet {
	t.Helper()
	d, err := parseDaemonSet(&api.Unstructured{Object: map[string]any{
		"metadata": map[string]any{"name": "agent", "namespace": "ns", "uid": "ds-uid"},
		"spec":     map[string]any{"template": map[string]any{"spec": podSpec}},
	}})
	require.NoError(t, err)
	return d
}

func testNode(name string, labels map[string]any, taints ...any) *api.Unstructured {
	return &api.Unstructured{Object: map[string]any{
		"metadata": map[string]any{"name": name, "labels": labels},
		"spec":     map[string]any{"taints": taints},
	}}
}

// TestCh14_DaemonSet_NodeShouldRun: shouldRun and shouldContinueRunning of
// NodeShouldRunDaemonPod over taints, tolerations, nodeName, nodeSelector and affinity.
func TestCh14_DaemonSet_NodeShouldRun(t *testing.T) {
	taint := func(k, v, e string) any { return map[string]any{"key": k, "value": v, "effect": e} }
	affinity := func(terms ...any) map[string]any {
		return map[string]any{"nodeAffinity": map[string]any{"requiredDuringSchedulingIgnoredDuringExecution": map[string]any{"nodeSelectorTerms": terms}}}
	}
	expr := func(key, op string, vals ...any) any {
		return map[string]any{"matchExpressions": []any{map[string]any{"key": key, "operator": op, "values": vals}}}
	}
	cases := []struct {
		name               string
		podSpec            map[string]any
		node               *api.Unstructured
		run, continueToRun bool
	}{
		{"plain", nil, testNode("n", nil), true, true},
		{"NoSchedule taint", nil, testNode("n", nil, taint("a", "b", "NoSchedule")), false, true},
		{"NoExecute taint", nil, testNode("n", nil, taint("a", "b", "NoExecute")), false, false},
		{"PreferNoSchedule ignored", nil, testNode("n", nil, taint("a", "b", "PreferNoSchedule")), true, true},
		{"not-ready NoExecute tolerated automatically", nil, testNode("n", nil, taint("node.kubernetes.io/not-ready", "", "NoExecute")), true, true},
		{"unschedulable tolerated automatically", nil, testNode("n", nil, taint("node.kubernetes.io/unschedulable", "", "NoSchedule")), true, true},
		{"not-ready NoSchedule is not", nil, testNode("n", nil, taint("node.kubernetes.io/not-ready", "", "NoSchedule")), false, true},
		{"network-unavailable without hostNetwork", nil, testNode("n", nil, taint("node.kubernetes.io/network-unavailable", "", "NoSchedule")), false, true},
		{"network-unavailable with hostNetwork", map[string]any{"hostNetwork": true}, testNode("n", nil, taint("node.kubernetes.io/network-unavailable", "", "NoSchedule")), true, true},
		{"Equal toleration", map[string]any{"tolerations": []any{map[string]any{"key": "a", "value": "b", "effect": "NoExecute"}}}, testNode("n", nil, taint("a", "b", "NoExecute")), true, true},
		{"Equal toleration, other value", map[string]any{"tolerations": []any{map[string]any{"key": "a", "value": "c"}}}, testNode("n", nil, taint("a", "b", "NoExecute")), false, false},
		{"Exists toleration without key", map[string]any{"tolerations": []any{map[string]any{"operator": "Exists"}}}, testNode("n", nil, taint("a", "b", "NoExecute")), true, true},
		{"nodeName elsewhere", map[string]any{"nodeName": "m"}, testNode("n", nil), false, false},
		{"nodeSelector matches", map[string]any{"nodeSelector": map[string]any{"disk": "ssd"}}, testNode("n", map[string]any{"disk": "ssd"}), true, true},
		{"nodeSelector does not", map[string]any{"nodeSelector": map[string]any{"disk": "ssd"}}, testNode("n", nil), false, false},
		{"affinity In", map[string]any{"affinity": affinity(expr("zone", "In", "a", "b"))}, testNode("n", map[string]any{"zone": "b"}), true, true},
		{"affinity NotIn", map[string]any{"affinity": affinity(expr("zone", "NotIn", "a"))}, testNode("n", map[string]any{"zone": "a"}), false, false},
		{"affinity Gt", map[string]any{"affinity": affinity(expr("cpus", "Gt", "4"))}, testNode("n", map[string]any{"cpus": "8"}), true, true},
		{"affinity terms are ORed", map[string]any{"affinity": affinity(expr("zone", "In", "x"), expr("disk", "Exists"))}, testNode("n", map[string]any{"disk": "hdd"}), true, true},
		{"affinity empty term matches nothing", map[string]any{"affinity": affinity(map[string]any{})}, testNode("n", nil), false, false},
		{"affinity on metadata.name", map[string]any{"affinity": affinity(map[string]any{"matchFields": []any{map[string]any{"key": "metadata.name", "operator": "In", "values": []any{"n"}}}})}, testNode("n", nil), true, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			run, cont := nodeShouldRunDaemonPod(tc.node, testDS(t, tc.podSpec))
			require.Equal(t, tc.run, run, "shouldRun")
			require.Equal(t, tc.continueToRun, cont, "shouldContinueRunning")
		})
	}
}

// TestCh14_DaemonSet_PodTemplate: the pod template gets the automatic tolerations once, the
// hash label, and a required node affinity on metadata.name that replaces the template's
// own terms, which targetNodeName reads back.
func TestCh14_DaemonSet_PodTemplate(t *testing.T) {
	d := testDS(t, map[string]any{
		"tolerations": []any{map[string]any{"key": "node.kubernetes.io/unschedulable", "operator": "Exists", "effect": "NoSchedule"}},
		"affinity": map[string]any{"nodeAffinity": map[string]any{"requiredDuringSchedulingIgnoredDuringExecution": map[string]any{
			"nodeSelectorTerms": []any{map[string]any{"matchExpressions": []any{map[string]any{"key": "zone", "operator": "Exists"}}}}}}},
	})
	tmpl := podTemplate(d, "h1")
	spec := tmpl["spec"].(map[string]any)
	require.Len(t, spec["tolerations"], 6)
	require.Equal(t, "h1", tmpl["metadata"].(map[string]any)["labels"].(map[string]any)[hashLabel])
	pinToNode(spec, "node-7")
	pod := &api.Unstructured{Object: map[string]any{"spec": spec}}
	require.Equal(t, "node-7", targetNodeName(pod))
	terms := spec["affinity"].(map[string]any)["nodeAffinity"].(map[string]any)["requiredDuringSchedulingIgnoredDuringExecution"].(map[string]any)["nodeSelectorTerms"].([]any)
	require.Len(t, terms, 1)
	require.Nil(t, d.Spec.Template["spec"].(map[string]any)["affinity"].(map[string]any)["nodeAffinity"].(map[string]any)["requiredDuringSchedulingIgnoredDuringExecution"].(map[string]any)["nodeSelectorTerms"].([]any)[0].(map[string]any)["matchFields"], "the DaemonSet's own template is untouched")
}

// TestCh14_DaemonSet_FindUpdatedPods: a node's one new and one old pod, terminating pods
// skipped, and not ok when two pods of a kind are there.
func TestCh14_DaemonSet_FindUpdatedPods(t *testing.T) {
	pod := func(name, hash string, deleting bool) *api.Unstructured {
		u := &api.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": name, "labels": map[string]any{hashLabel: hash}}}}
		if deleting {
			u.Object["metadata"].(map[string]any)["deletionTimestamp"] = "2020-01-01T00:00:00Z"
		}
		return u
	}
	cases := []struct {
		name       string
		pods       []*api.Unstructured
		newP, oldP string
		ok         bool
	}{
		{"none", nil, "", "", true},
		{"new and old", []*api.Unstructured{pod("a", "h2", false), pod("b", "h1", false)}, "a", "b", true},
		{"terminating skipped", []*api.Unstructured{pod("a", "h2", true), pod("b", "h1", false)}, "", "b", true},
		{"two new", []*api.Unstructured{pod("a", "h2", false), pod("b", "h2", false)}, "", "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n, o, ok := findUpdatedPodsOnNode(tc.pods, "h2", nil)
			require.Equal(t, tc.ok, ok)
			name := func(u *api.Unstructured) string {
				if u == nil {
					return ""
				}
				return u.GetName()
			}
			require.Equal(t, tc.newP, name(n))
			require.Equal(t, tc.oldP, name(o))
		})
	}
}
