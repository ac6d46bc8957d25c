package rest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/internal/resttest"
	"github.com/informer-lab/informer-lab/internal/testcert"
)

// whoIs asks the server who the client is: the Pod resttest.WhoAmI returns.
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
	srv := resttest.NewMTLSServer(t, certPEM)

	c, err := RESTClientFor(&Config{Host: srv.URL, CAData: resttest.ServerCA(srv), CertData: certPEM, KeyData: keyPEM})
	require.NoError(t, err)
	pod, err := whoIs(t, c)
	require.NoError(t, err)
	assert.Equal(t, "kind-admin", pod.Name)
	assert.Empty(t, pod.Annotations["auth"], "no token was set")

	// A token and a certificate are both sent, as client-go does.
	c, err = RESTClientFor(&Config{Host: srv.URL, CAData: resttest.ServerCA(srv), CertData: certPEM, KeyData: keyPEM, BearerToken: "tok"})
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
		{"no certificate", &Config{Host: srv.URL, CAData: resttest.ServerCA(srv)}, "tls: certificate required"},
		{"untrusted certificate", &Config{Host: srv.URL, CAData: resttest.ServerCA(srv), CertData: otherCert, KeyData: otherKey}, "tls: unknown certificate authority"},
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
