package kubectl_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/apiserver"
)

// TestCh01_Kubectl_ArgoCDInstallServerSide: Argo CD's whole install manifest (v3.1.9,
// manifests/install.yaml from the module cache, never copied here: 59 objects of 12 kinds,
// its 3 CRDs, RBAC, NetworkPolicies, Deployments, a StatefulSet, Services, ConfigMaps and
// Secrets) applies in one `kubectl apply --server-side`, with kubectl's client-side
// validation on, as on a real cluster. Before the server served RBAC and NetworkPolicy, 8 of
// the 59 got in.
func TestCh01_Kubectl_ArgoCDInstallServerSide(t *testing.T) {
	e := newEnv(t, apiserver.Options{})
	install := filepath.Join(moduleDir(t, "github.com/argoproj/argo-cd/v3@v3.1.9"), "manifests", "install.yaml")
	e.ok("create", "namespace", "argocd")
	out, errOut, err := e.run("apply", "--server-side", "--validate=true", "-n", "argocd", "-f", install)
	require.NoError(t, err, "%s\n%s", out, errOut)
	assert.Equal(t, 59, strings.Count(out, "serverside-applied"), out)
	assert.Empty(t, errOut)

	// Every kind is there, as kubectl reads it back.
	for kind, n := range map[string]int{
		"deployments": 6, "statefulsets": 1, "services": 8, "configmaps": 7,
		"networkpolicies": 7, "roles": 6, "rolebindings": 6, "serviceaccounts": 7, "secrets": 2,
	} {
		got := strings.Fields(e.ok("get", kind, "-n", "argocd", "-o", "name"))
		assert.Len(t, got, n, kind)
	}
	for kind, name := range map[string]string{
		"crd":                "applications.argoproj.io",
		"clusterrole":        "argocd-server",
		"clusterrolebinding": "argocd-application-controller",
	} {
		e.ok("get", kind, name)
	}
	// Applied again, nothing changes and nothing conflicts.
	out = e.ok("apply", "--server-side", "-n", "argocd", "-f", install)
	assert.Equal(t, 59, strings.Count(out, "serverside-applied"), out)
}
