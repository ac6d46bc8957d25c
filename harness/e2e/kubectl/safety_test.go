package kubectl_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
)

// The server never loses data: kubectl's server-side dry runs write nothing, a namespace
// held by a finalizer outlives any write to it, and deleting a large namespace completes
// while other requests are served.

const configMapYAML = `apiVersion: v1
kind: ConfigMap
metadata:
  name: planned
data:
  k: v
`

// TestCh01_Kubectl_ServerDryRun: --dry-run=server on delete, label, apply and patch prints
// kubectl's "(server dry run)" line and changes nothing: same objects, same revision.
func TestCh01_Kubectl_ServerDryRun(t *testing.T) {
	e := newEnv(t, apiserver.Options{})
	e.createPod("web-3", map[string]string{"app": "web"})
	rv := e.srv.ResourceVersion()

	assert.Equal(t, "pod \"web-3\" deleted (server dry run)\n", e.ok("delete", "pod", "web-3", "--dry-run=server"))
	assert.Equal(t, "pod/web-3 labeled (server dry run)\n", e.ok("label", "pod", "web-3", "tier=front", "--dry-run=server"))
	// kubectl patch does not mark its line as a dry run; the request carries dryRun=All.
	assert.Equal(t, "pod/web-3 patched\n",
		e.ok("patch", "pod", "web-3", "--type=merge", "-p", `{"metadata":{"annotations":{"a":"b"}}}`, "--dry-run=server"))
	assert.Equal(t, "configmap/planned created (server dry run)\n", e.ok("apply", "-f", e.file("cm.yaml", configMapYAML), "--dry-run=server"))

	assert.Equal(t, map[string]string{"app": "web"}, e.getPod("web-3").Labels, "the pod is there, unlabelled")
	assert.Empty(t, e.getPod("web-3").Annotations)
	_, err := e.srv.Get(context.Background(), "configmaps", "default", "planned")
	assert.True(t, api.IsNotFound(err), "the dry-run apply stored nothing: %v", err)
	assert.Equal(t, rv, e.srv.ResourceVersion(), "no resourceVersion was consumed")
	for _, ex := range e.rec.exchanges() {
		// kubectl sends a delete's dryRun in the DeleteOptions body, the rest in the query.
		if ex.Method == "POST" || ex.Method == "PUT" || ex.Method == "PATCH" {
			assert.Contains(t, ex.URI, "dryRun=All", "every write carried dryRun: %s", ex)
		}
	}
}

// TestCh01_Kubectl_TerminatingNamespace: a namespace whose pod a finalizer holds stays
// Terminating through kubectl label and annotate, keeps the pod, and goes once the pod lets
// go; created again, it is empty. The server empties the namespace itself
// (NamespaceDeletionInServer), as no namespace controller runs beside it here.
func TestCh01_Kubectl_TerminatingNamespace(t *testing.T) {
	e := newEnv(t, apiserver.Options{NamespaceDeletion: apiserver.NamespaceDeletionInServer})
	ctx := context.Background()
	_, err := e.srv.Create(ctx, "namespaces", "", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "team"}})
	require.NoError(t, err)
	held := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "held", Finalizers: []string{"example.com/hold"}},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}}}
	_, err = e.srv.Create(ctx, "pods", "team", held)
	require.NoError(t, err)

	assert.Equal(t, "namespace \"team\" deleted\n", e.ok("delete", "namespace", "team", "--wait=false"))
	e.ok("label", "namespace", "team", "touched=yes")
	e.ok("annotate", "namespace", "team", "note=still-here")
	assert.Equal(t, "Terminating", e.ok("get", "namespace", "team", "-o", "jsonpath={.status.phase}"))
	assert.Equal(t, "held", e.ok("get", "pod", "held", "-n", "team", "-o", "jsonpath={.metadata.name}"))

	e.ok("patch", "pod", "held", "-n", "team", "--type=merge", "-p", `{"metadata":{"finalizers":null}}`)
	_, errOut, err := e.run("get", "namespace", "team")
	require.Error(t, err)
	assert.Equal(t, "Error from server (NotFound): namespaces \"team\" not found\n", errOut)

	e.ok("apply", "-f", e.file("ns.yaml", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team\n"))
	out, errOut, err := e.run("get", "pods", "-n", "team")
	require.NoError(t, err)
	assert.Empty(t, out)
	assert.Equal(t, "No resources found in team namespace.\n", errOut, "nothing of the old namespace came back")
}

// TestCh01_Kubectl_DeleteLargeNamespace: kubectl delete namespace waits until a namespace of
// 20,000 configmaps is gone, while kubectl get in another namespace is answered meanwhile.
// BenchmarkNamespaceDelete in the apiserver package measures the times. The server empties
// the namespace itself (NamespaceDeletionInServer): no namespace controller runs here.
func TestCh01_Kubectl_DeleteLargeNamespace(t *testing.T) {
	const n = 20_000
	e := newEnv(t, apiserver.Options{NamespaceDeletion: apiserver.NamespaceDeletionInServer})
	ctx := context.Background()
	_, err := e.srv.Create(ctx, "namespaces", "", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "big"}})
	require.NoError(t, err)
	for i := range n {
		_, err := e.srv.Create(ctx, "configmaps", "big", &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("cm-%05d", i)}})
		require.NoError(t, err)
	}
	e.createPod("elsewhere", nil)

	del := e.start("delete", "namespace", "big")
	assert.Equal(t, "elsewhere", e.ok("get", "pod", "elsewhere", "-o", "jsonpath={.metadata.name}"))
	assert.Equal(t, `namespace "big" deleted`, strings.TrimSpace(del.next()))
	select {
	case <-del.done: // kubectl waits for the 404 of the namespace, then exits
	case <-time.After(commandTimeout):
		t.Fatalf("kubectl delete namespace did not finish within %v", commandTimeout)
	}
	require.Equal(t, 0, del.cmd.ProcessState.ExitCode(), "stderr: %s", del.stderr.String())
	_, err = e.srv.Get(ctx, "namespaces", "", "big")
	assert.True(t, api.IsNotFound(err), "%v", err)
	list, err := e.srv.List(ctx, "configmaps", "big", api.ListOptions{})
	require.NoError(t, err)
	assert.Empty(t, list.(*api.ConfigMapList).Items)
}
