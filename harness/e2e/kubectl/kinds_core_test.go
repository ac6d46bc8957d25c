package kubectl_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/apiserver"
)

// nodeWithPods is a node and two pods bound to it; setUpNode also makes them Running and
// Ready, as a kubelet would, so a budget guards them.
const nodeWithPods = `apiVersion: v1
kind: Node
metadata:
  name: NODE
---
apiVersion: v1
kind: Pod
metadata:
  name: NODE-db-0
  labels: {app: APP}
spec:
  nodeName: NODE
  terminationGracePeriodSeconds: 0 # no kubelet runs here to finish a graceful delete
  containers: [{name: db, image: postgres:17}]
---
apiVersion: v1
kind: Pod
metadata:
  name: NODE-db-1
  labels: {app: APP}
spec:
  nodeName: NODE
  terminationGracePeriodSeconds: 0 # no kubelet runs here to finish a graceful delete
  containers: [{name: db, image: postgres:17}]
`

// setUpNode creates a node, its two pods of label app, and a budget over them whose status
// allows the given number of disruptions (the disruption controller's part).
func setUpNode(e *env, node, app, allowed string) {
	e.t.Helper()
	yaml := strings.NewReplacer("NODE", node, "APP", app).Replace(nodeWithPods)
	e.ok("apply", "-f", e.file(node+".yaml", yaml))
	for _, p := range []string{node + "-db-0", node + "-db-1"} {
		e.ok("patch", "pod", p, "--subresource=status", "--type=merge",
			"-p", `{"status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}]}}`)
	}
	e.ok("create", "pdb", app, "--selector=app="+app, "--max-unavailable=1")
	e.ok("patch", "pdb", app, "--subresource=status", "--type=merge",
		"-p", `{"status":{"observedGeneration":1,"disruptionsAllowed":`+allowed+`,"currentHealthy":2,"desiredHealthy":1,"expectedPods":2}}`)
}

// TestCh01_Kubectl_DrainHonoursBudget checks kubectl drain over pods/eviction: the node is
// cordoned and each pod evicted while its budget allows it, the budget taking each
// disruption; a budget that allows none stops the drain with the server's 429.
func TestCh01_Kubectl_DrainHonoursBudget(t *testing.T) {
	e := newEnv(t, apiserver.Options{})
	setUpNode(e, "node-1", "db", "2")
	out, errOut, err := e.run("drain", "node-1", "--force", "--timeout=20s")
	require.NoError(t, err, "stdout: %s\nstderr: %s", out, errOut)
	assert.Contains(t, out, "node/node-1 cordoned")
	assert.Contains(t, out, "pod/node-1-db-0 evicted")
	assert.Contains(t, out, "pod/node-1-db-1 evicted")
	assert.Contains(t, out, "node/node-1 drained")
	assert.Contains(t, errOut, "Warning: deleting Pods that declare no controller: default/node-1-db-0, default/node-1-db-1")
	assert.Equal(t, "true", e.ok("get", "node", "node-1", "-o", "jsonpath={.spec.unschedulable}"))
	assert.Empty(t, e.ok("get", "pods", "--field-selector=spec.nodeName=node-1", "-o", "name"))
	assert.Equal(t, "0", e.ok("get", "pdb", "db", "-o", "jsonpath={.status.disruptionsAllowed}"))
	var pdb struct {
		Status struct {
			DisruptedPods map[string]string `json:"disruptedPods"`
		} `json:"status"`
	}
	require.NoError(t, json.Unmarshal([]byte(e.ok("get", "pdb", "db", "-o", "json")), &pdb))
	assert.Contains(t, pdb.Status.DisruptedPods, "node-1-db-0")
	assert.Contains(t, pdb.Status.DisruptedPods, "node-1-db-1")
	for _, p := range []string{"node-1-db-0", "node-1-db-1"} {
		evictions := e.rec.matching("POST", "/api/v1/namespaces/default/pods/"+p+"/eviction")
		require.Len(t, evictions, 1, p)
		assert.Equal(t, 201, evictions[0].Code)
	}

	setUpNode(e, "node-2", "cache", "0")
	out, errOut, err = e.run("drain", "node-2", "--force", "--timeout=1s")
	require.Error(t, err, "stdout: %s", out)
	assert.Contains(t, errOut, "Cannot evict pod as it would violate the pod's disruption budget.")
	assert.Contains(t, errOut, "global timeout reached: 1s")
	assert.Equal(t, "pod/node-2-db-0\npod/node-2-db-1\n", e.ok("get", "pods", "--field-selector=spec.nodeName=node-2", "-o", "name"))
	for _, ex := range e.rec.matching("POST", "/api/v1/namespaces/default/pods/node-2-db-0/eviction") {
		assert.Equal(t, 429, ex.Code)
	}
}

// TestCh01_Kubectl_Autoscale checks kubectl autoscale: the autoscaler it creates (at
// autoscaling/v2, or v1 for an older kubectl) reads the same at both versions, and kubectl
// get and describe print it.
func TestCh01_Kubectl_Autoscale(t *testing.T) {
	e := newEnv(t, apiserver.Options{})
	e.ok("create", "deployment", "web", "--image=nginx")
	assert.Equal(t, "horizontalpodautoscaler.autoscaling/web autoscaled\n", e.ok("autoscale", "deployment", "web", "--min=2", "--max=5", "--cpu-percent=80"))
	posts := append(e.rec.matching("POST", "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers"),
		e.rec.matching("POST", "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers")...)
	require.Len(t, posts, 1)
	assert.Equal(t, 201, posts[0].Code)

	lines := strings.Split(strings.TrimSpace(e.ok("get", "hpa")), "\n")
	require.Len(t, lines, 2)
	assert.Equal(t, []string{"NAME", "REFERENCE", "TARGETS", "MINPODS", "MAXPODS", "REPLICAS", "AGE"}, fields(lines[0]))
	assert.Equal(t, []string{"web", "Deployment/web", "cpu:", "<unknown>/80%", "2", "5", "0"}, fields(lines[1])[:7])
	assert.Equal(t, "autoscaling/v2", e.ok("get", "hpa", "web", "-o", "jsonpath={.apiVersion}"), "v2 is preferred")
	assert.Equal(t, "80", e.ok("get", "horizontalpodautoscalers.v2.autoscaling", "web", "-o", "jsonpath={.spec.metrics[0].resource.target.averageUtilization}"))
	assert.Equal(t, "80", e.ok("get", "horizontalpodautoscalers.v1.autoscaling", "web", "-o", "jsonpath={.spec.targetCPUUtilizationPercentage}"))
	assert.Contains(t, e.ok("describe", "hpa", "web"), "Reference:")

	e.ok("patch", "horizontalpodautoscalers.v1.autoscaling", "web", "--type=merge", "-p", `{"spec":{"targetCPUUtilizationPercentage":60}}`)
	assert.Equal(t, "60", e.ok("get", "horizontalpodautoscalers.v2.autoscaling", "web", "-o", "jsonpath={.spec.metrics[0].resource.target.averageUtilization}"))
}

// TestCh01_Kubectl_CreateQuotaPDBPriorityClass checks kubectl's generators for resource
// quotas, budgets and priority classes, the warning a quota's request over its limit gets,
// the single global default, and kubectl get cs.
func TestCh01_Kubectl_CreateQuotaPDBPriorityClass(t *testing.T) {
	e := newEnv(t, apiserver.Options{})
	out, errOut, err := e.run("create", "quota", "compute", "--hard=pods=10,requests.cpu=2,limits.cpu=1")
	require.NoError(t, err, errOut)
	assert.Equal(t, "resourcequota/compute created\n", out)
	assert.Contains(t, errOut, "Warning: ResourceQuota requests.cpu (2) should be less than limits.cpu (1)")
	lines := strings.Split(strings.TrimSpace(e.ok("get", "quota")), "\n")
	assert.Equal(t, []string{"NAME", "REQUEST", "LIMIT", "AGE"}, fields(lines[0]))
	assert.Equal(t, "compute", fields(lines[1])[0])
	assert.Equal(t, "10", e.ok("get", "quota", "compute", "-o", "jsonpath={.spec.hard.pods}"))

	assert.Equal(t, "poddisruptionbudget.policy/web created\n", e.ok("create", "pdb", "web", "--selector=app=web", "--min-available=50%"))
	lines = strings.Split(strings.TrimSpace(e.ok("get", "pdb")), "\n")
	assert.Equal(t, []string{"NAME", "MIN", "AVAILABLE", "MAX", "UNAVAILABLE", "ALLOWED", "DISRUPTIONS", "AGE"}, fields(lines[0]))
	assert.Equal(t, []string{"web", "50%", "N/A", "0"}, fields(lines[1])[:4])
	assert.Equal(t, "1", e.ok("get", "pdb", "web", "-o", "jsonpath={.metadata.generation}"))

	assert.Equal(t, "priorityclass.scheduling.k8s.io/high created\n",
		e.ok("create", "priorityclass", "high", "--value=1000", "--global-default=true", "--description=for the important pods"))
	lines = strings.Split(strings.TrimSpace(e.ok("get", "pc", "high")), "\n")
	assert.Equal(t, []string{"NAME", "VALUE", "GLOBAL-DEFAULT", "AGE", "PREEMPTIONPOLICY"}, fields(lines[0]))
	row := fields(lines[1])
	assert.Equal(t, []string{"high", "1000", "true"}, row[:3])
	assert.Equal(t, "PreemptLowerPriority", row[4])
	_, errOut, err = e.run("create", "priorityclass", "second", "--value=10", "--global-default=true")
	require.Error(t, err)
	assert.Equal(t, `error: failed to create priorityclass: priorityclasses.scheduling.k8s.io "second" is forbidden: `+
		"PriorityClass high is already marked as default. Only one default can exist\n", errOut)
	_, errOut, err = e.run("create", "priorityclass", "system-mine", "--value=10")
	require.Error(t, err)
	assert.Contains(t, errOut, "priority class names with 'system-' prefix are reserved for system use only")

	out, errOut, err = e.run("get", "cs")
	require.NoError(t, err, errOut)
	assert.Contains(t, errOut, "Warning: v1 ComponentStatus is deprecated in v1.19+")
	lines = strings.Split(strings.TrimSpace(out), "\n")
	assert.Equal(t, []string{"NAME", "STATUS", "MESSAGE", "ERROR"}, fields(lines[0]))
	require.Len(t, lines, 4)
	assert.Equal(t, []string{"etcd-0", "Healthy", "ok"}, fields(lines[3]))
	assert.Equal(t, "scheduler", fields(lines[1])[0])
	assert.Contains(t, []string{"Healthy", "Unhealthy"}, fields(lines[1])[1], "as the probe of its port finds it")
}
