package kubectl_test

import (
	"encoding/base64"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/clientcmd"
)

// withClientCert returns kubeconfig (as Server.Kubeconfig writes it) with its user's
// client-certificate-data and client-key-data replaced by cert and key, written back in YAML
// with clientcmd.
func withClientCert(t *testing.T, kubeconfig, cert, key []byte) string {
	t.Helper()
	cfg, err := clientcmd.Load(kubeconfig)
	require.NoError(t, err)
	require.Len(t, cfg.AuthInfos, 1)
	user := &cfg.AuthInfos[0].AuthInfo
	require.True(t, len(user.ClientCertificateData) > 0 && len(user.ClientKeyData) > 0,
		"the kubeconfig has no client certificate:\n%s", kubeconfig)
	user.ClientCertificateData, user.ClientKeyData = cert, key
	out, err := clientcmd.Write(cfg)
	require.NoError(t, err)
	return string(out)
}

// TestCh01_Kubectl_DemoServeClientCerts: `demo serve --client-certs` behaves like a kind
// cluster: it serves https and writes a kubeconfig whose user is the admin client
// certificate, so the printed kubectl line works as is; the admin certificate of another
// cluster (another client CA) gets kubectl's "You must be logged in" (401), not a TLS error.
func TestCh01_Kubectl_DemoServeClientCerts(t *testing.T) {
	kubectl := kubectlPath(t)
	dir := t.TempDir()
	d := startDemoServe(t, dir, "--seed-pods", "2", "--client-certs")
	assert.True(t, strings.HasPrefix(d.url, "https://127.0.0.1:"), "client certificates imply https: %s", d.url)
	assert.Contains(t, d.banner, "  kubectl --kubeconfig "+d.kubeconfig+" get pods")
	assert.Contains(t, d.banner, "  auth       client certificate required (user kubernetes-admin, group system:masters, in the kubeconfig as kind writes it)")

	e := &env{t: t, kubectl: kubectl, dir: dir, config: d.kubeconfig}
	lines := strings.Split(strings.TrimSpace(e.ok("get", "pods")), "\n")
	require.Len(t, lines, 3, "%q", lines)
	assert.Equal(t, []string{"web-1", "web-2"}, []string{fields(lines[1])[0], fields(lines[2])[0]})

	// The same user name, signed by another cluster's client CA.
	other := apiserver.NewTLSTestServer(t, apiserver.Options{ClientCertAuth: true})
	cert, key := other.ClientCertificatePEM()
	kc, err := os.ReadFile(d.kubeconfig)
	require.NoError(t, err)
	e.config = e.file("foreign.kubeconfig", withClientCert(t, kc, cert, key))
	_, errOut, err := e.run("get", "pods")
	require.Error(t, err)
	assert.Contains(t, errOut, "error: You must be logged in to the server (Unauthorized)", "discovery is cached: the 401 is the list's")

	assert.Equal(t, []string{"stopped"}, d.interrupt(t))
}

// TestCh01_Kubectl_ClientCertMintedUser: against StartTLS with Options.ClientCertAuth,
// kubectl authenticates with the server's own Kubeconfig (the admin certificate) and with a
// certificate IssueClientCertificate minted for another user, as `kubeadm kubeconfig user`
// would; a server without ClientCertAuth does not take that certificate (401).
func TestCh01_Kubectl_ClientCertMintedUser(t *testing.T) {
	e := newTLSEnv(t, apiserver.Options{ClientCertAuth: true})
	e.createPod("a", nil)
	assert.Equal(t, "a", fields(strings.Split(e.ok("get", "pods"), "\n")[1])[0])

	cert, key, err := e.srv.IssueClientCertificate("jane", "developers")
	require.NoError(t, err)
	e.config = e.file("jane.kubeconfig", withClientCert(t, e.srv.Kubeconfig(), cert, key))
	assert.Equal(t, "a", fields(strings.Split(e.ok("get", "pods"), "\n")[1])[0])

	tokenOnly := newTLSEnv(t, apiserver.Options{BearerToken: "s3cret"})
	kc := strings.Replace(withClientCert(t, e.srv.Kubeconfig(), cert, key), e.srv.URL(), tokenOnly.srv.URL(), 1)
	kc = strings.Replace(kc, base64.StdEncoding.EncodeToString(e.srv.CACertPEM()), base64.StdEncoding.EncodeToString(tokenOnly.srv.CACertPEM()), 1)
	tokenOnly.config = tokenOnly.file("jane.kubeconfig", kc)
	_, errOut, err := tokenOnly.run("get", "pods")
	require.Error(t, err)
	assert.Contains(t, errOut, "error: You must be logged in to the server") // 401, however kubectl words it
}
