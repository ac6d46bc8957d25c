package kubectl_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/controllers"
	"github.com/informer-lab/informer-lab/rest"
)

// TestCh14_Kubectl_NodesRunPodsAndLogs: with the simulated nodes, scheduler and kubelets
// running beside the server over HTTP, kubectl run gives a Running, Ready pod on a
// simulated node, kubectl logs prints its one container start, kubectl delete waits for
// the kubelet's final delete (two grace seconds).
func TestCh14_Kubectl_NodesRunPodsAndLogs(t *testing.T) {
	e := newEnv(t, apiserver.Options{})
	m, err := controllers.Start(context.Background(), controllers.Options{Config: &rest.Config{Host: e.url},
		Controllers: []string{"kubelet", "scheduler", "nodelifecycle"}, Nodes: 2})
	require.NoError(t, err)
	t.Cleanup(m.Stop)
	require.Eventually(t, func() bool {
		out, _, err := e.run("get", "nodes", "-o", "jsonpath={.items[*].spec.taints}")
		return err == nil && strings.TrimSpace(out) == ""
	}, 20*time.Second, 50*time.Millisecond, "nodes registered and untainted")
	assert.Equal(t, "sim-node-0 sim-node-1", e.ok("get", "nodes", "-o", "jsonpath={.items[*].metadata.name}"))

	e.ok("run", "web", "--image=nginx", "--overrides", `{"spec":{"terminationGracePeriodSeconds":2}}`)
	e.ok("wait", "--for=condition=Ready", "pod/web", "--timeout=20s")
	node := e.ok("get", "pod", "web", "-o", "jsonpath={.spec.nodeName}")
	assert.Contains(t, []string{"sim-node-0", "sim-node-1"}, node)
	assert.Equal(t, "Started container web (image nginx) on node "+node+", restart 0\n", e.ok("logs", "web"))

	start := time.Now()
	assert.Equal(t, `pod "web" deleted`+"\n", e.ok("delete", "pod", "web"))
	assert.GreaterOrEqual(t, time.Since(start), time.Second, "kubectl waited for the grace period (2 s from a time the server keeps to the second)")
	_, _, err = e.run("get", "pod", "web")
	require.Error(t, err)
}
