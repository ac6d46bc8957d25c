package kubectl_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/clientcmd"
	"github.com/informer-lab/informer-lab/rest"
)

// execPlugin is a credential plugin as EKS or GKE install one: it appends the
// KUBERNETES_EXEC_INFO it was given to a log, one line per run, and prints an ExecCredential
// holding the server's token.
const execPlugin = `#!/bin/sh
printf '%s\n' "$KUBERNETES_EXEC_INFO" >> "$PLUGIN_LOG"
printf '{"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1","status":{"token":"%s"}}\n' "$PLUGIN_TOKEN"
`

// TestCh02_Kubectl_ExecPluginSameInput is a differential test of
// plugin/pkg/client/auth/exec's credential support against kubectl's (client-go's) own: one
// kubeconfig whose user is an exec plugin, used by kubectl and by our client against a server
// that wants a bearer token. Both get in, and the plugin is handed the same
// KUBERNETES_EXEC_INFO by both, cluster info included.
func TestCh02_Kubectl_ExecPluginSameInput(t *testing.T) {
	kubectl := kubectlPath(t)
	srv := apiserver.NewTLSTestServer(t, apiserver.Options{BearerToken: "s3cret"})
	dir := t.TempDir()
	e := &env{t: t, kubectl: kubectl, srv: srv, rec: &recorder{}, dir: dir, config: filepath.Join(dir, "kubeconfig")}
	plugin := e.file("plugin.sh", execPlugin)
	require.NoError(t, os.Chmod(plugin, 0o755))
	logFile := filepath.Join(dir, "exec-info.log")
	cfg := "apiVersion: v1\nkind: Config\ncurrent-context: sim\n" +
		"clusters:\n- name: sim\n  cluster:\n    server: " + srv.URL() + "\n" +
		"    certificate-authority-data: " + base64.StdEncoding.EncodeToString(srv.CACertPEM()) + "\n" +
		"contexts:\n- name: sim\n  context:\n    cluster: sim\n    user: cloud\n    namespace: default\n" +
		"users:\n- name: cloud\n  user:\n    exec:\n" +
		"      apiVersion: client.authentication.k8s.io/v1\n" +
		"      command: " + plugin + "\n" +
		"      interactiveMode: Never\n" +
		"      provideClusterInfo: true\n" +
		"      env:\n      - name: PLUGIN_LOG\n        value: " + logFile + "\n" +
		"      - name: PLUGIN_TOKEN\n        value: s3cret\n"
	require.NoError(t, os.WriteFile(e.config, []byte(cfg), 0o600))
	_, err := srv.Create(context.Background(), "pods", "default", &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web-1", Namespace: "default"},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}}})
	require.NoError(t, err)

	// kubectl (client-go) runs the plugin and gets in.
	lines := strings.Split(strings.TrimSpace(e.ok("get", "pods")), "\n")
	require.Len(t, lines, 2, "%q", lines)
	assert.Equal(t, "web-1", fields(lines[1])[0])
	kubectlInputs := readExecInfo(t, logFile)
	require.NoError(t, os.Remove(logFile))

	// Our client, from the same kubeconfig, runs it once and gets in too.
	rc, err := clientcmd.BuildConfigFromKubeconfig(e.config)
	require.NoError(t, err)
	c, err := rest.RESTClientFor(rc)
	require.NoError(t, err)
	for range 2 {
		list, err := c.Resource(api.GroupVersionResource{Version: "v1", Resource: "pods"}).Namespace("default").
			List(context.Background(), api.ListOptions{})
		require.NoError(t, err)
		require.Len(t, list.(*api.PodList).Items, 1)
	}
	ours := readExecInfo(t, logFile)
	require.Len(t, ours, 1, "the credential has no expiry: one run serves every request")

	// kubectl may run the plugin more than once (discovery, then the request); every run got
	// the same input, and so did ours.
	require.NotEmpty(t, kubectlInputs)
	for i, in := range kubectlInputs {
		if diff := cmp.Diff(in, ours[0]); diff != "" {
			t.Errorf("KUBERNETES_EXEC_INFO, kubectl run %d (-kubectl +ours):\n%s", i+1, diff)
		}
	}
	spec := ours[0]["spec"].(map[string]any)
	assert.Equal(t, false, spec["interactive"])
	assert.Equal(t, srv.URL(), spec["cluster"].(map[string]any)["server"], "provideClusterInfo")
}

// readExecInfo parses the plugin's log: one KUBERNETES_EXEC_INFO JSON object per line.
func readExecInfo(t *testing.T, path string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err, "the plugin never ran")
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &m), "%q", line)
		out = append(out, m)
	}
	return out
}
