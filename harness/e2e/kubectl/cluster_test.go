package kubectl_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCh14_Kubectl_DemoServeCluster is the workshop's first hour against `demo serve` as
// `make serve` starts it (every default controller, 3 simulated nodes): kubectl create
// deployment gives 3 Running, Ready pods on the simulated nodes, rollout status completes,
// scale works, and delete deployment takes its ReplicaSet with it.
func TestCh14_Kubectl_DemoServeCluster(t *testing.T) {
	kubectl := kubectlPath(t)
	dir := t.TempDir()
	d := startDemoServe(t, dir, "--controllers=*", "--nodes=3", "--seed-pods=0")
	assert.Contains(t, d.banner, "  nodes      3 simulated")
	e := &env{t: t, kubectl: kubectl, dir: dir, config: d.kubeconfig}

	assert.Equal(t, "deployment.apps/web created\n", e.ok("create", "deployment", "web", "--image=nginx", "--replicas=3"))
	assert.Contains(t, e.ok("rollout", "status", "deployment/web", "--timeout=20s"), `deployment "web" successfully rolled out`)
	lines := strings.Split(strings.TrimSpace(e.ok("get", "pods", "-o", "wide", "--no-headers")), "\n")
	require.Len(t, lines, 3, "%q", lines)
	for _, l := range lines {
		f := fields(l)
		assert.True(t, strings.HasPrefix(f[0], "web-"), l)
		assert.Equal(t, []string{"1/1", "Running"}, f[1:3], l)
		assert.True(t, strings.HasPrefix(f[6], "sim-node-"), "bound to a simulated node: %s", l)
	}
	nodes := strings.Split(strings.TrimSpace(e.ok("get", "nodes", "--no-headers")), "\n")
	require.Len(t, nodes, 3)
	for _, n := range nodes {
		assert.Equal(t, "Ready", fields(n)[1], n)
	}

	e.ok("scale", "deployment", "web", "--replicas=1")
	assert.Contains(t, e.ok("rollout", "status", "deployment/web", "--timeout=20s"), "successfully rolled out")
	rs := fields(strings.TrimSpace(e.ok("get", "rs", "--no-headers")))
	assert.Equal(t, []string{"1", "1", "1"}, rs[1:4], "DESIRED CURRENT READY")

	e.ok("delete", "deployment", "web")
	out, errOut, err := e.run("get", "rs")
	for i := 0; err == nil && strings.TrimSpace(out) != "" && i < 200; i++ {
		out, errOut, err = e.run("get", "rs") // the collector deletes it in the background
	}
	require.NoError(t, err)
	assert.Empty(t, out, "the garbage collector deletes the ReplicaSet")
	assert.Equal(t, "No resources found in default namespace.\n", errOut)
	d.interrupt(t)
}
