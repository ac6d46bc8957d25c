package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/clientcmd"
	"github.com/informer-lab/informer-lab/rest"
)

// TestDemo_ServeCPUProfile: --cpuprofile writes a profile of the serving process that go
// tool pprof reads (a gzip-compressed profile.proto) once serve stops, and a path that
// cannot be written is refused before the server listens.
func TestDemo_ServeCPUProfile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "serve.pprof")
	ready, stop := startServe(t, "--cpuprofile", path, "--seed-pods", "2")
	cfg, err := clientcmd.BuildConfigFromKubeconfig(ready.kubeconfig)
	require.NoError(t, err)
	rc, err := rest.RESTClientFor(cfg)
	require.NoError(t, err)
	pods := rc.Resource(api.GroupVersionResource{Version: "v1", Resource: "pods"}).Namespace("default")
	for range 20 {
		_, err := pods.List(context.Background(), api.ListOptions{})
		require.NoError(t, err)
	}
	stop()

	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(b, []byte{0x1f, 0x8b}), "a pprof profile is gzip-compressed")
	zr, err := gzip.NewReader(bytes.NewReader(b))
	require.NoError(t, err)
	msg, err := io.ReadAll(zr)
	require.NoError(t, err)
	assert.Contains(t, string(msg), "samples", "its sample types name samples and cpu")
	info, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())

	var out bytes.Buffer
	err = cmdServe(context.Background(), []string{"--listen", "127.0.0.1:0", "--kubeconfig", filepath.Join(t.TempDir(), "kc"),
		"--controllers=none", "--nodes=0", "--cpuprofile", filepath.Join(t.TempDir(), "missing", "serve.pprof")}, &out, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "--cpuprofile")
	assert.NotContains(t, out.String(), "serving", "refused before it listens")
}
