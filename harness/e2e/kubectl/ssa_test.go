package kubectl_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/apiserver"
)

const ssaDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: REPLICAS
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - {name: web, image: nginx}
`

// TestCh01_Kubectl_ServerSideApplyConflicts: kubectl apply --server-side against another
// writer of spec.replicas, as on a real server (conformance ssa/kubectl-server-side): the
// conflict fails the apply with the server's message and kubectl's advice, --force-conflicts
// takes the field over, and --show-managed-fields shows who owns what.
func TestCh01_Kubectl_ServerSideApplyConflicts(t *testing.T) {
	e := newEnv(t, apiserver.Options{})
	file := e.file("web.yaml", strings.Replace(ssaDeployment, "REPLICAS", "2", 1))
	assert.Equal(t, "deployment.apps/web serverside-applied\n", e.ok("apply", "--server-side", "-f", file))
	assert.Equal(t, "deployment.apps/web patched\n", e.ok("patch", "deployment", "web", "--field-manager=hpa", "--type=merge", "-p", `{"spec":{"replicas":4}}`))

	e.file("web.yaml", strings.Replace(ssaDeployment, "REPLICAS", "3", 1))
	out, errOut, err := e.run("apply", "--server-side", "-f", file)
	require.Error(t, err, "%s", out)
	assert.Contains(t, errOut, `Apply failed with 1 conflict: conflict with "hpa" using apps/v1: .spec.replicas`)
	assert.Contains(t, errOut, "--force-conflicts")
	assert.Equal(t, "4", e.ok("get", "deployment", "web", "-o", "jsonpath={.spec.replicas}"))

	assert.Equal(t, "deployment.apps/web serverside-applied\n", e.ok("apply", "--server-side", "--force-conflicts", "-f", file))
	assert.Equal(t, "3", e.ok("get", "deployment", "web", "-o", "jsonpath={.spec.replicas}"))

	shown := e.ok("get", "deployment", "web", "-o", "yaml", "--show-managed-fields")
	assert.Contains(t, shown, "  managedFields:\n  - apiVersion: apps/v1\n    fieldsType: FieldsV1\n    fieldsV1:\n      f:spec:\n        f:replicas: {}\n")
	assert.Contains(t, shown, "    manager: kubectl\n    operation: Apply\n")
	assert.NotContains(t, shown, "manager: hpa", "force took hpa's only field: its entry is gone")
	assert.NotContains(t, e.ok("get", "deployment", "web", "-o", "yaml"), "managedFields", "hidden unless asked for")
}

// TestCh01_Kubectl_ServerSideApplyDropsOnlyOwnFields: labels {a, b} applied, c added by
// kubectl label, the manifest then applied with {a}: b goes, c stays.
func TestCh01_Kubectl_ServerSideApplyDropsOnlyOwnFields(t *testing.T) {
	e := newEnv(t, apiserver.Options{})
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels: {LABELS}\n"
	file := e.file("c.yaml", strings.Replace(cm, "LABELS", "a: '1', b: '2'", 1))
	assert.Equal(t, "configmap/c serverside-applied\n", e.ok("apply", "--server-side", "-f", file))
	assert.Equal(t, "configmap/c labeled\n", e.ok("label", "configmap", "c", "c=3"))
	e.file("c.yaml", strings.Replace(cm, "LABELS", "a: '1'", 1))
	assert.Equal(t, "configmap/c serverside-applied\n", e.ok("apply", "--server-side", "-f", file))
	assert.Equal(t, `{"a":"1","c":"3"}`, e.ok("get", "configmap", "c", "-o", "jsonpath={.metadata.labels}"))
}
