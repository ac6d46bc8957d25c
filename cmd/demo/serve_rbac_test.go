package main

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/clientcmd"
)

// TestDemo_ServeRBAC: --authorization=RBAC serves https with a random admin token in the
// kubeconfig (other users' tokens are bearer tokens, which kubectl sends only over TLS to a
// server that authenticates), and the bootstrap policy is in place.
func TestDemo_ServeRBAC(t *testing.T) {
	ready, stop := startServe(t, "--authorization", "RBAC", "--seed-pods", "0")
	require.True(t, strings.HasPrefix(ready.url, "https://"), ready.url)
	cfg, err := clientcmd.BuildConfigFromKubeconfig(ready.kubeconfig)
	require.NoError(t, err)
	assert.Regexp(t, regexp.MustCompile(`^[0-9a-f]{32}$`), cfg.BearerToken)
	_, err = ready.server.Get(context.Background(), "clusterroles", "", "cluster-admin")
	require.NoError(t, err, "the bootstrap policy exists")
	out := stop()
	assert.Contains(t, out, "  auth       bearer token required (it is in the kubeconfig)")
	assert.Contains(t, out, "  authz      RBAC: ")
}
