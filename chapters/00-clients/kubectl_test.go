package ch00_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/client/discovery"
	"github.com/informer-lab/informer-lab/client/dynamic"
	"github.com/informer-lab/informer-lab/client/restmapper"
	"github.com/informer-lab/informer-lab/rest"
)

// writeKubeconfig writes a kubeconfig for server (no credentials: the simulator does not ask
// for any unless told to) and returns its path.
func writeKubeconfig(t *testing.T, server string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "kubeconfig")
	cfg := `apiVersion: v1
kind: Config
clusters:
- name: lab
  cluster:
    server: ` + server + `
contexts:
- name: lab
  context:
    cluster: lab
    namespace: demo
users:
- name: lab
  user: {}
current-context: lab
`
	require.NoError(t, os.WriteFile(path, []byte(cfg), 0o600))
	return path
}

// kubectl runs the kubectl on PATH against kubeconfig with a fresh HOME and discovery cache
// (K3: a shared cache would hide resources registered since), and returns its output.
func kubectl(t *testing.T, kubectlPath, kubeconfig string, args ...string) string {
	t.Helper()
	home := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	full := append([]string{"--kubeconfig", kubeconfig, "--cache-dir", filepath.Join(home, "cache")}, args...)
	cmd := exec.CommandContext(ctx, kubectlPath, full...)
	cmd.Env = append(os.Environ(), "HOME="+home, "KUBECONFIG="+kubeconfig)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	require.NoError(t, err, "kubectl %s\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), stdout.String(), stderr.String())
	return stdout.String()
}

// TestCh00_KubectlListsCustomResource_K3_K4_K5: a custom resource registered while the server runs and
// created through our dynamic client is listed by the real kubectl. kubectl finds "widgets"
// (and the short name "wd") through discovery, lists it asking for a Table, and prints it.
func TestCh00_KubectlListsCustomResource_K3_K4_K5(t *testing.T) {
	kubectlPath, err := exec.LookPath("kubectl")
	if err != nil {
		t.Skip("kubectl is not on PATH: this test runs the real kubectl against the simulated apiserver; install kubectl to run it")
	}
	srv := apiserver.NewTestServer(t, apiserver.Options{})
	_, err = srv.Create(context.Background(), "namespaces", "", namespace("demo"))
	require.NoError(t, err)
	require.NoError(t, srv.Register(widgetsResource))

	dc, err := dynamic.NewForConfig(&rest.Config{Host: srv.URL()})
	require.NoError(t, err)
	for _, name := range []string{"small", "large"} {
		_, err := dc.Resource(widgetsGVR).Namespace("demo").Create(context.Background(), widget(name, 1), api.CreateOptions{})
		require.NoError(t, err)
	}
	kc := writeKubeconfig(t, srv.URL())

	out := kubectl(t, kubectlPath, kc, "get", "widgets")
	t.Logf("$ kubectl get widgets\n%s", out)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 3, "header and two rows:\n%s", out)
	assert.Equal(t, []string{"NAME", "AGE"}, strings.Fields(lines[0]))
	assert.Equal(t, "large", strings.Fields(lines[1])[0])
	assert.Equal(t, "small", strings.Fields(lines[2])[0])

	out = kubectl(t, kubectlPath, kc, "get", "wd", "-o", "name")
	assert.Equal(t, "widget.example.dev/large\nwidget.example.dev/small\n", out)

	out = kubectl(t, kubectlPath, kc, "api-resources", "--api-group", "example.dev", "--no-headers")
	assert.Equal(t, []string{"widgets", "wd", "example.dev/v1", "true", "Widget"}, strings.Fields(out))
}

// kubectlTableAccept is the Accept header kubectl get sends for a list (K6): a Table first.
const kubectlTableAccept = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json"

// TestCh00_CustomResourceAsKubectlSeesIt_K3_K4_K5 is the kubectl test without kubectl, so it
// runs on a machine that has only Go: the same custom resource, created through the dynamic
// client, then the two steps of "kubectl get wd". Discovery plus the RESTMapper resolve the
// short name to widgets.example.dev (what kubectl's discovery cache does); then the list is
// requested with kubectl's Accept header and comes back as a Table whose columns and rows
// are what kubectl prints.
func TestCh00_CustomResourceAsKubectlSeesIt_K3_K4_K5(t *testing.T) {
	ctx := context.Background()
	srv := apiserver.NewTestServer(t, apiserver.Options{})
	_, err := srv.Create(ctx, "namespaces", "", namespace("demo"))
	require.NoError(t, err)
	require.NoError(t, srv.Register(widgetsResource))
	cfg := &rest.Config{Host: srv.URL()}

	dc, err := dynamic.NewForConfig(cfg)
	require.NoError(t, err)
	for _, name := range []string{"small", "large"} {
		_, err := dc.Resource(widgetsGVR).Namespace("demo").Create(ctx, widget(name, 1), api.CreateOptions{})
		require.NoError(t, err)
	}

	// Step 1: "wd" → GVR and kind, through discovery (no cache: the kind is new).
	disc, err := discovery.NewDiscoveryClientForConfig(cfg)
	require.NoError(t, err)
	mapper, err := restmapper.NewDiscoveryRESTMapperForClient(ctx, disc)
	require.NoError(t, err)
	m, err := mapper.MappingFor("wd")
	require.NoError(t, err)
	assert.Equal(t, widgetsGVR, m.Resource)
	assert.Equal(t, api.GroupVersionKind{Group: "example.dev", Version: "v1", Kind: "Widget"}, m.GroupVersionKind)
	assert.Equal(t, restmapper.RESTScopeNameNamespace, m.Scope)

	// Step 2: the list, asking for a Table as kubectl does.
	c, err := rest.RESTClientFor(cfg)
	require.NoError(t, err)
	var contentType string
	raw, err := c.Get().AbsPath("apis", m.Resource.Group, m.Resource.Version).Namespace("demo").Resource(m.Resource.Resource).
		SetHeader("Accept", kubectlTableAccept).Do(ctx).ContentType(&contentType).Raw()
	require.NoError(t, err)
	assert.Equal(t, "application/json", contentType)
	var table api.Table
	require.NoError(t, json.Unmarshal(raw, &table))
	assert.Equal(t, "Table", table.Kind)
	var columns []string
	for _, col := range table.ColumnDefinitions {
		if col.Priority == 0 { // what kubectl shows without -o wide
			columns = append(columns, strings.ToUpper(col.Name))
		}
	}
	assert.Equal(t, []string{"NAME", "AGE"}, columns)
	var names []any
	for _, row := range table.Rows {
		require.NotEmpty(t, row.Cells)
		names = append(names, row.Cells[0])
	}
	assert.Equal(t, []any{"large", "small"}, names)
}
