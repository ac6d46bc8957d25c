package kubectl_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/apiserver"
)

// kubectl against what a fresh real server holds and against the Events, pod subresources
// and canonical values a kube-apiserver v1.36.3 serves (the answers pinned against the
// reference in package apiserver).

// TestCh01_Kubectl_FreshServer: `kubectl get` of what a fresh kube-apiserver has created.
func TestCh01_Kubectl_FreshServer(t *testing.T) {
	e := newEnv(t, apiserver.Options{})
	out := e.ok("get", "ns", "-o", "name")
	assert.Equal(t, "namespace/default\nnamespace/kube-node-lease\nnamespace/kube-public\nnamespace/kube-system\n", out)
	out = e.ok("get", "svc", "kubernetes", "-o", "jsonpath={.spec.clusterIP} {.spec.ports[0].name} {.spec.ports[0].port}")
	assert.Equal(t, "10.96.0.1 https 443", out)
	out = e.ok("get", "endpointslices", "-A", "-o", "name")
	assert.Equal(t, "endpointslice.discovery.k8s.io/kubernetes\n", out)
}

// TestCh01_Kubectl_EventsOneStorage: an Event recorded through events.k8s.io/v1 is seen by
// `kubectl get events` and by `kubectl describe` of its object, which read core/v1 Events.
func TestCh01_Kubectl_EventsOneStorage(t *testing.T) {
	e := newEnv(t, apiserver.Options{})
	e.ok("run", "web", "--image=nginx")
	uid := e.ok("get", "pod", "web", "-o", "jsonpath={.metadata.uid}")
	event := e.file("event.yaml", `apiVersion: events.k8s.io/v1
kind: Event
metadata: {name: web.1, namespace: default}
regarding: {apiVersion: v1, kind: Pod, name: web, namespace: default, uid: `+uid+`}
reason: Pulling
note: Pulling image "nginx"
type: Normal
action: Pull
reportingController: kubelet
reportingInstance: node-1
eventTime: "2026-01-01T00:00:00.000000Z"
`)
	e.ok("create", "-f", event)
	out := e.ok("get", "events")
	assert.Contains(t, out, "Pulling")
	assert.Contains(t, out, `Pulling image "nginx"`)
	out = e.ok("describe", "pod", "web")
	events := out[strings.Index(out, "Events:"):]
	assert.Contains(t, events, `Pulling image "nginx"`, "describe lists the event:\n%s", out)
	out = e.ok("get", "events.v1.events.k8s.io", "web.1", "-o", "jsonpath={.note}|{.regarding.name}|{.reportingController}")
	assert.Equal(t, `Pulling image "nginx"|web|kubelet`, out)
	out = e.ok("get", "events", "--field-selector", "involvedObject.name=web", "-o", "name")
	assert.Equal(t, "event/web.1\n", out)
}

// TestCh01_Kubectl_PodSubresources: logs, exec, attach and debug of pods in a cluster
// without kubelets, as kubectl reports the real server's answers.
func TestCh01_Kubectl_PodSubresources(t *testing.T) {
	e := newEnv(t, apiserver.Options{})
	e.ok("run", "web", "--image=nginx")
	out, errOut, err := e.run("logs", "web")
	require.NoError(t, err, errOut)
	assert.Empty(t, out, "a pod without a node has empty logs")
	_, errOut, err = e.run("exec", "web", "--", "ls")
	require.Error(t, err)
	assert.Contains(t, errOut, "Error from server (BadRequest): pod web does not have a host assigned")
	_, errOut, err = e.run("logs", "nope")
	require.Error(t, err)
	assert.Contains(t, errOut, `pods "nope" not found`) // kubectl reads the pod first
	e.ok("debug", "web", "--image=busybox", "-c", "dbg", "--attach=false", "--profile=general")
	out = e.ok("get", "pod", "web", "-o", "jsonpath={.spec.ephemeralContainers[*].name}")
	assert.Equal(t, "dbg", out)
}
