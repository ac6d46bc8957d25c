package kubectl_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/apiserver"
)

// The object model through kubectl: realistic manifests keep every field, typos are refused
// with the real message, the generators, explain, scale and `get all` work.

// contains reports the first path where got lacks a member of want or holds another value.
func contains(path string, want, got any) string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: want an object, got %v", path, got)
		}
		for k, v := range w {
			if miss := contains(path+"."+k, v, g[k]); miss != "" {
				return miss
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Sprintf("%s: want %d elements, got %v", path, len(w), got)
		}
		for i := range w {
			if miss := contains(fmt.Sprintf("%s[%d]", path, i), w[i], g[i]); miss != "" {
				return miss
			}
		}
	default:
		if !reflect.DeepEqual(want, got) {
			return fmt.Sprintf("%s: want %v, got %v", path, want, got)
		}
	}
	return ""
}

func appManifest(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "app.yaml"))
	require.NoError(t, err)
	return string(data)
}

// TestCh01_Kubectl_ApplyRealisticAppLosesNothing applies a Deployment with probes, env from a
// ConfigMap and a Secret, resources, volumes, tolerations and affinity, a Service, a
// ConfigMap, a Secret, a ServiceAccount and a Pod with initContainers and securityContext, and
// reads every object back: every field sent is there, unchanged.
func TestCh01_Kubectl_ApplyRealisticAppLosesNothing(t *testing.T) {
	e := newEnv(t, apiserver.Options{})
	manifest := e.file("app.yaml", appManifest(t))
	// kubectl itself turns the YAML into the JSON it sends: compare against that.
	var sent []map[string]any
	dec := json.NewDecoder(strings.NewReader(e.ok("create", "--dry-run=client", "-o", "json", "-f", manifest)))
	for dec.More() {
		var obj map[string]any
		require.NoError(t, dec.Decode(&obj))
		sent = append(sent, obj)
	}
	require.Len(t, sent, 6)

	_, errOut, err := e.run("apply", "-f", manifest)
	require.NoError(t, err, errOut)
	assert.NotContains(t, errOut, "Warning", "nothing dropped, nothing to warn about")

	for _, obj := range sent {
		kind := obj["kind"].(string)
		name := obj["metadata"].(map[string]any)["name"].(string)
		var got map[string]any
		require.NoError(t, json.Unmarshal([]byte(e.ok("get", strings.ToLower(kind), name, "-o", "json")), &got))
		if kind == "Secret" {
			// stringData is write-only: the server merges it into data (base64) and drops it.
			data := obj["data"].(map[string]any)
			data["password"] = "czNjcjN0"
			delete(obj, "stringData")
		}
		if miss := contains(kind, obj, got); miss != "" {
			t.Errorf("%s %s lost a field: %s", kind, name, miss)
		}
	}
	// The defaults a user sees in kubectl get -o yaml are there.
	out := e.ok("get", "deployment", "web", "-o", "jsonpath={.spec.revisionHistoryLimit} {.spec.progressDeadlineSeconds} {.spec.template.spec.dnsPolicy} {.spec.template.spec.containers[0].terminationMessagePath}")
	assert.Equal(t, "10 600 ClusterFirst /dev/termination-log", out)
	out = e.ok("get", "service", "web", "-o", "jsonpath={.spec.type} {.spec.sessionAffinity} {.spec.clusterIP} {.spec.ports[0].protocol}")
	assert.Regexp(t, `^ClusterIP None 10\.96\.\d+\.\d+ TCP$`, out)

	// Applying the same manifest again changes nothing.
	out = e.ok("apply", "-f", manifest)
	assert.Contains(t, out, "deployment.apps/web unchanged")
	assert.Contains(t, out, "pod/migrate unchanged")
}

// TestCh01_Kubectl_StrictRefusesTypo checks that kubectl apply (which asks for
// fieldValidation=Strict) gets the real strict-decoding message for a misspelt field.
func TestCh01_Kubectl_StrictRefusesTypo(t *testing.T) {
	e := newEnv(t, apiserver.Options{})
	bad := e.file("bad.yaml", `apiVersion: apps/v1
kind: Deployment
metadata: {name: typo}
spec:
  selector: {matchLabels: {app: typo}}
  template:
    metadata: {labels: {app: typo}}
    spec:
      containers:
      - {name: web, image: nginx, imagePullPolicyy: Always}
`)
	_, errOut, err := e.run("apply", "-f", bad)
	require.Error(t, err)
	assert.Contains(t, errOut, `Error from server (BadRequest): error when creating "`+bad+`": Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.template.spec.containers[0].imagePullPolicyy"`)
	// With --validate=false kubectl sends fieldValidation=Ignore: accepted, the typo dropped.
	e.ok("apply", "--validate=false", "-f", bad)
	out := e.ok("get", "deployment", "typo", "-o", "jsonpath={.spec.template.spec.containers[0]}")
	assert.NotContains(t, out, "imagePullPolicyy")
}

// TestCh01_Kubectl_GeneratorsExplainScaleGetAll runs the commands a workshop types after its
// first apply.
func TestCh01_Kubectl_GeneratorsExplainScaleGetAll(t *testing.T) {
	e := newEnv(t, apiserver.Options{})
	_, errOut, err := e.run("run", "nginx", "--image=nginx")
	require.NoError(t, err)
	assert.Empty(t, errOut, "kubectl run sends dnsPolicy and resources; none may be warned about")

	// kubectl's generator commands send protobuf bodies from typed clients; their
	// --dry-run=client output, created from a file, is the same object over JSON.
	for _, gen := range [][]string{
		{"deployment", "web", "--image=nginx:1.27", "--replicas=2"},
		{"secret", "generic", "creds", "--from-literal=user=admin"},
		{"service", "clusterip", "web", "--tcp=80:8080"},
		{"serviceaccount", "robot"},
	} {
		yaml := e.ok(append(append([]string{"create"}, gen...), "--dry-run=client", "-o", "yaml")...)
		e.ok("create", "-f", e.file(gen[0]+".yaml", yaml))
	}

	out := e.ok("explain", "pod.spec.containers.resources")
	assert.Contains(t, out, "ResourceRequirements")
	assert.Contains(t, out, "limits")
	out = e.ok("explain", "deployment.spec.strategy")
	assert.Contains(t, out, "rollingUpdate")

	e.ok("scale", "deployment", "web", "--replicas=5")
	assert.Equal(t, "5", e.ok("get", "deployment", "web", "-o", "jsonpath={.spec.replicas}"))
	assert.Equal(t, "2", e.ok("get", "deployment", "web", "-o", "jsonpath={.metadata.generation}"))

	out = e.ok("get", "all")
	for _, want := range []string{"pod/nginx", "service/web", "deployment.apps/web"} {
		assert.Contains(t, out, want)
	}
	lines := strings.Split(e.ok("get", "deploy"), "\n")
	assert.Equal(t, []string{"NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"}, fields(lines[0]))
	assert.Equal(t, []string{"web", "0/5", "0", "0"}, fields(lines[1])[:4], "no controller runs: nothing becomes ready")
}
