package listwatch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/internal/testcert"
)

// whoAmI answers every request with a Pod named after the client certificate's common name
// ("anonymous" without one), its Authorization header in annotation "auth".
func whoAmI(w http.ResponseWriter, r *http.Request) {
	name := "anonymous"
	if r.TLS != nil && len(r.TLS.PeerCertificates) > 0 {
		name = r.TLS.PeerCertificates[0].Subject.CommonName
	}
	pod := map[string]any{"kind": "Pod", "apiVersion": "v1", "metadata": map[string]any{
		"name": name, "namespace": "demo", "annotations": map[string]string{"auth": r.Header.Get("Authorization")}}}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(pod)
}

// newMTLSServer starts an https server that requires a client certificate signed by (here:
// equal to) one of trusted, and answers with whoAmI.
func newMTLSServer(t *testing.T, trusted ...[]byte) *httptest.Server {
	t.Helper()
	pool := x509.NewCertPool()
	for _, c := range trusted {
		require.True(t, pool.AppendCertsFromPEM(c))
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(whoAmI))
	srv.TLS = &tls.Config{ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: pool, MinVersion: tls.VersionTLS12}
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // refused handshakes are expected
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv
}

// serverCA is the PEM of the test server's certificate, to trust it through CAData.
func serverCA(srv *httptest.Server) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
}

// whoIs asks the server who the client is: the Pod whoAmI returns.
func whoIs(t *testing.T, c *RESTClient) (*api.Pod, error) {
	t.Helper()
	obj, err := c.Resource(podsGVR).Namespace("demo").Get(context.Background(), "me")
	if err != nil {
		return nil, err
	}
	pod, ok := obj.(*api.Pod)
	require.True(t, ok, "%T", obj)
	return pod, nil
}

// A client certificate in Config.CertData/KeyData is presented to a server that requires
// one (kind, minikube and kubeadm clusters authenticate users so); without it the server
// refuses the handshake.
func TestCh02_ClientCertificateConfig(t *testing.T) {
	checkNoLeak(t)
	certPEM, keyPEM := testcert.SelfSignedClient(t, "kind-admin", "system:masters")
	srv := newMTLSServer(t, certPEM)

	c, err := RESTClientFor(&Config{Host: srv.URL, CAData: serverCA(srv), CertData: certPEM, KeyData: keyPEM})
	require.NoError(t, err)
	pod, err := whoIs(t, c)
	require.NoError(t, err)
	assert.Equal(t, "kind-admin", pod.Name)
	assert.Empty(t, pod.Annotations["auth"], "no token was set")

	// A token and a certificate are both sent, as client-go does.
	c, err = RESTClientFor(&Config{Host: srv.URL, CAData: serverCA(srv), CertData: certPEM, KeyData: keyPEM, BearerToken: "tok"})
	require.NoError(t, err)
	pod, err = whoIs(t, c)
	require.NoError(t, err)
	assert.Equal(t, "kind-admin", pod.Name)
	assert.Equal(t, "Bearer tok", pod.Annotations["auth"])

	// The same server without a certificate, and with one it does not trust.
	otherCert, otherKey := testcert.SelfSignedClient(t, "stranger", "system:masters")
	tests := []struct {
		name    string
		cfg     *Config
		wantErr string
	}{
		{"no certificate", &Config{Host: srv.URL, CAData: serverCA(srv)}, "tls: certificate required"},
		{"untrusted certificate", &Config{Host: srv.URL, CAData: serverCA(srv), CertData: otherCert, KeyData: otherKey}, "tls: unknown certificate authority"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := RESTClientFor(tc.cfg)
			require.NoError(t, err)
			_, err = whoIs(t, c)
			require.ErrorContains(t, err, tc.wantErr)
		})
	}
}

// Config.CertData and KeyData go together and must parse; each mistake is refused when the
// client is built, with an error that says what is wrong.
func TestCh02_ClientCertificateConfigErrors(t *testing.T) {
	certPEM, keyPEM := testcert.SelfSignedClient(t, "a", "system:masters")
	_, otherKey := testcert.SelfSignedClient(t, "b", "system:masters")
	tests := []struct {
		name    string
		cfg     Config
		wantErr string
	}{
		{"certificate without key", Config{CertData: certPEM}, "Config.CertData is set but Config.KeyData is not"},
		{"key without certificate", Config{KeyData: keyPEM}, "Config.KeyData is set but Config.CertData is not"},
		{"garbage PEM", Config{CertData: []byte("not pem"), KeyData: []byte("junk")}, "not a usable client certificate and key"},
		{"key of another certificate", Config{CertData: certPEM, KeyData: otherKey}, "private key does not match public key"},
		{"certificate and key swapped", Config{CertData: keyPEM, KeyData: certPEM}, "not a usable client certificate and key"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.cfg.Host = "https://127.0.0.1:6443"
			_, err := RESTClientFor(&tc.cfg)
			require.ErrorContains(t, err, tc.wantErr)
		})
	}
}

// A kubeconfig's client certificate, kind style (base64 data) and minikube style (files
// next to the kubeconfig), reaches a server that requires it.
func TestCh02_ClientCertificateKubeconfig(t *testing.T) {
	checkNoLeak(t)
	dataCert, dataKey := testcert.SelfSignedClient(t, "kind-lab", "system:masters")
	fileCert, err := os.ReadFile(filepath.Join("testdata", "client.crt"))
	require.NoError(t, err)
	fileKey, err := os.ReadFile(filepath.Join("testdata", "client.key"))
	require.NoError(t, err)
	srv := newMTLSServer(t, dataCert, fileCert)

	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "client.crt"), fileCert, 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "client.key"), fileKey, 0o600))
	b64 := base64.StdEncoding.EncodeToString
	tests := []struct {
		name   string
		user   string
		wantCN string
	}{
		{"kind: certificate data", fmt.Sprintf("    client-certificate-data: %s\n    client-key-data: %s\n", b64(dataCert), b64(dataKey)), "kind-lab"},
		{"minikube: files beside the kubeconfig", "    client-certificate: client.crt\n    client-key: client.key\n", "minikube-user"},
		{"data wins over a file", fmt.Sprintf("    client-certificate: client.crt\n    client-certificate-data: %s\n    client-key: client.key\n    client-key-data: %s\n",
			b64(dataCert), b64(dataKey)), "kind-lab"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, "config")
			require.NoError(t, os.WriteFile(path, []byte(fmt.Sprintf(`apiVersion: v1
kind: Config
current-context: lab
clusters:
- name: lab
  cluster:
    server: %s
    certificate-authority-data: %s
contexts:
- name: lab
  context:
    cluster: lab
    user: lab
users:
- name: lab
  user:
%s`, srv.URL, b64(serverCA(srv)), tc.user)), 0o600))
			cfg, err := BuildConfigFromKubeconfig(path)
			require.NoError(t, err)
			c, err := RESTClientFor(cfg)
			require.NoError(t, err)
			pod, err := whoIs(t, c)
			require.NoError(t, err)
			assert.Equal(t, tc.wantCN, pod.Name)
		})
	}
}
