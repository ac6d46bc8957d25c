package ch00_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/client/discovery"
	"github.com/informer-lab/informer-lab/client/dynamic"
	"github.com/informer-lab/informer-lab/client/kubernetes"
	"github.com/informer-lab/informer-lab/client/restmapper"
	"github.com/informer-lab/informer-lab/clientcmd"
	"github.com/informer-lab/informer-lab/rest"
)

// requireToken answers 401 with a Status, as a real apiserver does, unless the request
// carries the bearer token.
func requireToken(token string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+token {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_ = json.NewEncoder(w).Encode(api.NewUnauthorized("Unauthorized"))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// TestCh00_AllClientsThroughKubeconfig: the clients need nothing the simulator alone
// provides. Behind TLS with a bearer token, as a real cluster is, and configured only from a
// kubeconfig file (clientcmd.BuildConfigFromKubeconfig), every client works; a wrong token
// is a typed Unauthorized error.
func TestCh00_AllClientsThroughKubeconfig(t *testing.T) {
	srv := apiserver.New(apiserver.Options{})
	ts := httptest.NewTLSServer(requireToken("s3cret", srv.Handler()))
	t.Cleanup(ts.Close)
	t.Cleanup(srv.Close) // runs first: ends watches so that ts.Close does not wait for them
	ctx := context.Background()
	_, err := srv.Create(ctx, "namespaces", "", namespace("demo"))
	require.NoError(t, err)

	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ts.Certificate().Raw})
	writeConfig := func(token string) string {
		path := filepath.Join(t.TempDir(), "config")
		require.NoError(t, os.WriteFile(path, []byte(`apiVersion: v1
kind: Config
clusters:
- name: secure
  cluster:
    server: `+ts.URL+`
    certificate-authority-data: `+base64.StdEncoding.EncodeToString(ca)+`
contexts:
- name: secure
  context:
    cluster: secure
    user: robot
users:
- name: robot
  user:
    token: `+token+`
current-context: secure
`), 0o600))
		return path
	}
	cfg, err := clientcmd.BuildConfigFromKubeconfig(writeConfig("s3cret"))
	require.NoError(t, err)

	cs, err := kubernetes.NewForConfig(cfg)
	require.NoError(t, err)
	_, err = cs.CoreV1().Pods("demo").Create(ctx, webPod("p"), api.CreateOptions{})
	require.NoError(t, err)
	pods, err := cs.CoreV1().Pods("demo").List(ctx, api.ListOptions{})
	require.NoError(t, err)
	assert.Len(t, pods.Items, 1)

	rc, err := rest.RESTClientFor(cfg)
	require.NoError(t, err)
	var got api.Pod
	require.NoError(t, rc.Get().Namespace("demo").Resource("pods").Name("p").Do(ctx).Into(&got))
	assert.Equal(t, "p", got.Name)

	dc, err := dynamic.NewForConfig(cfg)
	require.NoError(t, err)
	_, err = dc.Resource(deploymentsGVR).Namespace("demo").Create(ctx, &api.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "d"},
		"spec": map[string]any{
			"selector": map[string]any{"matchLabels": map[string]any{"app": "d"}},
			"template": map[string]any{
				"metadata": map[string]any{"labels": map[string]any{"app": "d"}},
				"spec":     map[string]any{"containers": []any{map[string]any{"name": "web", "image": "nginx:1.27"}}},
			},
		}}}, api.CreateOptions{})
	require.NoError(t, err)

	disc, err := discovery.NewDiscoveryClientForConfig(cfg)
	require.NoError(t, err)
	mapper, err := restmapper.NewDiscoveryRESTMapperForClient(ctx, disc)
	require.NoError(t, err)
	m, err := mapper.MappingFor("deploy")
	require.NoError(t, err)
	assert.Equal(t, deploymentsGVR, m.Resource)

	w, err := cs.CoreV1().Pods("demo").Watch(ctx, api.ListOptions{ResourceVersion: pods.ResourceVersion})
	require.NoError(t, err)
	require.NoError(t, cs.CoreV1().Pods("demo").Delete(ctx, "p", api.DeleteOptions{}))
	ev := <-w.ResultChan()
	w.Stop()
	assert.Equal(t, "p", ev.Object.(*api.Pod).Name)

	bad, err := clientcmd.BuildConfigFromKubeconfig(writeConfig("wrong"))
	require.NoError(t, err)
	badCS, err := kubernetes.NewForConfig(bad)
	require.NoError(t, err)
	_, err = badCS.CoreV1().Pods("demo").List(ctx, api.ListOptions{})
	assert.True(t, api.IsUnauthorized(err), "%v", err)
	_, err = badCS.Discovery().ServerGroups()
	assert.True(t, api.IsUnauthorized(err), "%v", err)
}
