package kubectl_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/controllers"
	"github.com/informer-lab/informer-lab/rest"
)

// owned is a manifest of kind with an owner reference to the owner of ownerKind.
func owned(apiVersion, kind, name, ownerAPIVersion, ownerKind, ownerName, ownerUID, spec string) string {
	return fmt.Sprintf(`apiVersion: %s
kind: %s
metadata:
  name: %s
  labels: {app: web}
  ownerReferences:
  - {apiVersion: %s, kind: %s, name: %s, uid: %s, controller: true, blockOwnerDeletion: true}
%s`, apiVersion, kind, name, ownerAPIVersion, ownerKind, ownerName, ownerUID, spec)
}

const rsSpec = `spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: nginx}]}
`

const podSpec = `spec: {containers: [{name: c, image: nginx}]}
`

// TestCh14_Kubectl_DeleteCascade: with the garbage collector and the namespace controller
// running beside the server over HTTP, kubectl delete --cascade=foreground returns once
// the Deployment's ReplicaSet and pod are gone, --cascade=orphan leaves the ReplicaSet
// without its owner, the default (background) collects it afterwards, and kubectl delete
// namespace returns once the namespace controller has emptied and finalized it.
func TestCh14_Kubectl_DeleteCascade(t *testing.T) {
	e := newEnv(t, apiserver.Options{})
	m, err := controllers.Start(context.Background(), controllers.Options{Config: &rest.Config{Host: e.url},
		Controllers: []string{"garbagecollector", "namespace"}})
	require.NoError(t, err)
	t.Cleanup(m.Stop)

	chain := func() {
		e.ok("create", "deployment", "web", "--image=nginx")
		d := e.ok("get", "deployment", "web", "-o", "jsonpath={.metadata.uid}")
		e.ok("apply", "-f", e.file("rs.yaml", owned("apps/v1", "ReplicaSet", "web-1", "apps/v1", "Deployment", "web", d, rsSpec)))
		rs := e.ok("get", "replicaset", "web-1", "-o", "jsonpath={.metadata.uid}")
		e.ok("apply", "-f", e.file("pod.yaml", owned("v1", "Pod", "web-1-a", "apps/v1", "ReplicaSet", "web-1", rs, podSpec)))
	}
	names := func(kind string) string {
		return strings.TrimSpace(e.ok("get", kind, "-o", "jsonpath={.items[*].metadata.name}"))
	}

	chain()
	assert.Equal(t, "deployment.apps \"web\" deleted\n", e.ok("delete", "deployment", "web", "--cascade=foreground"))
	assert.Empty(t, names("replicasets"), "foreground: kubectl returned after the dependents went")
	assert.Empty(t, names("pods"))

	chain()
	e.ok("delete", "deployment", "web", "--cascade=orphan")
	assert.Equal(t, "web-1", names("replicasets"))
	assert.Empty(t, e.ok("get", "replicaset", "web-1", "-o", "jsonpath={.metadata.ownerReferences}"), "orphaned")
	assert.Equal(t, "web-1-a", names("pods"), "the ReplicaSet's own pod stays owned by it")
	e.ok("delete", "replicaset", "web-1")
	require.Eventually(t, func() bool { return names("pods") == "" }, 20*time.Second, 50*time.Millisecond, "background: the pod is collected")

	e.ok("create", "namespace", "team")
	e.ok("create", "configmap", "c", "-n", "team")
	assert.Equal(t, "namespace \"team\" deleted\n", e.ok("delete", "namespace", "team"))
	_, _, err = e.run("get", "namespace", "team")
	require.Error(t, err, "kubectl delete namespace returned once it was gone")
}
